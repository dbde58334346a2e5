package http

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestValidTurnID pins the turn id's alphabet and length (1 to 128 of A-Z a-z 0-9 . _ : -).
func TestValidTurnID(t *testing.T) {
	for id, want := range map[string]bool{
		"T-1": true, "a.b_c:d-E9": true, strings.Repeat("x", 128): true,
		"": false, strings.Repeat("x", 129): false, "a b": false, "a/b": false, "é": false, "a\x00": false,
	} {
		assert.Equal(t, want, validTurnID(id), "%q", id)
	}
}
