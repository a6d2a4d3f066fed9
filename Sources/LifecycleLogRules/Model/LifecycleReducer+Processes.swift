/// Per-process views of the reducer for reports (trace format 2): the reducer keeps the
/// model of the process of the last applied event in ``LifecycleReducer/model`` and the
/// others set aside, so a report asks for a process by name.
extension LifecycleReducer {
    /// The state of `process` (`""`: the main app) after the last applied event, or `nil`
    /// when the reducer has no model of that process (no event of it was applied).
    package func state(ofProcess process: String) -> LifecycleState? {
        func named(_ p: Name) -> Bool { p == ReplayEvent.mainProcess ? process.isEmpty : model.names[p] == process }
        var state: LifecycleState
        if named(currentProcess) {
            state = model.state(seq: lastSeq)
        } else if let parkedProcess = parked.first(where: { named($0.key) })?.value {
            var parkedModel = caughtUp(parkedProcess).model
            parkedModel.names = model.names  // the names travel with the current process
            state = parkedModel.state(seq: lastSeq)
        } else {
            return nil
        }
        state.process = process
        return state
    }
}
