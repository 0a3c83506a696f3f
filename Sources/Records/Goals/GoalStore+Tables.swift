import Replication
import Storage

extension GoalStore {
  public static let goals = Table(
    "goal", comment: "Goals for steps and distances (metres).",
    Goal.shape.accountTableColumns(), constraints: ["PRIMARY KEY (account_id, id)"])
}

extension Dataset {
  public static let goal = Dataset(GoalStore.goals, rules: Goal.shape.rules)
}
