package statesource

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Terraform's local backend: the default workspace's state is
// terraform.tfstate in the working directory, every other workspace's is
// terraform.tfstate.d/<workspace>/terraform.tfstate.
const (
	localStateFile    = "terraform.tfstate"
	localWorkspaceDir = "terraform.tfstate.d"
)

type localSource struct{ dir string }

func newLocal(dir string) (Source, error) {
	if dir == "" {
		dir = "."
	}
	return &localSource{dir: dir}, nil
}

func (s *localSource) Describe() string { return "local backend in " + s.dir }

func (s *localSource) Each(ctx context.Context, fn func(string, io.Reader) error) error {
	type ws struct{ name, path string }
	var list []ws
	defaultPath := filepath.Join(s.dir, localStateFile)
	if _, err := os.Stat(defaultPath); err == nil {
		list = append(list, ws{"default", defaultPath})
	} else if !errors.Is(err, fs.ErrNotExist) {
		return &WorkspaceError{Source: s.Describe(), Workspace: "default", Err: err}
	}
	entries, err := os.ReadDir(filepath.Join(s.dir, localWorkspaceDir))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: %w", s.Describe(), err)
	}
	for _, e := range entries {
		if e.IsDir() {
			list = append(list, ws{e.Name(), filepath.Join(s.dir, localWorkspaceDir, e.Name(), localStateFile)})
		}
	}
	if len(list) == 0 {
		// A wrong directory must not read as a fleet with nothing in it.
		return fmt.Errorf("%s: no state: neither %s nor %s/<workspace>/%s is there", s.Describe(), localStateFile, localWorkspaceDir, localStateFile)
	}
	names := make([]string, len(list))
	byName := map[string]string{}
	for i, w := range list {
		names[i] = w.name
		byName[w.name] = w.path
	}
	sortedNames(names)
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.one(name, byName[name], fn); err != nil {
			return &WorkspaceError{Source: s.Describe(), Workspace: name, Err: err}
		}
	}
	return nil
}

func (s *localSource) one(name, path string, fn func(string, io.Reader) error) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		// terraform workspace new makes the directory; the state file
		// comes with the first write. Terraform reads that as no state.
		return fn(name, nil)
	}
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }() // read-only: nothing to lose on close
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if st.Size() == 0 {
		// Terraform's local backend empties the file before writing it;
		// Terraform reads an empty file as no state.
		return fn(name, nil)
	}
	return fn(name, f)
}
