/// How much one finding lists (spec/rules.md, Readings 24; issue 28): at most ``items`` of the
/// activities, keys, windows, scenes or save begins its message names, then how many more
/// (`"a1", "a10", … "a1006" and 4,990 more`); at most ``items`` related seqs (the first, in
/// ascending order); and at most ``items`` of each list of its subject (the first, in the
/// subject's order). A finding under the bound is reported exactly as before; one over it has a
/// message, related seqs and subject of bounded size, however many items the trace piles up, so
/// that a report grows with the number of findings and not with their product by the items.
package enum FindingBound {
    /// The most items of one kind a finding names (10): in its message (all its lists together),
    /// its related seqs and each list of its subject.
    package static let items = 10

    /// `items` shown with `show` and joined with `", "` (the last with `last`), or, past the
    /// bound, the first ``items`` of them joined with `", "` and how many more:
    /// `"a", "b" and 3 more`.
    static func list<Items: Collection>(_ items: Items, last: String = ", ", _ show: (Items.Element) -> String) -> String {
        var budget = FindingBudget()
        return list(budget.take(items).map(show), last: last, budget)
    }

    /// The items `shown` of a list that `budget` cut, joined with `", "` (the last with `last`), or,
    /// when the budget left some out, all with `", "` and how many more.
    static func list(_ shown: [String], last: String, _ budget: FindingBudget) -> String {
        guard budget.more == 0 else { return shown.joined(separator: ", ") + budget.moreText }
        switch shown.count {
        case 0: return ""
        case 1: return shown[0]
        default: return shown.dropLast().joined(separator: ", ") + last + shown[shown.count - 1]
        }
    }

    /// The first `count` of `items` in the order of `precedes`, each once, in that order: what
    /// sorting them all and dropping repeats would begin with, in one pass that compares most
    /// elements once, so that a finding about thousands of items costs little more than one about ten.
    static func first<Items: Sequence>(_ count: Int, of items: Items, by precedes: (Items.Element, Items.Element) -> Bool) -> [Items.Element]
    where Items.Element: Equatable {
        var kept: [Items.Element] = []
        guard count > 0 else { return kept }
        kept.reserveCapacity(count + 1)
        for item in items {
            if kept.count == count, let last = kept.last, !precedes(item, last) { continue }
            // The first kept element that does not precede `item`: `item` goes before it, unless it is the same.
            let at = kept.firstIndex { !precedes($0, item) } ?? kept.endIndex
            if at < kept.endIndex, kept[at] == item { continue }
            kept.insert(item, at: at)
            if kept.count > count { kept.removeLast() }
        }
        return kept
    }

    /// `count` with a comma between groups of three digits: `4,990`.
    static func grouped(_ count: Int) -> String {
        let digits = Array(String(count))
        var text = ""
        for (i, digit) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}

/// What a message may still name of its ``FindingBound/items``, when it names items from several
/// lists (each window's activities, then the app's): each list takes what is left, and the rest are
/// counted to say how many more.
struct FindingBudget {
    /// How many more items the message may name.
    private(set) var left = FindingBound.items
    /// How many items were left out.
    private(set) var more = 0

    /// The first of `items` that the bound still allows (all of them, or none once it is spent).
    mutating func take<Items: Collection>(_ items: Items) -> Items.SubSequence {
        let count = items.count
        let taken = min(left, count)
        left -= taken
        more += count - taken
        return items.prefix(taken)
    }

    /// The first of `items`, already the first of `total` items in order, that the bound still allows.
    mutating func take<Items: Collection>(_ items: Items, total: Int) -> Items.SubSequence {
        let taken = min(left, items.count, total)
        left -= taken
        more += total - taken
        return items.prefix(taken)
    }

    /// The first of `items` in the order of `precedes` that the bound still allows (``FindingBound/first(_:of:by:)``),
    /// without sorting them all.
    mutating func take<Items: Collection>(_ items: Items, by precedes: (Items.Element, Items.Element) -> Bool) -> [Items.Element]
    where Items.Element: Equatable {
        let taken = FindingBound.first(left, of: items, by: precedes)
        left -= taken.count
        more += items.count - taken.count
        return taken
    }

    /// `" and 4,990 more"` when items were left out, else nothing.
    var moreText: String { more == 0 ? "" : " and \(FindingBound.grouped(more)) more" }
}
