/// The model as a rule sees it: reads only, at the model's own address.
///
/// Rules look at the state the reducer has rebuilt (open windows, the run, keys) but never change
/// it. A `borrowing LifecycleModel` parameter would say so, but Swift 6.3 copies a struct this
/// large at such calls (a `memcpy` of the whole model, and a retain of each of its buffers); an
/// `inout LifecycleModel` is passed by address and would let a rule write. A view is the model
/// behind a wall of read accessors: its one stored property is the model, private and `let`, and
/// what rules read is all it exposes. So "rules never change the model" is the compiler's to keep,
/// not a comment's.
///
/// Rules are lent the view `inout`, only so that it is passed by address like the model was: a
/// view cannot be made outside this file, and what a rule could assign to it is a copy of the same
/// view. ``with(_:_:)`` makes it, in place, from the model's own storage: a struct with one stored
/// property has that property's layout, so the model's address is the view's (the one `unsafe`
/// step; ARCHITECTURE.md, "Where `unsafe` lives"). App rules see the same view through
/// ``LifecycleRuleContext``.
package struct ModelView {
    /// The model; never written through a view.
    private let base: LifecycleModel

    /// Lends `body` the view of `model`, at the model's address (nothing is copied): the only
    /// place a view is made.
    @inline(__always)
    package static func with<Result>(_ model: inout LifecycleModel, _ body: (inout ModelView) -> Result) -> Result {
        // One closure (the standard library's), so that the optimiser inlines `body` into the
        // caller: with `withMemoryRebound` as well it did not, and the rules' dispatch cost a
        // closure call per transition. The address is not rebound but taken as a view's: a
        // struct's only stored property is at its start with its layout (`MemoryLayout` checks
        // it below, in every build), and an access to a struct may alias one to its fields.
        precondition(MemoryLayout<ModelView>.size == MemoryLayout<LifecycleModel>.size
            && MemoryLayout<ModelView>.alignment == MemoryLayout<LifecycleModel>.alignment)
        return withUnsafeMutablePointer(to: &model) { address in
            body(&UnsafeMutableRawPointer(address).assumingMemoryBound(to: ModelView.self).pointee)
        }
    }

    /// Lends `body` the address of the view of `model` (``with(_:_:)``'s view, not a copy), for
    /// what must hold the view by address: app rules' contexts (``LifecycleRuleContext``).
    @inline(__always)
    package static func withAddress<Result>(_ model: inout LifecycleModel, _ body: (UnsafePointer<ModelView>) -> Result) -> Result {
        with(&model) { view in withUnsafePointer(to: &view, body) }
    }

    /// The whole rebuilt state at `seq` (``LifecycleState``), built on each call.
    func state(seq: UInt64) -> LifecycleState { base.state(seq: seq) }

    /// The strings behind every ``Name``.
    @inline(__always)
    var names: NameTable { _read { yield base.names } }
    /// The current (or last) run.
    @inline(__always)
    var run: RunState { _read { yield base.run } }
    /// The open windows, densely, in no particular order.
    @inline(__always)
    var openWindows: [OpenWindow] { _read { yield base.openWindows } }
    /// How many open windows have each phase of their own.
    @inline(__always)
    var ownPhaseCounts: PhaseCounts { _read { yield base.ownPhaseCounts } }
    /// The open windows by scene and by scene and value, in open order.
    @inline(__always)
    var openByScene: OpenWindowsByScene { _read { yield base.openByScene } }
    /// Every `app` and `shared` key ever touched, densely.
    @inline(__always)
    var sharedKeys: [SharedKey] { _read { yield base.sharedKeys } }
    /// How many keys of the running process have unsaved changes.
    @inline(__always)
    var dirtyCount: Int { base.dirtyCount }
    /// Whether a process is running.
    @inline(__always)
    var isRunning: Bool { base.isRunning }
    /// The aggregate app phase.
    @inline(__always)
    var appPhase: LifecyclePhase { base.appPhase }
    /// Whether a kill now would lose unsaved state (running, dirty, not active).
    @inline(__always)
    var wouldLoseStateToKill: Bool { base.wouldLoseStateToKill }
    /// Whether the run waits for its end after a willTerminate.
    @inline(__always)
    var awaitsEndAfterWillTerminate: Bool { base.awaitsEndAfterWillTerminate }

    /// The position in ``openWindows`` of the open window `id`.
    @inline(__always)
    func windowIndex(_ id: Name) -> Int? { base.windowIndex(id) }
    /// The open window whose id is the string `id`.
    func openWindow(named id: String) -> OpenWindow? { base.openWindow(named: id) }
    /// Every key with unsaved changes.
    func dirtyKeys() -> Set<KeyRef> { base.dirtyKeys() }
    /// The unsaved scene keys of open window `index`.
    func dirtySceneKeys(of index: Int) -> [KeyRef] { base.dirtySceneKeys(of: index) }
    /// The positions in ``sharedKeys`` of the document keys that dismissing window `index` closes.
    func documentKeysLeft(byDismissing index: Int) -> [Int] { base.documentKeysLeft(byDismissing: index) }
    /// The seqs of the last writes of `keys`.
    func lastWriteSeqs(_ keys: some Sequence<KeyRef>) -> [UInt64] { base.lastWriteSeqs(keys) }
    /// How a finding's message names `key`.
    func display(_ key: KeyRef) -> String { base.display(key) }
    /// `keys`, named and bounded, for a message.
    func list(_ keys: some Collection<KeyRef>) -> String { base.list(keys) }
    /// `list`, quoted and bounded, for a message.
    func quotedList(_ list: [Name]) -> String { base.quotedList(list) }
    /// A finding's identity across devices (``FindingSubject``).
    func subject(keys: some Collection<KeyRef> = [KeyRef](), windows: [Int] = [], details: [String] = []) -> FindingSubject {
        base.subject(keys: keys, windows: windows, details: details)
    }
}
