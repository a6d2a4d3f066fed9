import LifecycleLogCommandLine
import NotesRules

ReplayCommand.main(customRules: [InspectorOpensOnce()])
