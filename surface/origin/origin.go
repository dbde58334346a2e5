package origin

import (
	"net"
	"net/http"
	"net/url"
	"strings"
)

// Allowed reports whether r may be served: it has no Origin header, or its Origin is
// the server's own or one of allowed (origins such as "https://ui.example.com"; "*"
// allows any).
func Allowed(r *http.Request, allowed []string) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		return true
	}
	scheme, host, port, ok := parse(o)
	if !ok {
		return false
	}
	for _, a := range allowed {
		if a == "*" {
			return true
		}
		as, ah, ap, ok := parse(a)
		if ok && as == scheme && ah == host && ap == port {
			return true
		}
	}
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || local == nil {
		return false
	}
	lhost, lport, err := net.SplitHostPort(local.String())
	if err != nil || lport != port {
		return false
	}
	if ip := net.ParseIP(lhost); ip != nil {
		if hip := net.ParseIP(host); hip != nil && hip.Equal(ip) {
			return true
		}
		return ip.IsLoopback() && host == "localhost"
	}
	return false
}

// Valid reports whether o is an origin Allowed can compare: "*", or scheme://host with
// an optional port and nothing else.
func Valid(o string) bool {
	if o == "*" {
		return true
	}
	_, _, _, ok := parse(o)
	return ok
}

// parse splits an origin into its lower-case scheme and host and its port (the scheme's
// default when absent). Anything but http(s)://host[:port] is not an origin.
func parse(o string) (scheme, host, port string, ok bool) {
	u, err := url.Parse(o)
	if err != nil || u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", "", "", false
	}
	scheme = strings.ToLower(u.Scheme)
	switch scheme {
	case "http":
		port = "80"
	case "https":
		port = "443"
	default:
		return "", "", "", false
	}
	if p := u.Port(); p != "" {
		port = p
	}
	host = strings.ToLower(u.Hostname())
	if host == "" {
		return "", "", "", false
	}
	return scheme, host, port, true
}
