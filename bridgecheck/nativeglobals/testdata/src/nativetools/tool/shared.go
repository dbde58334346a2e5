package tool

import (
	"os"

	"example.com/clean"
	"example.com/helper"
	"example.com/outer"
)

// Shared calls shared packages: the functions that reach a process global are reported
// where this package refers to them, naming the global they reach.
func Shared(env *Env) string {
	_ = outer.Where()    // want `\[native-global\] outer\.Where \(which reads os\.Getenv\): native tools run concurrently`
	_ = outer.Generic(1) // want `\[native-global\] outer\.Generic \(which reads os\.Getenv\)`
	_ = helper.Dir()     // want `\[native-global\] helper\.Dir \(which reads os\.Getenv\)`
	f := helper.Home     // want `\[native-global\] helper\.Home \(which reads os\.Getenv\)`
	_ = f()
	var r helper.Runner
	_ = r.Environ() // want `\[native-global\] \(helper\.Runner\)\.Environ \(which reads os\.Environ\)`
	r.Log("x")      // want `\[native-global\] \(\*helper\.Runner\)\.Log \(which reads log\.Printf\)`
	// Not followed: a call through an interface, a function value, a variable holding
	// a function.
	_ = helper.Via(helper.Proc{})
	_ = helper.Call(env.Getenv)
	_ = helper.Getenv("HOME")
	// Clean: no global is reached.
	_ = helper.NewLogger(env.Log)
	_ = helper.Upper("x")
	_, _ = clean.Read(env.Dir, "f")
	_ = clean.Env{Lookup: func(k string) (string, bool) { return env.Getenv(k), true }}.Home()
	_, _ = os.ReadFile(env.Dir)
	return ""
}
