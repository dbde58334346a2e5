package lazyregexp_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/cmdbridge/cmdbridge/internal/lazyregexp"
)

func TestMethodsMatchRegexp(t *testing.T) {
	re := lazyregexp.New(`(\w+)@(\w+)`)
	assert.True(t, re.MatchString("a@b"))
	assert.False(t, re.MatchString("ab"))
	assert.Equal(t, []string{"a@b", "a", "b"}, re.FindStringSubmatch("x a@b"))
	assert.Equal(t, "x b@a", re.ReplaceAllString("x a@b", "$2@$1"))
	assert.Equal(t, "x A@B", re.ReplaceAllStringFunc("x a@b", func(s string) string { return "A@B" }))
	assert.Same(t, re.Regexp(), re.Regexp(), "compiled once")
}

func TestCompilesOnceAcrossGoroutines(t *testing.T) {
	re := lazyregexp.New(`^x+$`)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { assert.True(t, re.MatchString("xxx")) })
	}
	wg.Wait()
}

func TestBadExpressionPanicsOnFirstUse(t *testing.T) {
	re := lazyregexp.New(`(`) // no panic yet
	assert.Panics(t, func() { re.MatchString("") })
}
