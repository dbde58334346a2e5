// Package nativeglobals is the bridgecheck rule family for native tool packages
// (import paths matching -native, "**/nativetools/**" by default): every
// package-qualified use of os.Stdout, Stderr, Stdin, Args, Exit, Getenv, LookupEnv,
// Environ, ExpandEnv, Getwd, Chdir, Setenv, Unsetenv, Clearenv and of the flag and log
// packages is reported (native-global). A native tool gets all of these from its
// tool.Env.
//
// # Globals reached through other packages
//
// The analyzer's fact [ReadsGlobal] marks every function and method, in any package
// outside the standard library, whose body uses one of those globals — the os names
// above, or a package-level function or variable of flag or log that works on the
// package's default state (not a type, not log.New or flag.NewFlagSet) — directly,
// through a function of its own package (to a fixed point), or through a function of
// another package carrying the fact. A native tool package that refers to such a
// function of another package (a call, or the function as a value) is reported there as
// native-global, naming the global the chain ends in: "[native-global]
// gitrepo.InWorkTree (which reads os.LookupEnv)". As a vet tool the facts travel
// between packages through go vet's fact files; standalone and -tiers load every
// dependency's syntax for them.
//
// What the fact does not follow:
//
//   - calls through interfaces and function values (a func parameter, a variable
//     holding a function, var getenv = os.Getenv): only functions and methods whose
//     callee is known statically (a concrete receiver's method, a generic function's
//     origin) carry or pass on the fact;
//   - package-level variable initialisers and init functions of other packages (they
//     run once, when the host starts);
//   - the standard library (whose own uses — os/exec finding a binary on the host's
//     PATH, log's default logger behind the log functions — begin, for the code
//     checked, at the os, flag and log names above); a package counts as standard
//     when the first element of its import path has no dot;
//   - the vetted modules (see vetted in nativeglobals.go), whose only uses are their
//     own debug switches, read when a person sets them: github.com/google/jsonschema-go
//     (JSONSCHEMAGODEBUG, at schema inference) and github.com/fsnotify/fsnotify
//     (FSNOTIFY_DEBUG);
//   - a child process inheriting the host's environment (exec.Cmd with a nil Env):
//     nothing in Go reads it. delivery sets every Env it can from the call's own
//     environment (see its package doc).
//
// Invariants: reports only in native tool packages and never in _test.go files (facts
// are exported for every package, never from _test.go files); the legacy rules never
// apply to a native package unless it is also a legacy package; a fact's Via does not
// depend on map order.
package nativeglobals
