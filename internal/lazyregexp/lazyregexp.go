// Package lazyregexp holds package-level regular expressions that compile on first use.
// A program links many packages whose expressions only some runs need (an adopter's
// binary runs its own commands far more often than it serves tools); compiling them at
// init made every run pay for all of them.
//
// Invariants: an expression compiles at most once, from any number of goroutines; a bad
// expression panics on first use, as regexp.MustCompile would at init (tests reach every
// use); a Regexp is never changed after it compiled, so sharing one is safe.
package lazyregexp

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled the first time a method needs it.
type Regexp struct {
	compile func() *regexp.Regexp
}

// New returns expr, to be compiled on first use.
func New(expr string) *Regexp {
	return &Regexp{compile: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })}
}

// Regexp is the compiled expression.
func (r *Regexp) Regexp() *regexp.Regexp { return r.compile() }

// MatchString is regexp.Regexp.MatchString.
func (r *Regexp) MatchString(s string) bool { return r.compile().MatchString(s) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string { return r.compile().FindStringSubmatch(s) }

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.compile().ReplaceAllString(src, repl)
}

// ReplaceAllStringFunc is regexp.Regexp.ReplaceAllStringFunc.
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.compile().ReplaceAllStringFunc(src, repl)
}
