// Package adopted is the contract between a program adopted with the light line
// (cmdbridge.Command) and the cmdbridge host that serves it: the hidden words, the
// variable naming the host, and the manifest the program prints of itself. Both sides
// link it, so it is light: the standard library and appspec only (no framework: a
// program of any framework links it), and nothing at init.
//
// The flow: `prog bridge ARGS…` execs `cmdbridge __adopted PROG bridge ARGS…` (the
// host found through [HostEnv] or $PATH) with the environment prog was started with;
// the host runs `PROG bridge __manifest`, rebuilds the program's app from the
// manifest, and serves it with every call running PROG itself (the subprocess lane).
//
// Invariants:
//
//   - A host refuses a manifest of a newer [Format] than its own, naming the version to
//     install; it never guesses at fields it does not know.
//   - The manifest holds no function and no secret: the app's shape and the
//     adopter's declarative configuration only.
package adopted

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/debug"
	"slices"

	"github.com/cmdbridge/cmdbridge/internal/appspec"
)

const (
	// ManifestWord is the hidden argument after the bridge subcommand that prints the
	// manifest: `prog bridge __manifest`.
	ManifestWord = "__manifest"
	// HostWord is the hidden first argument of the cmdbridge host that serves an
	// adopted program: `cmdbridge __adopted PROG BRIDGE ARGS…`.
	HostWord = "__adopted"
	// HostEnv names the variable holding the path of the cmdbridge host; unset, the
	// program looks "cmdbridge" up on $PATH.
	HostEnv = "CMDBRIDGE_HOST"
	// Module is cmdbridge's module path; HostPackage the host's main package.
	Module      = "github.com/cmdbridge/cmdbridge"
	HostPackage = Module + "/cmd/cmdbridge"
	// BridgeUsage begins the usage of the bridge subcommand, whichever line made it:
	// wrapping an adopted program leaves its bridge out by it, whatever its name.
	BridgeUsage = "serve this program's commands as governed tools"
	// Format is the manifest's shape; a host refuses a newer one.
	Format = 1
)

// InProcess, when set, serves the light line's command line inside the program, as
// host.Command does: package host sets it when it is initialised, so a program that
// links the serving stack anyway (a build with the developer commands, which import
// it) uses it rather than exec the host. cfg is the line's cmdbridge.Config.
var InProcess func(ctx any, bridge string, cfg any) error

// Manifest is what `prog bridge __manifest` prints: the program's app, the bridge's
// name and the adopter's configuration (cmdbridge.Config as JSON).
type Manifest struct {
	Format int `json:"format"`
	// Version is the cmdbridge version the program was built with ("" when unknown).
	Version string          `json:"cmdbridge_version,omitempty"`
	Bridge  string          `json:"bridge"`
	Config  json.RawMessage `json:"config,omitempty"`
	App     *appspec.Tree   `json:"app"`
}

// Decode reads a manifest and refuses one this host cannot read. The manifest is one
// line of JSON; a program whose main prints other lines first (a banner) still gives
// it, found by its first key.
func Decode(data []byte) (*Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		line, ok := manifestLine(data)
		if !ok {
			return nil, fmt.Errorf("reading the program's manifest: %w (its output on stdout: %.120q)", err, data)
		}
		if err := json.Unmarshal(line, &m); err != nil {
			return nil, fmt.Errorf("reading the program's manifest: %w", err)
		}
	}
	switch {
	case m.Format > Format:
		return nil, fmt.Errorf("the program was built with a newer cmdbridge (manifest format %d; this host reads %d): install the host of the program's version: %s",
			m.Format, Format, InstallHint(m.Version))
	case m.Format < 1 || m.App == nil || m.Bridge == "":
		return nil, fmt.Errorf("the program's manifest has no format, app or bridge name: is it a program adopted with cmdbridge.Command?")
	}
	return &m, nil
}

// Version is the cmdbridge version this program was built with, from its build
// information: a module version, "" when the build has none (a replaced or local
// module).
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	if info.Main.Path == Module {
		return clean(info.Main.Version)
	}
	for _, d := range info.Deps {
		if d.Path == Module && d.Replace == nil {
			return clean(d.Version)
		}
	}
	return ""
}

func clean(v string) string {
	if v == "(devel)" {
		return ""
	}
	return v
}

// InstallHint is the command that installs the host of version v ("" for the latest).
func InstallHint(v string) string {
	if v == "" {
		v = "latest"
	}
	return "go install " + HostPackage + "@" + v
}

// manifestLine is the line of data that holds a manifest: the last one that begins with
// the manifest's first key.
func manifestLine(data []byte) ([]byte, bool) {
	var found []byte
	for _, line := range bytes.Split(data, []byte("\n")) {
		if bytes.HasPrefix(bytes.TrimSpace(line), []byte(`{"format":`)) {
			found = line
		}
	}
	return found, found != nil
}

// startEnviron is the environment the program was started with, read when this package
// is initialised, before the program's main runs (every framework's line, and package
// host, import it): the host, and every process it starts for a call, get it, so what
// main does to its own environment before the bridge runs (a .env loaded by a
// pre-parser of os.Args) does not reach them as if the caller had set it. Never written
// after.
var startEnviron = os.Environ()

// StartEnviron is a copy of the environment the program was started with.
func StartEnviron() []string { return slices.Clone(startEnviron) }

// Exec hands a bridge's command line to the cmdbridge host: `HOST __adopted PROGRAM
// BRIDGE ARGS…` with the environment the program was started with, PROGRAM being this
// executable. On Unix the host replaces
// this process (signals, standard streams and the exit status are the host's own) and
// Exec returns only on failure; elsewhere it waits for the host and returns its exit
// status. title begins its messages ("prog bridge").
func Exec(title, bridge string, args []string) (int, error) {
	exe, err := os.Executable()
	if err != nil {
		return 1, fmt.Errorf("%s: %v", title, err)
	}
	host := os.Getenv(HostEnv)
	if host == "" {
		if host, err = exec.LookPath("cmdbridge"); err != nil {
			return 1, fmt.Errorf("%s: serving this program's commands needs the cmdbridge host, which is not installed: install it with\n\n\t%s\n\n"+
				"(the version this program was built with), or set %s to its path (docs/adopt.md)",
				title, InstallHint(Version()), HostEnv)
		}
	}
	argv := append([]string{host, HostWord, exe, bridge}, args...)
	code, err := execHost(host, argv, startEnviron)
	if err != nil {
		return 1, fmt.Errorf("%s: starting the cmdbridge host %s: %v (%s names another host)", title, host, err, HostEnv)
	}
	return code, nil
}

// BridgeName is a bridge subcommand's name: the configured one, else "bridge".
func BridgeName(configured string) string {
	if configured == "" {
		return "bridge"
	}
	return configured
}

// BridgeHelp is the one-line usage of the bridge subcommand named name, whichever
// framework's line made it.
func BridgeHelp(name string) string {
	return BridgeUsage + " (cmdbridge; '" + name + " --help' lists what it does)"
}

// NewManifest is the manifest of a program whose bridge subcommand is named bridge,
// configured with cfg (the adopter's Config, held as JSON), whose tree app describes.
func NewManifest(bridge string, cfg any, app *appspec.Tree) (Manifest, error) {
	b, err := json.Marshal(cfg)
	if err != nil {
		return Manifest{}, err
	}
	return Manifest{Format: Format, Version: Version(), Bridge: bridge, Config: b, App: app}, nil
}

// Print writes m as the one line of JSON `PROG BRIDGE __manifest` prints.
func Print(w io.Writer, m Manifest) error { return json.NewEncoder(w).Encode(m) }
