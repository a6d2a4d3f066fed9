// https://developer.apple.com/documentation/combine
public protocol Publisher {}
public protocol Subscriber {}
public protocol Subscription {}
public protocol Subject {}
public final class PassthroughSubject {}
public final class CurrentValueSubject {}
public struct AnyPublisher {}
public final class AnyCancellable {}
public protocol Cancellable {}
public struct Just {}
public final class Future {}
public struct Deferred {}
public struct Empty {}
public struct Fail {}
public struct Record {}
public enum Publishers {}
public enum Subscribers {}
public protocol ObservableObject {}
public struct Published {}
public protocol ConnectablePublisher {}
public protocol Scheduler {}
public struct ImmediateScheduler {}
public struct CombineIdentifier {}
public protocol CustomCombineIdentifierConvertible {}
public protocol TopLevelEncoder {}
public protocol TopLevelDecoder {}
