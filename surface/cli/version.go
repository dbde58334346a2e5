package cli

import (
	"fmt"
	"runtime/debug"
	"strings"

	ucli "github.com/urfave/cli/v2"
)

// toolkitModule is cmdbridge's module path: the build info names its version whether
// cmdbridge is the main module (its own binary) or a dependency (an adopter's).
const toolkitModule = "github.com/cmdbridge/cmdbridge"

type versionOptions struct {
	IO   ioStreams
	Host Host
}

// newVersionCmd prints what `--version` prints.
func newVersionCmd(f *factory, runF func(*versionOptions) error) *ucli.Command {
	opts := &versionOptions{IO: f.IO, Host: f.Host}
	return &ucli.Command{
		Name:  "version",
		Usage: "print the program's version and cmdbridge's module version and VCS revision",
		Action: func(*ucli.Context) error {
			if runF != nil {
				return runF(opts)
			}
			return runVersion(opts)
		},
	}
}

func runVersion(opts *versionOptions) error {
	_, err := fmt.Fprintf(opts.IO.Out, "%s version %s\n", opts.Host.Name, versionString(opts.Host))
	return err
}

// versionString is "VERSION (cmdbridge MODULE-VERSION, revision REV[, modified], GO)",
// from the host and the binary's build info; `NAME --version` prints it after
// "NAME version ".
func versionString(h Host) string {
	var parts []string
	info, ok := debug.ReadBuildInfo()
	if ok {
		mod := info.Main
		if mod.Path != toolkitModule {
			for _, d := range info.Deps {
				if d.Path == toolkitModule {
					mod = *d
					if d.Replace != nil {
						mod = *d.Replace
					}
				}
			}
		}
		v := mod.Version
		if v == "" {
			v = "(devel)"
		}
		parts = append(parts, "cmdbridge "+v)
		var rev, modified string
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
		if rev != "" {
			if len(rev) > 12 {
				rev = rev[:12]
			}
			if modified == "true" {
				rev += ", modified"
			}
			parts = append(parts, "revision "+rev)
		}
		parts = append(parts, info.GoVersion)
	}
	return fmt.Sprintf("%s (%s)", h.version(), strings.Join(parts, ", "))
}
