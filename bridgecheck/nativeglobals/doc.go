// Package nativeglobals is the bridgecheck rule family for native tool packages
// (import paths matching -native, "**/nativetools/**" by default): every
// package-qualified use of os.Stdout, Stderr, Stdin, Args, Exit, Getenv, LookupEnv,
// Environ, ExpandEnv, Getwd, Chdir, Setenv, Unsetenv, Clearenv and of the flag and log
// packages is reported (native-global). A native tool gets all of these from its
// tool.Env.
//
// Invariants: reports only in native tool packages and never in _test.go files; the
// legacy rules never apply to a native package unless it is also a legacy package.
package nativeglobals
