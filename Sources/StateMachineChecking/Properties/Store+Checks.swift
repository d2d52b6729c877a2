public import StateMachine

extension Store {
  /// Waits until the store is idle and checks that every effect and timer it started has
  /// finished or been cancelled: nothing is left running at the end of a run.
  ///
  /// - Throws: ``PropertyFailure`` saying how many are still running.
  public func requireEffectsSettled() async throws(PropertyFailure<Event>) {
    await settle()
    let running = runningEffectCount
    guard running == 0 else {
      throw PropertyFailure(
        seed: 0, property: "every effect finished or cancelled",
        message: "\(running) effect\(running == 1 ? " is" : "s are") still running", events: [], originalLength: 0)
    }
  }
}
