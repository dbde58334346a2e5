package scope

import (
	"fmt"
	"go/types"
)

// Rule names, the Category of every diagnostic and the first word of its message.
const (
	RuleOsExit       = "os-exit"
	RuleLogFatal     = "log-fatal"
	RuleLogPanic     = "log-panic"
	RuleShowAndExit  = "show-and-exit"
	RuleGlobalApp    = "global-app"
	RuleGlobalFlags  = "global-flags"
	RuleGlobalStream = "global-stream"
	RuleGoInAction   = "go-in-action"
	RuleRecover      = "recover"
	RuleChdir        = "chdir"
	RuleSetenv       = "setenv"
	RuleNativeGlobal = "native-global"
	RuleMainLogic    = "main-logic"
)

// rule is what a diagnostic says: why the construct is unsafe in-process and what to
// write instead. Kept in one table so docs/adapter-safety.md and the messages agree.
type rule struct {
	why, instead string
	// cobra and v3 are what to write instead in a cobra or urfave/cli v3 program, where
	// it differs from a v2 program's.
	cobra, v3 string
}

var rules = map[string]rule{
	RuleOsExit: {
		why:     "ends the whole host process (kernel, server, every other call) when the adapter runs the command in-process",
		instead: "return cli.Exit(message, code) from the action, or call cli.OsExiter",
		cobra:   "return an error from RunE (an in-process run ends with exit status 1, or what host.Config.Prepare's finish makes of it), or keep the command off the in-process lane",
		v3:      "return cli.Exit(message, code) from the action (v3host ends the in-process run with that status)",
	},
	RuleLogFatal: {
		why:     "calls os.Exit after logging, ending the whole host process when run in-process",
		instead: "log, then return cli.Exit(message, 1)",
		cobra:   "log, then return an error from RunE",
	},
	RuleLogPanic: {
		why:     "panics to report an error: recover() calls on the way (urfave/cli's, the command's own) can swallow it, and in-process the adapter can only report exit 2 where the real binary prints a goroutine trace",
		instead: "log, then return cli.Exit(message, 1)",
		cobra:   "log, then return an error from RunE",
	},
	RuleShowAndExit: {
		why:     "urfave/cli's Show*AndExit helpers call os.Exit directly, not cli.OsExiter, so the adapter cannot catch the exit and the host process dies",
		instead: "call the matching Show*Help and return cli.Exit(\"\", code)",
	},
	RuleGlobalApp: {
		why:     "an app kept at package level carries the flag values, Metadata and state of the previous run into the next in-process run, and the schema is no longer read from a pristine app",
		instead: "build a fresh *cli.App in a constructor (newXApp) on every run",
		cobra:   "build the root command in a constructor (newRoot) on every run and give it to cobrahost",
		v3:      "build the root command in a constructor (newRoot) on every run and give it to v3host",
	},
	RuleGlobalFlags: {
		why:     "flags kept at package level keep their parsed values (slices, Destination pointers, HasBeenSet) from one in-process run to the next",
		instead: "declare the flags inside the app constructor",
	},
	RuleGlobalStream: {
		why:     "captures the host's os.Stdout/os.Stderr file at package initialisation, so the command writes to the host's stream instead of the adapter's capture, where a real process's output would go",
		instead: "create the logger or writer inside the action from c.App.Writer/ErrWriter (or os.Stdout/os.Stderr read at call time)",
	},
	RuleGoInAction: {
		why:     "a goroutine started by a command can outlive its in-process run: it keeps writing into later runs' capture or the host's streams, its exit only ends itself, and the adapter can only count it as leaked",
		instead: "finish all concurrent work (sync.WaitGroup, errgroup) before the action returns, under the action's context",
	},
	RuleRecover: {
		why:     "swallows the adapter's exit signal along with any panic, so code after a cli.OsExiter call keeps running (writing files, printing) where a real process would already be gone",
		instead: "let panics propagate; report failures with cli.Exit",
	},
	RuleChdir: {
		why:     "changes the working directory of the whole host process: concurrent native tools and kernel goroutines resolve relative paths against it while the command runs",
		instead: "resolve paths against a directory value (filepath.Join(dir, p)) and set exec.Cmd.Dir for subprocesses",
	},
	RuleSetenv: {
		why:     "changes the environment of the whole host process: the adapter puts it back when the run ends, but while the command runs every goroutine of the host (kernel, native tools' libraries) sees the change",
		instead: "pass variables to subprocesses with exec.Cmd.Env and read configuration through flags",
	},
	RuleMainLogic: {
		why:     "main() runs it around app.Run, but the in-process lane runs your app without main(), so there it is skipped: a .env left unread, an error printed or an exit status chosen otherwise than your program does",
		instead: "do it in host.Config.Prepare (run before each in-process run with its arguments; its finish maps Run's error to what main prints and the exit status), or keep the commands that need it off the in-process lane",
	},
	RuleNativeGlobal: {
		why:     "native tools run concurrently in the host process, where process globals belong to nobody (the adapter swaps them during legacy runs)",
		instead: "use the call's tool.Env (Dir, Getenv, Stdin, Log, Clock) and return tool.Output",
	},
}

// Message renders the diagnostic text for a finding of rule r on subject.
func Message(r, subject string) string { return message(r, subject, "") }

// message is Message for a program of framework ("cobra", "v3", "": urfave/cli v2).
func message(r, subject, framework string) string {
	ru := rules[r]
	instead := ru.instead
	switch {
	case framework == "cobra" && ru.cobra != "":
		instead = ru.cobra
	case framework == "v3" && ru.v3 != "":
		instead = ru.v3
	}
	return fmt.Sprintf("[%s] %s: %s; instead, %s", r, subject, ru.why, instead)
}

// frameworkOf is the framework a package's commands are written with, by what it
// imports: "cobra", "v3", or "" (urfave/cli v2, or none).
func frameworkOf(pkg *types.Package) string {
	imports := map[string]bool{}
	for _, imp := range pkg.Imports() {
		imports[imp.Path()] = true
	}
	switch {
	case imports[CLIPath]:
		return ""
	case imports[CobraPath]:
		return "cobra"
	case imports[CLIv3Path]:
		return "v3"
	}
	return ""
}

// RuleNames lists every rule in a stable order (documentation and tests).
func RuleNames() []string {
	return []string{
		RuleOsExit, RuleLogFatal, RuleLogPanic, RuleShowAndExit, RuleGlobalApp, RuleGlobalFlags,
		RuleGlobalStream, RuleGoInAction, RuleRecover, RuleChdir, RuleSetenv, RuleNativeGlobal, RuleMainLogic,
	}
}

// Explain returns why rule r is unsafe in-process and what to write instead.
func Explain(r string) (why, instead string, ok bool) {
	ru, ok := rules[r]
	return ru.why, ru.instead, ok
}
