import SwiftUI

/// The library window: what the demo shows first.
struct LibraryView: View {
    var body: some View {
        Text("Open a note in a new window, type, and switch away: the draft is saved when the window leaves .active.")
    }
}
