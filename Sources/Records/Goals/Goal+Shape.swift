import Replication

extension Goal {
  /// A goal as it is stored, synced and exported (`GoalStore.goals`, `Dataset.goal`).
  public static let shape = RecordShape<Goal>(
    blank: { Goal(id: "", kind: .steps, target: 1, title: nil, description: nil, reward: nil) },
    [
      // A type this Vital does not know is counted as steps.
      .text("id", \.id), .choice("type", \.kind, onFault: .missing),
      // A goal whose target no rule lets in (an older Vital's) is left out, not divided by.
      .real("target", \.target, "CHECK (target > 0)", rule: .number(0.000_001...10_000_000), onFault: .skipsRecord),
      .text("title", \.title, rule: .text(maxBytes: 2000)), .text("description", \.description),
      // The catalogue's reward, as its JSON text.
      .text("reward", \.reward, rule: .json),
    ])

  package static let synced = shape.selection(Dataset.goal.fields)
}
