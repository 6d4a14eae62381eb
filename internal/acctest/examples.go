package acctest

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// ExampleDir is examples/platforms/<name> of this repository, found from
// this file, so a test runs the example users read.
func ExampleDir(t *testing.T, name string) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the acctest package")
	}
	dir := filepath.Join(filepath.Dir(file), "..", "..", "examples", "platforms", name)
	if _, err := os.Stat(filepath.Join(dir, "main.tf")); err != nil {
		t.Fatalf("the %s example: %v", name, err)
	}
	return dir
}

// ExampleWithOverride is a working directory holding the example's main.tf
// unchanged beside an override.tf (Terraform's own mechanism) that serves
// the provider the test runs (hashicorp/sbx) and adds override: the
// provider block pointing at a fake, or anything else the test must change
// (plugin-testing copies no sub-directory, so a path into the example is
// given here). Its provider block makes plugin-testing take the factories
// from the step.
func ExampleWithOverride(t *testing.T, name, override string) string {
	t.Helper()
	mainTF, err := os.ReadFile(filepath.Join(ExampleDir(t, name), "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), mainTF, 0o644); err != nil {
		t.Fatal(err)
	}
	served := "terraform {\n  required_providers {\n    sbx = { source = \"hashicorp/sbx\" }\n  }\n}\n\n" + override
	if err := os.WriteFile(filepath.Join(dir, "override.tf"), []byte(served), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
