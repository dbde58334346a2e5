package tailbuf_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/cmdbridge/cmdbridge/internal/tailbuf"
)

func TestBufferKeepsTheEnd(t *testing.T) {
	b := tailbuf.New(8)
	_, _ = b.Write([]byte("abc"))
	assert.Equal(t, "abc", b.String())
	_, _ = b.Write([]byte("defghij"))
	assert.Equal(t, "cdefghij", b.String(), "the oldest bytes go first")
	_, _ = b.Write([]byte(strings.Repeat("x", 20) + "end"))
	assert.Equal(t, "xxxxxend", b.String(), "a write longer than the buffer keeps its own end")
	assert.Equal(t, "end", b.Tail(3))
	assert.Equal(t, "xxxxxend", b.Tail(100))
}
