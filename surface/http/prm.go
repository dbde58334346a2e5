package http

import (
	"encoding/json"
	"fmt"
	nethttp "net/http"
	"net/url"
	"strings"
)

// ResourceMetadataPath is where the OAuth 2.0 Protected Resource Metadata (RFC 9728)
// of the whole server is served; ResourceMetadataPath+"/mcp" is that of the /mcp
// endpoint (RFC 9728 §3.1 inserts the well-known path between host and resource path).
const ResourceMetadataPath = "/.well-known/oauth-protected-resource"

// TokenInstructions is what the metadata says about getting a token: there is no
// authorization server, tokens are minted on the workspace's machine.
const TokenInstructions = "static bearer tokens only, no OAuth authorization server: mint one on the workspace's machine with " +
	"`cmdbridge --workspace WS token mint --subject NAME --tools GLOB [--read PATH] [--write PATH] --ttl 8h` " +
	"and send it as `Authorization: Bearer TOKEN` (docs/http.md)"

// ResourceMetadata is the Protected Resource Metadata document (RFC 9728 §2). It names
// the resource and how a token is presented; it lists no authorization_servers because
// none exists (RFC 9728 makes the field optional): a client must be given a token.
type ResourceMetadata struct {
	// Resource is the resource identifier: the server's base URL, or its /mcp URL.
	Resource string `json:"resource"`
	// ResourceName is a human-readable name of the resource.
	ResourceName string `json:"resource_name"`
	// BearerMethodsSupported: tokens are accepted in the Authorization header only.
	BearerMethodsSupported []string `json:"bearer_methods_supported"`
	// ResourceDocumentation is Config.ResourceDocumentation, when set.
	ResourceDocumentation string `json:"resource_documentation,omitempty"`
	// TokenInstructions says how to get a token (an additional parameter, RFC 9728 §2).
	TokenInstructions string `json:"cmdbridge_token_instructions"`
}

// baseURL is the server's own URL for the metadata: Config.PublicURL, or the scheme
// and Host the request arrived with (so a client reaching it as localhost or 127.0.0.1
// finds a resource matching the URL it used).
func (s *Server) baseURL(r *nethttp.Request) string {
	if s.cfg.PublicURL != "" {
		return s.cfg.PublicURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// metadataURL is the resource_metadata a 401 on r's path names: the /mcp document for
// /mcp, the server's for the rest.
func (s *Server) metadataURL(r *nethttp.Request) string {
	if r.URL.Path == "/mcp" {
		return s.baseURL(r) + ResourceMetadataPath + "/mcp"
	}
	return s.baseURL(r) + ResourceMetadataPath
}

// challenge sets the 401's WWW-Authenticate (RFC 6750 §3, RFC 9728 §5.1). invalid is
// the reason a token that was sent is refused; without one, no error is named (RFC
// 6750 §3.1: a request that sent no credentials gets no error code).
func (s *Server) challenge(w nethttp.ResponseWriter, r *nethttp.Request, invalid string) {
	v := fmt.Sprintf(`Bearer realm="cmdbridge", resource_metadata=%q`, s.metadataURL(r))
	if invalid != "" {
		v += fmt.Sprintf(`, error="invalid_token", error_description=%q`, invalid)
	}
	w.Header().Set("WWW-Authenticate", v)
}

// resourceMetadata serves RFC 9728's document, without a token: it holds nothing
// secret (no key, no token, no tool).
func (s *Server) resourceMetadata(w nethttp.ResponseWriter, r *nethttp.Request) {
	resource := s.baseURL(r) + strings.TrimPrefix(r.URL.Path, ResourceMetadataPath)
	b, _ := json.Marshal(ResourceMetadata{
		Resource:               resource,
		ResourceName:           "cmdbridge",
		BearerMethodsSupported: []string{"header"},
		ResourceDocumentation:  s.cfg.ResourceDocumentation,
		TokenInstructions:      TokenInstructions,
	})
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	_, _ = w.Write(append(b, '\n'))
}

// checkPublicURL accepts an http(s) origin, scheme://host[:port] (a trailing slash is
// dropped): the server's endpoints are at its root.
func checkPublicURL(v string) (string, error) {
	if v == "" {
		return "", nil
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("surface/http: public URL %q is not http(s)://host[:port]", v)
	}
	return strings.TrimSuffix(u.String(), "/"), nil
}
