// https://developer.apple.com/documentation/swiftdata (the macros by their names: Model, Attribute,
// Relationship, Transient, Unique, Index, ModelActor are declared as macros there; a type of the
// same name in an app's file is as ambiguous)
public struct Model {}
public struct Attribute {}
public struct Relationship {}
public struct Transient {}
public struct Unique {}
public struct Index {}
public protocol ModelActor {}
public final class ModelContext {}
public final class ModelContainer {}
public struct ModelConfiguration {}
public final class Schema {}
public protocol VersionedSchema {}
public protocol SchemaMigrationPlan {}
public enum MigrationStage {}
public protocol PersistentModel {}
public struct PersistentIdentifier {}
public struct FetchDescriptor {}
public struct FetchResultsCollection {}
public struct Query {}
public protocol DataStore {}
public protocol DataStoreConfiguration {}
public struct HistoryDescriptor {}
public struct DefaultHistoryTransaction {}
public final class DefaultSerialModelExecutor {}
