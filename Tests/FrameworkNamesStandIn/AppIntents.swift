// https://developer.apple.com/documentation/appintents
public protocol AppIntent {}
public protocol AppEntity {}
public protocol AppEnum {}
public struct AppShortcut {}
public protocol AppShortcutsProvider {}
public protocol EntityQuery {}
public protocol EntityStringQuery {}
public protocol EntityPropertyQuery {}
public protocol IntentResult {}
public final class IntentParameter {}
public struct IntentDescription {}
public struct IntentDialog {}
public struct TypeDisplayRepresentation {}
public struct DisplayRepresentation {}
public protocol OpenIntent {}
public protocol AudioPlaybackIntent {}
public protocol LiveActivityIntent {}
public protocol ForegroundContinuableIntent {}
public protocol ShowsSnippetView {}
public protocol ReturnsValue {}
public protocol ProvidesDialog {}
public protocol OpensIntent {}
public struct IntentFile {}
public struct IntentPerson {}
public struct IntentItem {}
public struct IntentItemCollection {}
public struct IntentItemSection {}
public protocol AppIntentsPackage {}
public protocol UniqueAppEntity {}
public struct EntityIdentifier {}
public final class AppDependencyManager {}
public struct AppDependency {}
public struct IntentProjection {}
public struct PlaceDescriptor {}
