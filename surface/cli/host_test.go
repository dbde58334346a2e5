package cli_test

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/cmdbridge/cmdbridge/internal/adoptconfig"
	"github.com/cmdbridge/cmdbridge/internal/hostconfig"
	"github.com/cmdbridge/cmdbridge/surface/cli"
)

// TestHostDeclaresEverySettingOnce: what an adopter configures is declared once, in
// adoptconfig.Config (cmdbridge.Config) or hostconfig.Config (host.Config, which embeds
// it), and cli.Host embeds hostconfig.Config and declares only how the command line is
// wired: no field name is declared by two of the three structs, so the command line
// reads the adopter's settings and never a copy of them. Name is the one name in two,
// for two things: cli.Host.Name is the command line's name ("gizmo bridge"),
// adoptconfig.Config.Name the bridge subcommand's ("bridge"), which package host reads
// and the command line never does.
func TestHostDeclaresEverySettingOnce(t *testing.T) {
	host := reflect.TypeFor[cli.Host]()
	hostConfig, adoptConfig := reflect.TypeFor[hostconfig.Config](), reflect.TypeFor[adoptconfig.Config]()
	embeds := map[reflect.Type][]reflect.Type{host: {hostConfig}, hostConfig: {adoptConfig}, adoptConfig: nil}
	declared := map[string][]string{}
	for _, typ := range []reflect.Type{host, hostConfig, adoptConfig} {
		var embedded []reflect.Type
		for i := range typ.NumField() {
			f := typ.Field(i)
			if f.Anonymous {
				embedded = append(embedded, f.Type)
				continue
			}
			declared[f.Name] = append(declared[f.Name], typ.String())
		}
		assert.Equal(t, embeds[typ], embedded, "what %s embeds", typ)
	}
	for name, in := range declared {
		if name == "Name" {
			assert.Equal(t, []string{"cli.Host", "adoptconfig.Config"}, in, "Name")
			continue
		}
		assert.Len(t, in, 1, "%s is declared in %v: declare a setting once (internal/adoptconfig or internal/hostconfig, which cli.Host embeds)", name, in)
	}
}
