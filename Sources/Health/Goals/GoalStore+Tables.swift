import Replication
import Storage

extension GoalStore {
  public static let goals = Table(
    "goal", comment: "Goals for steps and distances (metres).",
    [
      .text("id", "NOT NULL"), .text("account_id", "NOT NULL REFERENCES account(id) ON DELETE CASCADE"),
      .text("type", "NOT NULL CHECK (type IN ('steps', 'walking-distance', 'running-distance'))"),
      .real("target", "NOT NULL CHECK (target > 0)"), .text("title"), .text("description"), .text("reward"),
    ], constraints: ["PRIMARY KEY (account_id, id)"])
}

extension Dataset {
  public static let goal = Dataset(
    GoalStore.goals,
    rules: [
      "type": .oneOf(Goal.Kind.allCases.map(\.rawValue)), "target": .number(0.000_001...10_000_000),
      "title": .text(maxBytes: 2000), "reward": .json,
    ])
}
