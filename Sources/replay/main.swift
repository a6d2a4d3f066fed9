// The `replay` command: the whole command line lives in LifecycleLogCommandLine, so that an app
// team's own executable runs it with its own rules (`ReplayCommand.main(customRules:)`).
import LifecycleLogCommandLine

ReplayCommand.main()
