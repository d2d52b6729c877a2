/// Entry point of the `fsm` command.
public enum FSM {
  public static func main(_ arguments: [String]) -> Int32 {
    let w = LoaderBench.workload(count: 10_000_000)
    for r in try! w.measure(repetitions: 5) { print(r.variant, r.nsPerEvent, r.ratioToSwitch, r.samples) }
    return 0
  }
}
