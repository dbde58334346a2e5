package app

import _ "embed"

// Effects says what each command does, in the YAML form cmdbridge reads
// (cmdbridge.Config.EffectsYAML): a program that declares nothing is served as
// destructive throughout.
//
//go:embed effects.yaml
var Effects []byte
