package e2bfake

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

// SpecFile is the name of the official E2B OpenAPI document inside the specs directory.
const SpecFile = "e2b-openapi.yml"

// loadedSpec is parsed once per test binary: the document is 4k lines and every
// test starts its own fake, while the parsed document is only ever read.
var (
	specOnce   sync.Once
	specRouter routers.Router
	specErr    error
)

// SpecPath is where the fake reads the spec: $SBX_SPECS_DIR/e2b-openapi.yml when
// that is set, else the project's shared copy <repo>/../shared/specs/e2b-openapi.yml
// (found from this source file so tests work from any working directory).
// A clone checked out without ../shared falls back to testdata/e2b-openapi.yml,
// a byte-identical copy whose checksum TestSpecCopyIsTheOfficialFile pins to
// the one recorded for the official file, so it can never drift from it.
func SpecPath() string {
	if dir := os.Getenv("SBX_SPECS_DIR"); dir != "" {
		return filepath.Join(dir, SpecFile)
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return filepath.Join("..", "shared", "specs", SpecFile)
	}
	// file is <repo>/internal/platform/e2b/e2bfake/spec.go.
	here := filepath.Dir(file)
	shared := filepath.Join(here, "..", "..", "..", "..", "..", "shared", "specs", SpecFile)
	if _, err := os.Stat(shared); err == nil {
		return shared
	}
	return filepath.Join(here, "testdata", SpecFile)
}

// specSHA256 is the checksum of the official e2b-dev/infra spec/openapi.yml
// the fake validates against (recorded in shared/specs/README.md).
const specSHA256 = "02786df8a1b125d2c8247a5ba21f74e528ec72122a3a2b5b79f6073036b6338b"

func specRoutes() (routers.Router, error) {
	specOnce.Do(func() {
		path := SpecPath()
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromFile(path)
		if err != nil {
			specErr = fmt.Errorf("load E2B spec %s: %w", path, err)
			return
		}
		if err := doc.Validate(context.Background()); err != nil {
			specErr = fmt.Errorf("E2B spec %s is invalid: %w", path, err)
			return
		}
		// The spec names https://api.e2b.app as its only server; the router would
		// then match only that host, so route on paths alone.
		doc.Servers = nil
		specRouter, specErr = gorillamux.NewRouter(doc)
	})
	return specRouter, specErr
}
