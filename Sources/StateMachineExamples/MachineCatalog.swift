public import StateMachine

/// The machines shipped with the package, by name, for the `fsm` command and for tests.
public enum MachineCatalog {
  /// Every shipped machine, in the order `fsm list` prints them.
  public static let all: [MachineDescription] = [
    MachineDescription(CDPlayer.table, summary: "Boost.SML's CD player benchmark machine: 5 states, 6 events, 12 transitions")
  ]

  /// The machine named `name`, if one is shipped.
  public static func machine(named name: String) -> MachineDescription? {
    all.first { $0.name == name }
  }
}
