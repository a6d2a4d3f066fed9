// https://developer.apple.com/documentation/widgetkit
public protocol Widget {}
public protocol WidgetBundle {}
public protocol WidgetConfiguration {}
public struct StaticConfiguration {}
public struct IntentConfiguration {}
public struct AppIntentConfiguration {}
public struct ActivityConfiguration {}
public protocol TimelineProvider {}
public protocol IntentTimelineProvider {}
public protocol AppIntentTimelineProvider {}
public protocol TimelineEntry {}
public struct Timeline {}
public struct TimelineReloadPolicy {}
public struct TimelineProviderContext {}
public enum WidgetFamily {}
public final class WidgetCenter {}
public struct WidgetInfo {}
public struct WidgetRenderingMode {}
public struct DynamicIsland {}
public struct DynamicIslandExpandedRegionPosition {}
public protocol ControlWidget {}
public struct ControlWidgetButton {}
public struct ControlWidgetToggle {}
public protocol WidgetPushHandler {}
public struct WidgetRelevance {}
