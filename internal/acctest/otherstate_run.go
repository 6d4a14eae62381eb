package acctest

import (
	"os"
	"path/filepath"
	"strings"
)

// Dir is the second working directory, for files a test writes beside the
// configuration (a .tfquery.hcl) or reads back (generated configuration).
func (s *OtherState) Dir() string { return s.dir }

// WriteFile writes a file of the working directory.
func (s *OtherState) WriteFile(name, content string) {
	s.t.Helper()
	if err := os.WriteFile(filepath.Join(s.dir, name), []byte(content), 0o600); err != nil {
		s.t.Fatal(err)
	}
}

// Run runs the terraform CLI with args in the working directory, returning
// its output and error output together.
func (s *OtherState) Run(args ...string) (string, error) { return s.run(args...) }

// Output runs the terraform CLI with args in the working directory,
// returning only its standard output (for -json output).
func (s *OtherState) Output(args ...string) (string, error) { return s.stdout(args...) }

// MustRun runs the terraform CLI with args as Run does, failing the test,
// with the output, when it fails.
func (s *OtherState) MustRun(args ...string) string {
	s.t.Helper()
	out, err := s.run(args...)
	if err != nil {
		s.t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}
