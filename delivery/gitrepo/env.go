package gitrepo

import (
	"context"
	"strconv"

	"github.com/cmdbridge/cmdbridge/tool"
)

// The environment of the subprocesses a call runs (git, gates). Nothing here reads the
// process environment: it comes from the caller, as a [LookupEnv] (a native tool's
// tool.Env, or os.LookupEnv in a legacy command) and, when the caller holds it, the
// whole KEY=VALUE list (a legacy command: os.Environ).
//
// A caller that hands in only a LookupEnv gives git the variables of gitEnvVars that
// the LookupEnv sets, and nothing else: configuration, identity, discovery, locale,
// credentials, TLS and proxies, PATH and HOME. A variable outside the list (GIT_TRACE,
// say) reaches a native call's git only through a host that hands in a whole list
// (package delivery's Runtime.SetEnviron, [WithEnv]). The git binary itself is found on
// the host's PATH (os/exec resolves it); a call whose environment has no PATH leaves git
// its built-in default for the programs it starts.

// gitEnvVars are the variables git and the programs it starts read that a call's
// environment decides. GIT_CONFIG_KEY_<n>/GIT_CONFIG_VALUE_<n> follow GIT_CONFIG_COUNT.
var gitEnvVars = []string{
	"PATH", "HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "USER", "LOGNAME", "EMAIL", "TZ", "TMPDIR",
	"LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES",
	"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
	"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE",
	"GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE",
	"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM",
	"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_INDEX_FILE", "GIT_NAMESPACE",
	"GIT_EXEC_PATH", "GIT_TEMPLATE_DIR", "GIT_OPTIONAL_LOCKS", "GIT_ALLOW_PROTOCOL",
	"GIT_TERMINAL_PROMPT", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_SSH", "GIT_SSH_COMMAND", "SSH_AUTH_SOCK",
	"GIT_SSL_CAINFO", "GIT_SSL_CAPATH", "GIT_SSL_NO_VERIFY", "SSL_CERT_FILE", "SSL_CERT_DIR", "CURL_CA_BUNDLE",
	"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "no_proxy", "all_proxy",
}

// EnvironOf is the environment git gets from lookup: KEY=VALUE for every variable of
// gitEnvVars it sets, in that order. It is never nil, so that a command given it
// inherits nothing from the host.
func EnvironOf(lookup LookupEnv) []string {
	out := []string{}
	if lookup == nil {
		return out
	}
	for _, k := range gitEnvVars {
		if v, ok := lookup(k); ok {
			out = append(out, k+"="+v)
		}
	}
	if v, ok := lookup("GIT_CONFIG_COUNT"); ok {
		n, _ := strconv.Atoi(v)
		for i := 0; i < n && i < 1000; i++ {
			for _, k := range []string{"GIT_CONFIG_KEY_" + strconv.Itoa(i), "GIT_CONFIG_VALUE_" + strconv.Itoa(i)} {
				if v, ok := lookup(k); ok {
					out = append(out, k+"="+v)
				}
			}
		}
	}
	return out
}

type envKey struct{}

// callEnv is the environment a context carries.
type callEnv struct {
	lookup  LookupEnv
	environ func() []string
}

// WithEnv returns ctx carrying the environment of the call it serves: lookup, and
// environ, the whole KEY=VALUE list (nil: git gets EnvironOf(lookup)). The functions
// that take no environment of their own ([InWorkTree], a [Git] built without
// delivery.NewGit, delivery.LaneOfBranch, delivery.RunGates) use it. The legacy
// convention attaches the process's (os.LookupEnv, os.Environ); a native call's context
// carries its tool.Env (tool.ContextWithEnv), read the same way.
func WithEnv(ctx context.Context, lookup LookupEnv, environ func() []string) context.Context {
	return context.WithValue(ctx, envKey{}, callEnv{lookup: lookup, environ: environ})
}

// EnvOf is the call environment ctx carries ([WithEnv], else a native call's
// tool.Env): its lookup and the list a subprocess gets. ok is false when ctx carries
// none.
func EnvOf(ctx context.Context) (lookup LookupEnv, environ []string, ok bool) {
	if ce, ok := ctx.Value(envKey{}).(callEnv); ok {
		lookup = ce.lookup
		if lookup == nil {
			lookup = func(string) (string, bool) { return "", false }
		}
		if ce.environ != nil {
			return lookup, append([]string{}, ce.environ()...), true
		}
		return lookup, EnvironOf(lookup), true
	}
	if env := tool.EnvFromContext(ctx); env != nil {
		lookup = LookupEnv(env.LookupEnv)
		if lookup == nil {
			lookup = func(string) (string, bool) { return "", false }
		}
		return lookup, EnvironOf(lookup), true
	}
	return nil, nil, false
}

// CallEnv is the environment of the call ctx serves, for a program it starts: the
// lookup and the whole KEY=VALUE list ([WithEnv], else a native call's tool.Env); on a
// context that carries none, nothing (an empty lookup and list).
func CallEnv(ctx context.Context) (LookupEnv, []string) {
	lookup, environ, ok := EnvOf(ctx)
	if !ok {
		return func(string) (string, bool) { return "", false }, nil
	}
	return lookup, environ
}

// gitEnviron is the environment of a git run for a function handed lookup: the whole
// list ctx carries, else EnvironOf(lookup).
func gitEnviron(ctx context.Context, lookup LookupEnv) []string {
	if _, environ, ok := EnvOf(ctx); ok {
		return environ
	}
	return EnvironOf(lookup)
}

// LookupEnv reads an environment variable: os.LookupEnv for legacy commands, tool.Env's
// LookupEnv for native tools.
type LookupEnv func(key string) (string, bool)
