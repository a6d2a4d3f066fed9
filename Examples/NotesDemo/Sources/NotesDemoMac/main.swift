import NotesDemo

// `swift run notes-demo-mac` on a Mac: the demo as a windowed app (on iOS, an app target's
// `@main` struct wraps `NotesDemoApp` the same way).
NotesDemoApp.main()
