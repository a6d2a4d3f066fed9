import LifecycleLogCommandLine
import NotesRules

ReplayCommand.main(appRules: [InspectorOpensOnce()])
