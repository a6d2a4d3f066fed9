/// Read by the collector (which keeps each client's last delivery) and by
/// ``TraceInterchange/merge(trace:spools:to:warning:)`` (in LifecycleLog, as it reads spools
/// with the rules' JSON Lines reader).
extension TraceInterchange {
    /// Where an event came from, read from its `delivery` member: the
    /// `CollectorSink` that handled it, its number among that sink's events, and its own `t`.
    package struct Delivery: Hashable, Sendable {
        package var client: String
        package var n: UInt64

        package init?(_ event: LifecycleEvent) {
            guard let member = event.extraFields.last(where: { $0.name == CollectorSink.deliveryMember }),
                  case .object(let fields) = member.value,
                  let client = fields.first(where: { $0.name == "client" }), case .string(let name) = client.value,
                  let n = fields.first(where: { $0.name == "n" }), case .number(let literal) = n.value,
                  let number = UInt64(literal) else { return nil }
            self.client = name
            self.n = number
        }
    }
}
