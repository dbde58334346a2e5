// Package procglobals is the bridgecheck rule family for process-wide state in legacy
// command packages: package-level *cli.App values (global-app), cli.Flag, flag types
// and []cli.Flag values (global-flags), package-level values bound to os.Stdout or
// os.Stderr at their declaration or by an assignment in an init function (global-stream;
// a function literal reads the stream when it runs, which is safe), os.Chdir and
// (*os.File).Chdir (chdir), os.Setenv, os.Unsetenv and os.Clearenv (setenv).
//
// Invariants: reports only in legacy command packages and never in _test.go files;
// reading the environment or the working directory is never reported; offers no fixes
// (moving state into a constructor is a design change).
package procglobals
