// A stand-in for SwiftUI, so that Linux can type-check Sources/LifecycleLogSwiftUI
// (scripts/check-swiftui-glue). Not a package target: the script compiles it
// into a module named SwiftUI with library evolution (like Apple's, so a
// switch over ScenePhase needs `@unknown default`).
//
// It declares exactly what the glue uses, with the signatures of Apple's
// documentation (each `///` names its page), isolation as in the current SDKs
// (`View` and `ViewModifier` are `@MainActor @preconcurrency`, their modifier
// methods `nonisolated`). Availability attributes are Apple's: Linux's compiler
// ignores them, so scripts/check-availability reads them and fails on a use of an
// API newer than Package.swift's platforms outside an adequate `#available`. A
// declaration added here without `@available` is taken as available on every
// declared platform: give a newer one Apple's attribute.
// The bodies do nothing: this module is only ever type-checked against.

/// https://developer.apple.com/documentation/swiftui/view
/// `@MainActor @preconcurrency protocol View`
@MainActor @preconcurrency
public protocol View {
    /// https://developer.apple.com/documentation/swiftui/view/body-swift.associatedtype
    associatedtype Body: View
    /// https://developer.apple.com/documentation/swiftui/view/body-swift.property
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// https://developer.apple.com/documentation/swiftui/viewbuilder
/// `@resultBuilder struct ViewBuilder` (only what a single-expression body needs).
@resultBuilder
public struct ViewBuilder {
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildexpression(_:)
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)-8f9sa (several views; the demo app's stacks)
    /// `static func buildBlock<each Content>(_ content: repeat each Content) -> TupleView<(repeat each Content)> where repeat each Content : View`
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        TupleView((repeat each content))
    }
}

/// https://developer.apple.com/documentation/swiftui/tupleview
/// `@frozen struct TupleView<T>`, a `View`.
@frozen public struct TupleView<T>: View {
    /// https://developer.apple.com/documentation/swiftui/tupleview/init(_:) (the stand-in keeps nothing)
    nonisolated public init(_ value: T) {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/vstack
/// `@frozen struct VStack<Content> where Content : View`
@frozen public struct VStack<Content: View>: View {
    /// https://developer.apple.com/documentation/swiftui/vstack/init(alignment:spacing:content:)
    public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/toggle
/// `struct Toggle<Label> where Label : View`
public struct Toggle<Label: View>: View {
    public var body: Never { fatalError() }
}

extension Toggle where Label == Text {
    /// https://developer.apple.com/documentation/swiftui/toggle/init(_:ison:)-6lf4x (the `StringProtocol` overload)
    /// `init<S>(_ title: S, isOn: Binding<Bool>) where S : StringProtocol`
    public init<S: StringProtocol>(_ title: S, isOn: Binding<Bool>) {}
}

/// https://developer.apple.com/documentation/swiftui/appstorage
/// `@frozen @propertyWrapper struct AppStorage<Value>`
@frozen @propertyWrapper
public struct AppStorage<Value>: DynamicProperty {
    private let initial: Value
    /// https://developer.apple.com/documentation/swiftui/appstorage/init(wrappedvalue:_:store:)-5hrci (the `Bool` overload;
    /// its `store: UserDefaults? = nil` left out here)
    public init(wrappedValue: Value, _ key: String) where Value == Bool { initial = wrappedValue }
    /// https://developer.apple.com/documentation/swiftui/appstorage/projectedvalue
    public var projectedValue: Binding<Value> { Binding(get: { initial }, set: { _ in }) }
    /// https://developer.apple.com/documentation/swiftui/appstorage/wrappedvalue
    public var wrappedValue: Value {
        get { initial }
        nonmutating set {}
    }
}

/// https://developer.apple.com/documentation/swift/never (SwiftUI adds `extension Never: View`)
extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

/// What the stand-in's modifiers return; SwiftUI's are opaque (`some View`).
public struct _StandInView: View {
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/viewmodifier
/// `@MainActor @preconcurrency protocol ViewModifier`
@MainActor @preconcurrency
public protocol ViewModifier {
    /// https://developer.apple.com/documentation/swiftui/viewmodifier/body-swift.associatedtype
    associatedtype Body: View
    /// https://developer.apple.com/documentation/swiftui/viewmodifier/content
    /// `typealias Content = _ViewModifier_Content<Self>`
    typealias Content = _ViewModifier_Content<Self>
    /// https://developer.apple.com/documentation/swiftui/viewmodifier/body(content:)
    /// `@ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body`
    @ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body
}

/// https://developer.apple.com/documentation/swiftui/viewmodifier/content
/// (the proxy a modifier's `body(content:)` receives; a `View`).
public struct _ViewModifier_Content<Modifier: ViewModifier>: View {
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/modifiedcontent
/// `@frozen struct ModifiedContent<Content, Modifier>`, a `View` when `Content: View, Modifier: ViewModifier`.
@frozen public struct ModifiedContent<Content, Modifier> {
    /// https://developer.apple.com/documentation/swiftui/modifiedcontent/content
    public var content: Content
    /// https://developer.apple.com/documentation/swiftui/modifiedcontent/modifier
    public var modifier: Modifier
    /// https://developer.apple.com/documentation/swiftui/modifiedcontent/init(content:modifier:)
    @inlinable public init(content: Content, modifier: Modifier) {
        self.content = content
        self.modifier = modifier
    }
}

/// https://developer.apple.com/documentation/swiftui/modifiedcontent (conforms to `View` when …)
extension ModifiedContent: View where Content: View, Modifier: ViewModifier {
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/anyview
/// `@frozen struct AnyView`
@frozen public struct AnyView: View {
    /// https://developer.apple.com/documentation/swiftui/anyview/init(_:)
    /// `init<V>(_ view: V) where V : View`
    public init<V>(_ view: V) where V: View {}
    public var body: Never { fatalError() }
}

extension View {
    /// https://developer.apple.com/documentation/swiftui/view/modifier(_:)
    /// `nonisolated func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T>`
    nonisolated public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> {
        ModifiedContent(content: self, modifier: modifier)
    }

    /// https://developer.apple.com/documentation/swiftui/view/onappear(perform:)
    /// `nonisolated func onAppear(perform action: (() -> Void)? = nil) -> some View`
    nonisolated public func onAppear(perform action: (() -> Void)? = nil) -> some View { _StandInView() }

    /// https://developer.apple.com/documentation/swiftui/view/ondisappear(perform:)
    /// `nonisolated func onDisappear(perform action: (() -> Void)? = nil) -> some View`
    nonisolated public func onDisappear(perform action: (() -> Void)? = nil) -> some View { _StandInView() }

    /// https://developer.apple.com/documentation/swiftui/view/onchange(of:perform:)
    /// `nonisolated func onChange<V>(of value: V, perform action: @escaping (V) -> Void) -> some View where V : Equatable`
    /// (iOS 14–17, macOS 11–14, tvOS 14–17, watchOS 7–10: deprecated since).
    @available(iOS, introduced: 14.0, deprecated: 17.0, message: "Use `onChange` with a two or zero parameter action closure instead.")
    @available(macOS, introduced: 11.0, deprecated: 14.0, message: "Use `onChange` with a two or zero parameter action closure instead.")
    @available(tvOS, introduced: 14.0, deprecated: 17.0, message: "Use `onChange` with a two or zero parameter action closure instead.")
    @available(watchOS, introduced: 7.0, deprecated: 10.0, message: "Use `onChange` with a two or zero parameter action closure instead.")
    @available(visionOS, introduced: 1.0, deprecated: 1.0, message: "Use `onChange` with a two or zero parameter action closure instead.")
    nonisolated public func onChange<V>(of value: V, perform action: @escaping (V) -> Void) -> some View where V: Equatable { _StandInView() }

    /// https://developer.apple.com/documentation/swiftui/view/onchange(of:initial:_:)-4psgg
    /// `nonisolated func onChange<V>(of value: V, initial: Bool = false, _ action: @escaping (V, V) -> Void) -> some View where V : Equatable`
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    nonisolated public func onChange<V>(of value: V, initial: Bool = false, _ action: @escaping (V, V) -> Void) -> some View where V: Equatable { _StandInView() }

    /// https://developer.apple.com/documentation/swiftui/view/background(alignment:content:)
    /// `nonisolated func background<V>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View where V : View`
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
    nonisolated public func background<V>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View where V: View { _StandInView() }

    /// https://developer.apple.com/documentation/swiftui/view/environment(_:_:)
    /// `nonisolated func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> some View`
    nonisolated public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> some View { _StandInView() }
}

/// https://developer.apple.com/documentation/swiftui/dynamicproperty
/// `protocol DynamicProperty`
public protocol DynamicProperty {}

/// https://developer.apple.com/documentation/swiftui/environmentkey
/// `protocol EnvironmentKey` with `associatedtype Value` and `static var defaultValue: Self.Value { get }`
public protocol EnvironmentKey {
    /// https://developer.apple.com/documentation/swiftui/environmentkey/value
    associatedtype Value
    /// https://developer.apple.com/documentation/swiftui/environmentkey/defaultvalue
    static var defaultValue: Self.Value { get }
}

/// https://developer.apple.com/documentation/swiftui/environmentvalues
/// `struct EnvironmentValues`
public struct EnvironmentValues {
    /// https://developer.apple.com/documentation/swiftui/environmentvalues/init()
    public init() {}

    /// https://developer.apple.com/documentation/swiftui/environmentvalues/subscript(_:) (the `EnvironmentKey` overload)
    /// `subscript<K>(key: K.Type) -> K.Value where K : EnvironmentKey { get set }`
    public subscript<K>(key: K.Type) -> K.Value where K: EnvironmentKey {
        get { K.defaultValue }
        set {}
    }

    /// https://developer.apple.com/documentation/swiftui/environmentvalues/scenephase
    /// `var scenePhase: ScenePhase { get set }`
    public var scenePhase: ScenePhase {
        get { .active }
        set {}
    }
}

/// https://developer.apple.com/documentation/swiftui/environment
/// `@frozen @propertyWrapper struct Environment<Value>`
@frozen @propertyWrapper
public struct Environment<Value>: DynamicProperty {
    /// https://developer.apple.com/documentation/swiftui/environment/init(_:) (the key-path overload)
    /// `init(_ keyPath: KeyPath<EnvironmentValues, Value>)`
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {
        self.keyPath = keyPath
    }
    private let keyPath: KeyPath<EnvironmentValues, Value>
    /// https://developer.apple.com/documentation/swiftui/environment/wrappedvalue
    /// `var wrappedValue: Value { get }`
    public var wrappedValue: Value { EnvironmentValues()[keyPath: keyPath] }
}

/// https://developer.apple.com/documentation/swiftui/scenephase
/// `enum ScenePhase` (`Comparable`, `Hashable`, `Sendable`); cases `background`, `inactive`, `active`.
public enum ScenePhase: Comparable, Hashable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/scenephase/background
    case background
    /// https://developer.apple.com/documentation/swiftui/scenephase/inactive
    case inactive
    /// https://developer.apple.com/documentation/swiftui/scenephase/active
    case active
}

/// https://developer.apple.com/documentation/swiftui/scenestorage
/// `@frozen @propertyWrapper struct SceneStorage<Value>`
@frozen @propertyWrapper
public struct SceneStorage<Value>: DynamicProperty {
    private let initial: Value
    /// https://developer.apple.com/documentation/swiftui/scenestorage/init(_:) (the overload `where Value == String?`)
    /// `init(_ key: String) where Value == String?`
    public init(_ key: String) where Value == String? { initial = nil }
    /// https://developer.apple.com/documentation/swiftui/scenestorage/init(wrappedvalue:_:) (the `String` overload)
    /// `init(wrappedValue: Value, _ key: String) where Value == String`
    public init(wrappedValue: Value, _ key: String) where Value == String { initial = wrappedValue }
    /// https://developer.apple.com/documentation/swiftui/scenestorage/projectedvalue
    /// `var projectedValue: Binding<Value> { get }`
    public var projectedValue: Binding<Value> { Binding(get: { initial }, set: { _ in }) }
    /// https://developer.apple.com/documentation/swiftui/scenestorage/wrappedvalue
    /// `var wrappedValue: Value { get nonmutating set }`
    public var wrappedValue: Value {
        get { initial }
        nonmutating set {}
    }
}

/// https://developer.apple.com/documentation/swiftui/state
/// `@frozen @propertyWrapper struct State<Value>`
@frozen @propertyWrapper
public struct State<Value>: DynamicProperty {
    private let initial: Value
    /// https://developer.apple.com/documentation/swiftui/state/init(wrappedvalue:)
    /// `init(wrappedValue value: Value)`
    public init(wrappedValue value: Value) { initial = value }
    /// https://developer.apple.com/documentation/swiftui/state/init(initialvalue:)
    /// `init(initialValue value: Value)`
    public init(initialValue value: Value) { initial = value }
    /// https://developer.apple.com/documentation/swiftui/state/wrappedvalue
    /// `var wrappedValue: Value { get nonmutating set }`
    public var wrappedValue: Value {
        get { initial }
        nonmutating set {}
    }
}

/// https://developer.apple.com/documentation/swiftui/alignment
/// `@frozen struct Alignment`
@frozen public struct Alignment: Equatable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/alignment/center
    public static let center = Alignment()
}

#if canImport(UIKit)
import UIKit

/// https://developer.apple.com/documentation/swiftui/uiviewrepresentable
/// `@MainActor @preconcurrency protocol UIViewRepresentable : View where Self.Body == Never`
@MainActor @preconcurrency
public protocol UIViewRepresentable: View where Body == Never {
    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/uiviewtype
    associatedtype UIViewType: UIView
    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/context
    typealias Context = UIViewRepresentableContext<Self>
    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/makeuiview(context:)
    @MainActor @preconcurrency func makeUIView(context: Self.Context) -> Self.UIViewType
    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/updateuiview(_:context:)
    @MainActor @preconcurrency func updateUIView(_ uiView: Self.UIViewType, context: Self.Context)
}

extension UIViewRepresentable {
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/uiviewrepresentablecontext
@MainActor @preconcurrency public struct UIViewRepresentableContext<Representable: UIViewRepresentable> {}
#elseif canImport(AppKit)
import AppKit

/// https://developer.apple.com/documentation/swiftui/nsviewrepresentable
/// `@MainActor @preconcurrency protocol NSViewRepresentable : View where Self.Body == Never`
@MainActor @preconcurrency
public protocol NSViewRepresentable: View where Body == Never {
    /// https://developer.apple.com/documentation/swiftui/nsviewrepresentable/nsviewtype
    associatedtype NSViewType: NSView
    /// https://developer.apple.com/documentation/swiftui/nsviewrepresentable/context
    typealias Context = NSViewRepresentableContext<Self>
    /// https://developer.apple.com/documentation/swiftui/nsviewrepresentable/makensview(context:)
    @MainActor @preconcurrency func makeNSView(context: Self.Context) -> Self.NSViewType
    /// https://developer.apple.com/documentation/swiftui/nsviewrepresentable/updatensview(_:context:)
    @MainActor @preconcurrency func updateNSView(_ nsView: Self.NSViewType, context: Self.Context)
}

extension NSViewRepresentable {
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/nsviewrepresentablecontext
@MainActor @preconcurrency public struct NSViewRepresentableContext<Representable: NSViewRepresentable> {}
#endif

// What the README's recipes use besides the glue (scripts/check-swiftui-glue type-checks them).

/// https://developer.apple.com/documentation/swiftui/binding
/// `@frozen @propertyWrapper @dynamicMemberLookup struct Binding<Value>`
@frozen @propertyWrapper
public struct Binding<Value> {
    private let get: () -> Value
    /// https://developer.apple.com/documentation/swiftui/binding/init(get:set:)-6g3d5
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) { self.get = get }
    /// https://developer.apple.com/documentation/swiftui/binding/wrappedvalue
    public var wrappedValue: Value {
        get { get() }
        nonmutating set {}
    }
    /// https://developer.apple.com/documentation/swiftui/binding/projectedvalue
    public var projectedValue: Binding<Value> { self }
    /// https://developer.apple.com/documentation/swiftui/binding/init(projectedvalue:)
    /// (what lets a closure take `$id` for a `Binding` argument)
    public init(projectedValue: Binding<Value>) { get = projectedValue.get }
}

/// https://developer.apple.com/documentation/swiftui/scene
/// `@MainActor @preconcurrency protocol Scene`
@MainActor @preconcurrency
public protocol Scene {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: Scene {}

/// What the stand-in's scene builder returns; SwiftUI's are its own types.
public struct _StandInScene: Scene {
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/scenebuilder
@resultBuilder
public struct SceneBuilder {
    /// https://developer.apple.com/documentation/swiftui/scenebuilder/buildblock(_:)
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
    /// https://developer.apple.com/documentation/swiftui/scenebuilder/buildblock(_:_:)
    public static func buildBlock<C0: Scene, C1: Scene>(_ c0: C0, _ c1: C1) -> some Scene { _StandInScene() }
}

/// https://developer.apple.com/documentation/swiftui/app
/// `@MainActor @preconcurrency protocol App`
@MainActor @preconcurrency
public protocol App {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
    @MainActor @preconcurrency init()
}

extension App {
    /// https://developer.apple.com/documentation/swiftui/app/main()
    @MainActor @preconcurrency public static func main() {}
}

/// https://developer.apple.com/documentation/swiftui/windowgroup
/// `struct WindowGroup<Content> where Content : View`, a `Scene`.
public struct WindowGroup<Content: View>: Scene {
    /// https://developer.apple.com/documentation/swiftui/windowgroup/init(id:content:)
    public init(id: String, @ViewBuilder content: () -> Content) {}
    /// https://developer.apple.com/documentation/swiftui/windowgroup/init(id:for:content:)
    /// `init<D, C>(id: String, for type: D.Type, @ViewBuilder content: @escaping (Binding<D?>) -> C) where Content == PresentedWindowContent<D, C>, D : Decodable, D : Encodable, D : Hashable, C : View`
    public init<D: Codable & Hashable, C: View>(id: String, for type: D.Type, @ViewBuilder content: @escaping (Binding<D?>) -> C) where Content == _StandInView {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/texteditor
public struct TextEditor: View {
    /// https://developer.apple.com/documentation/swiftui/texteditor/init(text:)
    public init(text: Binding<String>) {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/text
public struct Text: View {
    /// https://developer.apple.com/documentation/swiftui/text/init(_:)-9d1g4 (the `StringProtocol` overload)
    public init<S: StringProtocol>(_ content: S) {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/button
public struct Button<Label: View>: View {
    public var body: Never { fatalError() }
}

extension Button where Label == Text {
    /// https://developer.apple.com/documentation/swiftui/button/init(_:action:)-lpm7 (the `StringProtocol` overload)
    public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {}
}

extension View {
    /// https://developer.apple.com/documentation/swiftui/view/toolbar(content:)-5w0tj
    /// `nonisolated func toolbar<Content>(@ViewBuilder content: () -> Content) -> some View where Content : View`
    nonisolated public func toolbar<Content: View>(@ViewBuilder content: () -> Content) -> some View { _StandInView() }
}

#if canImport(UIKit)
/// https://developer.apple.com/documentation/swiftui/uiapplicationdelegateadaptor
/// `@MainActor @preconcurrency @propertyWrapper struct UIApplicationDelegateAdaptor<DelegateType> where DelegateType : NSObject, DelegateType : UIApplicationDelegate`
@MainActor @preconcurrency @propertyWrapper
public struct UIApplicationDelegateAdaptor<DelegateType: NSObject & UIApplicationDelegate>: DynamicProperty {
    /// https://developer.apple.com/documentation/swiftui/uiapplicationdelegateadaptor/init(_:)-59sfu
    public init(_ delegateType: DelegateType.Type = DelegateType.self) {}
    /// https://developer.apple.com/documentation/swiftui/uiapplicationdelegateadaptor/wrappedvalue
    public var wrappedValue: DelegateType { fatalError() }
}
#elseif canImport(AppKit)
/// https://developer.apple.com/documentation/swiftui/nsapplicationdelegateadaptor
@MainActor @preconcurrency @propertyWrapper
public struct NSApplicationDelegateAdaptor<DelegateType: NSObject & NSApplicationDelegate>: DynamicProperty {
    /// https://developer.apple.com/documentation/swiftui/nsapplicationdelegateadaptor/init(_:)-5s2ex
    public init(_ delegateType: DelegateType.Type = DelegateType.self) {}
    /// https://developer.apple.com/documentation/swiftui/nsapplicationdelegateadaptor/wrappedvalue
    public var wrappedValue: DelegateType { fatalError() }
}
#endif
