#if ECMAScript
import StateMachineECMAScript

/// The `ecmascript` workload (with the `ECMAScript` trait): a `cond` evaluated by the
/// ECMAScript datamodel, beside the same comparison in Swift.
enum ECMAScriptBench {
  static func workload(count: Int) -> BenchWorkload {
    let model = ECMAScriptDatamodel()
    // A condition as charts write them: a declared value against a constant.
    try? model.declare("count", "3")
    let (value, threshold) = (3, Int.random(in: 1...1))  // read at run time: not folded away
    return BenchWorkload(
      name: "ecmascript", events: count,
      variants: [
        BenchVariant(name: "switch: the same comparison in Swift") {
          var held = 0
          for _ in 0..<count where value >= threshold { held += 1 }
          return held
        },
        BenchVariant(name: "cond: ECMAScriptDatamodel.condition (compiled once)") {
          var held = 0
          for _ in 0..<count where (try? model.condition("count >= 1")) == true { held += 1 }
          return held
        },
      ])
  }
}
#endif
