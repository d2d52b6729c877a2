/// A store on a manual clock takes part in it: the clock knows when its work sleeps, and waits
/// for it to be idle (see ``ManualClock``).
extension StoreRuntime: ManualClockParticipant {
  @usableFromInline
  func sleeperStarted() {
    let waiters = core.withLock { core in
      core.sleeping += 1
      return core.waitersToResume()
    }
    for waiter in waiters { waiter.resume() }
  }

  @usableFromInline
  func sleeperWoke() {
    core.withLock { $0.sleeping -= 1 }
  }

  @usableFromInline
  func waitUntilIdle() async { await settle() }
}
