// Package depsanchor keeps the project's chosen dependencies in go.mod while the packages
// that use them are being written. It is removed once every dependency has a real user.
package depsanchor

import (
	_ "github.com/bmatcuk/doublestar/v4"
	_ "github.com/dave/jennifer/jen"
	_ "github.com/google/jsonschema-go/jsonschema"
	_ "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/stretchr/testify/assert"
	_ "github.com/urfave/cli/v2"
	_ "go.uber.org/goleak"
	_ "golang.org/x/mod/sumdb/note"
	_ "golang.org/x/mod/sumdb/tlog"
	_ "golang.org/x/sys/unix"
	_ "golang.org/x/tools/go/analysis/analysistest"
	_ "golang.org/x/tools/go/analysis/singlechecker"
	_ "golang.org/x/tools/go/packages"
	_ "gopkg.in/yaml.v3"
)
