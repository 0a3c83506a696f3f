import Core
import Foundation

/// What a sleep sample says of its stretch of time: the values of Apple Health's
/// `HKCategoryTypeIdentifierSleepAnalysis`, iOS 16's stages and older exports' in bed and asleep
/// alike.
public enum SleepState: String, Sendable, CaseIterable {
  case inBed = "in_bed"
  /// Asleep, with no stage said: older exports, apps without stages.
  case asleep
  case core, deep, rem, awake

  /// The sample type sleep is stored under.
  public static let type = "HKCategoryTypeIdentifierSleepAnalysis"

  /// The state a sample's value names, as text (`HKCategoryValueSleepAnalysisAsleepCore`) or as
  /// HealthKit's number for it (0 in bed, 1 asleep, 2 awake, 3 core, 4 deep, 5 REM).
  public init?(healthValue: String) {
    switch healthValue {
    case "HKCategoryValueSleepAnalysisInBed", "0": self = .inBed
    case "HKCategoryValueSleepAnalysisAsleep", "HKCategoryValueSleepAnalysisAsleepUnspecified", "1": self = .asleep
    case "HKCategoryValueSleepAnalysisAwake", "2": self = .awake
    case "HKCategoryValueSleepAnalysisAsleepCore", "3": self = .core
    case "HKCategoryValueSleepAnalysisAsleepDeep", "4": self = .deep
    case "HKCategoryValueSleepAnalysisAsleepREM", "5": self = .rem
    default: return nil
    }
  }

  /// The value Apple Health writes for this state: what another source's sleep is stored as.
  public var healthValue: String {
    switch self {
    case .inBed: "HKCategoryValueSleepAnalysisInBed"
    case .asleep: "HKCategoryValueSleepAnalysisAsleepUnspecified"
    case .awake: "HKCategoryValueSleepAnalysisAwake"
    case .core: "HKCategoryValueSleepAnalysisAsleepCore"
    case .deep: "HKCategoryValueSleepAnalysisAsleepDeep"
    case .rem: "HKCategoryValueSleepAnalysisAsleepREM"
    }
  }

  public var isAsleep: Bool { self == .asleep || self == .core || self == .deep || self == .rem }

  /// The stages a night is told in, in the order they are shown.
  public static let stages: [SleepState] = [.core, .deep, .rem, .asleep]
}

/// One sample of sleep, as stored.
public struct SleepSample: Equatable, Sendable {
  public var state: SleepState
  public var source: String
  public var start: Date
  public var end: Date

  public init(state: SleepState, source: String, start: Date, end: Date) {
    (self.state, self.source, self.start, self.end) = (state, source, start, end)
  }
}

/// One night's sleep (docs/cli.md, `vital health sleep`): it belongs to the local day it ends on.
public struct SleepNight: Equatable, Sendable {
  public var day: LocalDate
  /// When the first stretch in bed began, and when the last one ended.
  public var bedtime: Date
  public var wake: Date
  /// Seconds in bed: those any source said were in bed, or gave a stage to. Stretches apart by
  /// less than `SleepAnalysis.sessionGap` are one night, the time between them not counted.
  public var inBed: Int
  /// Seconds asleep; nil when no source gave the night a stage (in bed is all that is known).
  public var asleep: Int?
  /// Seconds in each of `SleepState.stages`, and awake, as the best-ranked source says each
  /// moment was.
  public var stages: [SleepState: Int]
  public var awake: Int
  /// How often sleep was broken: stretches awake between the first and the last sleep.
  public var awakePeriods: Int
  /// Stages, and waking, that none of a staged night's sources ever reports: a band that tells
  /// light from deep sleep says nothing of REM or of waking, which are then unknown, not 0.
  public var unknown: Set<SleepState> = []
  /// The sources that said anything of the night, best-ranked first.
  public var sources: [String]
  /// Shorter sleeps that ended on the same day.
  public var naps: [Nap]

  /// Whether a source told the night's stages (core, deep or REM): a phone app's plain "asleep"
  /// does not, and its stages and waking are then not known.
  public var isStaged: Bool { [SleepState.core, .deep, .rem].contains { stages[$0, default: 0] > 0 } }

  public struct Nap: Equatable, Sendable {
    public var start: Date
    public var end: Date
    public var inBed: Int
    public var asleep: Int?
  }
}
