// Package tool is a native tool: process globals are reported.
package tool

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
)

// Env is the injected environment.
type Env struct {
	Dir    string
	Log    io.Writer
	Getenv func(string) string
}

// Handler uses the process globals a native tool must not touch.
func Handler(ctx context.Context, env *Env) error {
	fmt.Fprintln(os.Stdout, "hi") // want `\[native-global\] os\.Stdout: native tools run concurrently`
	fmt.Fprintln(os.Stderr, "hi") // want `\[native-global\] os\.Stderr`
	_, _ = io.ReadAll(os.Stdin)   // want `\[native-global\] os\.Stdin`
	_ = os.Args                   // want `\[native-global\] os\.Args`
	_ = os.Getenv("HOME")         // want `\[native-global\] os\.Getenv`
	_, _ = os.LookupEnv("HOME")   // want `\[native-global\] os\.LookupEnv`
	_ = os.Environ()              // want `\[native-global\] os\.Environ`
	_ = os.ExpandEnv("$HOME")     // want `\[native-global\] os\.ExpandEnv`
	_, _ = os.Getwd()             // want `\[native-global\] os\.Getwd`
	_ = os.Chdir("/")             // want `\[native-global\] os\.Chdir`
	_ = os.Setenv("A", "1")       // want `\[native-global\] os\.Setenv`
	_ = os.Unsetenv("A")          // want `\[native-global\] os\.Unsetenv`
	os.Clearenv()                 // want `\[native-global\] os\.Clearenv`
	_ = flag.String("x", "", "")  // want `\[native-global\] flag\.String`
	log.Printf("hi")              // want `\[native-global\] log\.Printf`
	var l *log.Logger             // want `\[native-global\] log\.Logger`
	_ = l
	if ctx.Err() != nil {
		os.Exit(1) // want `\[native-global\] os\.Exit`
	}
	return nil
}

// Safe does what a native tool may: files under env.Dir, its own log writer and env
// lookup, and a recover (legacy rules do not apply here).
func Safe(env *Env) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("panic: %v", v)
		}
	}()
	if err := os.MkdirAll(filepath.Join(env.Dir, "x"), 0o755); err != nil {
		return err
	}
	b, err := os.ReadFile(filepath.Join(env.Dir, "x", "f"))
	fmt.Fprintln(env.Log, len(b), env.Getenv("HOME"))
	go func() {}()
	return err
}
