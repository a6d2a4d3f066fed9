// https://developer.apple.com/documentation/realitykit
public protocol Event {}
public protocol Component {}
public protocol System {}
public enum SystemDependency {}
public struct SceneUpdateContext {}
open class Entity {}
open class ModelEntity {}
open class AnchorEntity {}
public final class Scene {}
public struct Transform {}
public final class MeshResource {}
public protocol Material {}
public struct SimpleMaterial {}
public struct UnlitMaterial {}
public struct PhysicallyBasedMaterial {}
public struct ShaderGraphMaterial {}
public struct RealityView {}
public struct RealityViewContent {}
public struct EntityQuery {}
public struct QueryPredicate {}
public final class AnimationResource {}
public final class AudioResource {}
public final class TextureResource {}
public struct CollisionComponent {}
public struct InputTargetComponent {}
public struct ModelComponent {}
public struct AnchoringComponent {}
public struct BoundingBox {}
public struct ViewAttachmentComponent {}
public enum CollisionEvents {}
public enum SceneEvents {}
public enum AnimationEvents {}
public struct EventSubscription {}
