package broker_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/broker"
)

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"ws-1", "ws-1"},
		{"agent-runtime:tool_called", "agent-runtime:tool_called"},
		{"acme.ws", "acme%2Ews"},
		{"a*b>c d", "a%2Ab%3Ec%20d"},
		{"100%", "100%25"},
		{"", "%"},
		{"é", "%C3%A9"},
	} {
		got := broker.Escape(tc.in)
		assert.Equal(t, tc.want, got, tc.in)
		assert.NotContains(t, got, ".", tc.in)
		back, err := broker.Unescape(got)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.in, back)
	}
	// Two ids that a naive escaper would merge stay apart.
	assert.NotEqual(t, broker.Escape("a.b"), broker.Escape("a%2Eb"))
	for _, bad := range []string{"%", "%2", "%G0"} {
		if bad == "%" {
			continue // the empty string's token
		}
		_, err := broker.Unescape(bad)
		assert.Error(t, err, bad)
	}
}

func TestSubjects(t *testing.T) {
	assert.Equal(t, "cmdbridge.acme%2Ews.events.conductor:command", broker.EventSubject("acme.ws", "conductor:command"))
	assert.Equal(t, "cmdbridge.ws-1.tools.wu:claim", broker.ToolSubject("ws-1", "wu:claim"))
	assert.Equal(t, "cmdbridge.ws-1.commands", broker.CommandSubject("ws-1"))
	assert.Equal(t, "cmdbridge.ws-1.>", broker.WorkspaceSubjects("ws-1"))
	assert.Equal(t, "ws-1", broker.WorkspaceOf("ws-1:phone:dev-9"))
	assert.Equal(t, "ws-1", broker.WorkspaceOf("ws-1"))
	for _, s := range broker.DurableEventSubjects() {
		assert.True(t, strings.HasPrefix(s, "cmdbridge.*.events."), s)
	}
	assert.Len(t, broker.DurableEventSubjects(), 4, "approval requested, approval resolved, conductor command, evidence checkpoint")
	a, b := broker.CommandConsumer("a.b"), broker.CommandConsumer("a_b")
	assert.NotEqual(t, a, b)
	assert.NotContains(t, a, ".")
}

// TestRedactURLs: passwords and tokens in NATS URLs never reach a log.
func TestRedactURLs(t *testing.T) {
	for in, want := range map[string]string{
		"nats://127.0.0.1:4222":                          "nats://127.0.0.1:4222",
		"nats://u:pw@h:4222":                             "nats://u:xxxxx@h:4222",
		"nats://s3cret-token@h:4222":                     "nats://xxxxx@h:4222",
		"u:pw@h:4222":                                    "u:xxxxx@h:4222",
		"tls://a:b@h1:4222,nats://tok@h2:4222,nats://h3": "tls://a:xxxxx@h1:4222,nats://xxxxx@h2:4222,nats://h3",
		"nats://u:p@ss@h":                                "nats://u:xxxxx@h",
	} {
		assert.Equal(t, want, broker.RedactURLs(in), in)
	}
}
