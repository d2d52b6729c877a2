public import StateMachineChecking
public import StateMachine

/// The machines shipped with the package, by name, for the `fsm` command and for tests.
public enum MachineCatalog {
  /// Every shipped machine, in the order `fsm list` prints them.
  public static let all: [MachineDescription] = [
    MachineDescription(Login.table, summary: "three-step login: welcome, credentials, authenticating, success"),
    MachineDescription(chart: Loader.chart, summary: "paged user list with automatic retries and a cache (a chart)"),
    MachineDescription(Captcha.table, summary: "verification-code button with a 60 s countdown"),
    MachineDescription(Registration.table, summary: "registration form with four requirements"),
    MachineDescription(chart: PhoneLogin.chart, summary: "phone login: two regions, the form and the code countdown (a chart)"),
    MachineDescription(chart: Radio.chart, summary: "internet radio: three regions, eventless buffering, history after power (a chart)"),
    MachineDescription(chart: UploadQueue.chart, summary: "upload queue: one child machine per file, two at a time, retries, a summary (a chart)")
      .invoking(upload, in: ["uploading"]),
    upload,
    MachineDescription(NameLength.table, summary: "tiny: a text field and its \"length: N\" label"),
    MachineDescription(Counter.table, summary: "tiny: a counter a 1 s timer increments"),
    MachineDescription(CDPlayer.table, summary: "Boost.SML's CD player benchmark machine: 5 states, 6 events, 12 transitions"),
  ]

  /// The upload queue's child machine, listed on its own too.
  static let upload = MachineDescription(Upload.table, summary: "one file's upload, a child of the upload queue: 2 retries after 1 s")

  /// The scripted runs `fsm demo` prints, one per example machine.
  public static let demos: [MachineDemo] = [
    Login.demo, Loader.demo, Captcha.demo, Registration.demo, PhoneLogin.demo, Radio.demo, UploadQueue.demo, NameLength.demo, Counter.demo,
  ]

  /// The machine named `name`, if one is shipped.
  public static func machine(named name: String) -> MachineDescription? {
    all.first { $0.name == name }
  }

  /// The demo of the machine named `name`, if it has one.
  public static func demo(named name: String) -> MachineDemo? {
    demos.first { $0.name == name }
  }
}
