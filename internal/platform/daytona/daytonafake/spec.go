package daytonafake

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// SpecFile is the name of Daytona's OpenAPI document (v0.190.0) inside the
// specs directory.
const SpecFile = "daytona-openapi.yaml"

// specSHA256 is the checksum of the official document the fake validates
// against (recorded in shared/specs/README.md); TestSpecCopyIsTheOfficialFile
// pins both the copy in testdata and the file in use to it.
const specSHA256 = "7dce26780cd898e7f55d1956d90334df5f8c318f4b5fdda5ad56d008d8d43613"

// The document is 15k lines and every test starts its own fake, while the
// parsed document is only ever read: parse it once per test binary.
var (
	specOnce   sync.Once
	specRouter routers.Router
	specErr    error
)

// SpecPath is where the fake reads the spec: $SBX_SPECS_DIR/daytona-openapi.yaml
// when that is set, else the project's shared copy
// <repo>/../shared/specs/daytona-openapi.yaml (found from this source file so
// tests work from any working directory), else testdata/daytona-openapi.yaml,
// a byte-identical copy for clones checked out without ../shared.
func SpecPath() string {
	if dir := os.Getenv("SBX_SPECS_DIR"); dir != "" {
		return filepath.Join(dir, SpecFile)
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return filepath.Join("..", "shared", "specs", SpecFile)
	}
	// file is <repo>/internal/platform/daytona/daytonafake/spec.go.
	here := filepath.Dir(file)
	shared := filepath.Join(here, "..", "..", "..", "..", "..", "shared", "specs", SpecFile)
	if _, err := os.Stat(shared); err == nil {
		return shared
	}
	return filepath.Join(here, "testdata", SpecFile)
}

// specRoutes loads and checks the document once. It needs no patching:
// kin-openapi v0.153 loads and validates v0.190.0 as published once example
// validation is off (its examples do not match its own schemas, e.g. string
// examples on number fields), which is a property of the examples, not of
// the schemas the fake validates against.
func specRoutes() (routers.Router, error) {
	specOnce.Do(func() {
		path := SpecPath()
		doc, err := openapi3.NewLoader().LoadFromFile(path)
		if err != nil {
			specErr = fmt.Errorf("load Daytona spec %s: %w", path, err)
			return
		}
		if err := doc.Validate(context.Background(), openapi3.DisableExamplesValidation()); err != nil {
			specErr = fmt.Errorf("daytona spec %s is invalid: %w", path, err)
			return
		}
		// The spec names http://localhost:3000 (a self-hosted API) as its only
		// server; the router would then match only that host, so route on
		// paths alone.
		doc.Servers = nil
		specRouter, specErr = gorillamux.NewRouter(doc)
	})
	return specRouter, specErr
}
