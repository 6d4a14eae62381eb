package fakeapi

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

// SpecsDirEnv names the environment variable that points every fake at
// another directory of specs.
const SpecsDirEnv = "SBX_SPECS_DIR"

// Spec is one official OpenAPI document. Declare it once per fake, as a
// package variable: its router is built on first use and shared by every
// fake the test binary starts, since the parsed document is only ever read.
type Spec struct {
	// Platform names the platform in messages ("E2B").
	Platform string
	// File is the document's name inside a specs directory.
	File string
	// SHA256 is the checksum of the official file (recorded in
	// shared/specs/README.md); CheckCopies pins the copies to it.
	SHA256 string
	// Testdata is the directory of the fallback copy, for clones checked out
	// without ../shared; TestdataDir gives the caller's.
	Testdata string
	// Validation relaxes the document check where the official file needs it
	// (e.g. examples that do not match their own schemas).
	Validation []openapi3.ValidationOption

	once   sync.Once
	router routers.Router
	err    error
}

// TestdataDir is the testdata directory next to the calling source file, so
// a fake finds its fallback copy from any working directory.
func TestdataDir() string {
	_, file, _, ok := runtime.Caller(1)
	if !ok {
		return "testdata"
	}
	return filepath.Join(filepath.Dir(file), "testdata")
}

// Path is where the document is read: $SBX_SPECS_DIR/<File> when that is
// set, else the project's shared copy <repo>/../shared/specs/<File> (found
// from this source file so tests work from any working directory), else the
// fallback copy in Testdata.
func (s *Spec) Path() string {
	if dir := os.Getenv(SpecsDirEnv); dir != "" {
		return filepath.Join(dir, s.File)
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return filepath.Join("..", "shared", "specs", s.File)
	}
	// file is <repo>/internal/fakeapi/spec.go.
	shared := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "specs", s.File)
	if _, err := os.Stat(shared); err == nil {
		return shared
	}
	return filepath.Join(s.Testdata, s.File)
}

// Router loads and checks the document on first use and routes on it.
func (s *Spec) Router() (routers.Router, error) {
	s.once.Do(func() {
		path := s.Path()
		doc, err := openapi3.NewLoader().LoadFromFile(path)
		if err != nil {
			s.err = fmt.Errorf("load %s spec %s: %w", s.Platform, path, err)
			return
		}
		if err := doc.Validate(context.Background(), s.Validation...); err != nil {
			s.err = fmt.Errorf("%s spec %s is invalid: %w", s.Platform, path, err)
			return
		}
		// Official documents name the platform's host (or a self-hosted one)
		// as their only server; the router would then match only that host,
		// so route on paths alone.
		doc.Servers = nil
		s.router, s.err = gorillamux.NewRouter(doc)
	})
	return s.router, s.err
}
