package cli

import (
	"path/filepath"

	"github.com/cmdbridge/cmdbridge/kernel"
)

// WorkspaceConfig is a workspace's .cmdbridge/config.yaml (kernel.ConfigFile) as the
// command line's commands read it: the kernel's settings, and the keys only these commands
// read, which the kernel does not know.
//
//	nats:                            # cmdbridge serve also joins this broker (docs/scale.md)
//	  url: nats://127.0.0.1:4222
//	  creds: /etc/cmdbridge/ws-1.creds
//	shadow_promotion:                # cmdbridge status --workspace: when shadow may go native
//	  matches: 200
//	  max_mismatches: 0
type WorkspaceConfig struct {
	kernel.FileConfig
	// NATS is the broker serve joins (nil: the key is absent).
	NATS *FileNATS
	// ShadowPromotion is the rule `cmdbridge status --workspace` applies to the shadow
	// runs of the log (nil: the key is absent).
	ShadowPromotion *FilePromotion
}

// FilePromotion is the maintainer's rule for moving a shadow-routed tool to native
// (parity/status.Promotion, which the status command converts it to): every command
// reads the key, so a mistyped one fails each of them, while only status links the
// report.
type FilePromotion struct {
	Matches       int `yaml:"matches"`
	MaxMismatches int `yaml:"max_mismatches"`
}

// FileNATS is the broker a sidecar joins besides serving HTTP: the server URLs
// (comma-separated) and an optional NATS credentials file.
type FileNATS struct {
	URL   string `yaml:"url"`
	Creds string `yaml:"creds"`
}

// LoadWorkspaceConfig reads the config file of the workspace ws, for subcommands of
// other packages (Host.Subcommands: status's shadow_promotion).
func LoadWorkspaceConfig(ws string) (WorkspaceConfig, error) { return loadWorkspaceConfig(ws) }

// loadWorkspaceConfig reads the config file of the workspace ws; every command that
// reads it reads it whole, so a key one of them does not use is never an unknown key.
func loadWorkspaceConfig(ws string) (WorkspaceConfig, error) {
	var wc WorkspaceConfig
	var err error
	wc.FileConfig, err = kernel.LoadFileConfig(filepath.Join(ws, kernel.ConfigFile),
		kernel.FileSection{Key: "nats", Into: &wc.NATS},
		kernel.FileSection{Key: "shadow_promotion", Into: &wc.ShadowPromotion})
	return wc, err
}
