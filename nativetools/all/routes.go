package all

import (
	_ "embed"
	"encoding/json"

	"github.com/cmdbridge/cmdbridge/nativetools"
)

// routesJSON is the corpus's route table: which lane serves each migrated tool by
// default. A tool moves to native (or first shadow) here once its parity script passes.
//
//go:embed routes.json
var routesJSON []byte

// init records routes.json on nativetools.Default. A file that does not decode is a
// build defect: it panics.
func init() {
	var t struct {
		Routes map[string]string `json:"routes"`
	}
	if err := json.Unmarshal(routesJSON, &t); err != nil {
		panic("nativetools/all: routes.json: " + err.Error())
	}
	nativetools.Default.SetRoutes(t.Routes)
}
