package origin_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/cmdbridge/cmdbridge/surface/origin"
)

func request(local, o string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
	if local != "" {
		addr, err := net.ResolveTCPAddr("tcp", local)
		if err != nil {
			panic(err)
		}
		r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, net.Addr(addr)))
	}
	if o != "" {
		r.Header.Set("Origin", o)
	}
	return r
}

func TestAllowed(t *testing.T) {
	for _, tc := range []struct {
		name, local, origin string
		allowed             []string
		want                bool
	}{
		{"no origin", "127.0.0.1:8080", "", nil, true},
		{"own address", "127.0.0.1:8080", "http://127.0.0.1:8080", nil, true},
		{"localhost on loopback", "127.0.0.1:8080", "http://localhost:8080", nil, true},
		{"localhost in another case", "127.0.0.1:8080", "http://LocalHost:8080", nil, true},
		{"ipv6 loopback", "[::1]:8080", "http://[::1]:8080", nil, true},
		{"another port", "127.0.0.1:8080", "http://127.0.0.1:3000", nil, false},
		{"rebinding domain", "127.0.0.1:8080", "http://evil.example:8080", nil, false},
		{"a site", "127.0.0.1:8080", "https://evil.example", nil, false},
		{"null", "127.0.0.1:8080", "null", nil, false},
		{"not a url", "127.0.0.1:8080", "::::", nil, false},
		{"other scheme", "127.0.0.1:8080", "file://127.0.0.1:8080", nil, false},
		{"remote own address", "10.1.2.3:8080", "http://10.1.2.3:8080", nil, true},
		{"localhost is not a remote address", "10.1.2.3:8080", "http://localhost:8080", nil, false},
		{"configured", "127.0.0.1:8080", "https://ui.example.com", []string{"https://UI.example.com:443"}, true},
		{"configured, other port", "127.0.0.1:8080", "https://ui.example.com:8443", []string{"https://ui.example.com"}, false},
		{"configured, other scheme", "127.0.0.1:8080", "http://ui.example.com", []string{"https://ui.example.com"}, false},
		{"star", "127.0.0.1:8080", "https://anything.example", []string{"*"}, true},
		{"no local address", "", "http://127.0.0.1:8080", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, origin.Allowed(request(tc.local, tc.origin), tc.allowed))
		})
	}
}

func TestValid(t *testing.T) {
	for o, want := range map[string]bool{
		"*": true, "https://ui.example.com": true, "http://h:1": true,
		"ui.example.com": false, "https://h/path": false, "ftp://h": false, "": false,
	} {
		assert.Equal(t, want, origin.Valid(o), o)
	}
}
