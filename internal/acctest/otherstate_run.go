package acctest

import (
	"encoding/json"
	"errors"
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

// StateIDs are the ids of the resources of type typ the working
// directory's local state holds, read from the state file itself (no
// terraform show): every instance, in the order the file lists them.
func (s *OtherState) StateIDs(typ string) []string {
	s.t.Helper()
	st, err := s.localState()
	if err != nil {
		s.t.Fatalf("reading the state: %v", err)
	}
	var ids []string
	for _, r := range st.Resources {
		if r.Mode != "managed" || r.Type != typ {
			continue
		}
		for _, in := range r.Instances {
			if id, _ := in.Attributes["id"].(string); id != "" {
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// localState is what the helpers read of a local state file (format 4).
type localState struct {
	Resources []struct {
		Mode      string `json:"mode"`
		Type      string `json:"type"`
		Instances []struct {
			Attributes map[string]any `json:"attributes"`
		} `json:"instances"`
	} `json:"resources"`
}

// localState reads the working directory's state file; none (or an empty
// one, as a fresh directory has) is a state without resources.
func (s *OtherState) localState() (localState, error) {
	var st localState
	raw, err := os.ReadFile(filepath.Join(s.dir, "terraform.tfstate"))
	if errors.Is(err, os.ErrNotExist) || (err == nil && len(raw) == 0) {
		return st, nil
	}
	if err != nil {
		return st, err
	}
	return st, json.Unmarshal(raw, &st)
}

// holdsResources says the local state lists a resource instance, so that
// there is something to destroy.
func (s *OtherState) holdsResources() bool {
	st, err := s.localState()
	if err != nil {
		return true // unreadable: let destroy say what is wrong
	}
	for _, r := range st.Resources {
		if r.Mode == "managed" && len(r.Instances) > 0 {
			return true
		}
	}
	return false
}
