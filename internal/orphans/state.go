// Package orphans finds, and on request removes, the objects the provider
// made on a platform that no Terraform state holds: the boxes a killed
// apply left behind, the template of a deleted workspace. An object is the
// provider's when it carries the managed label; it is an owner's when its
// owner mark (the provider block's `owner`) says so; it is held when a
// state given to the command records its id.
package orphans

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/sbxhq/terraform-provider-sbx/internal/drift"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/statesource"
)

// resourceTypes are the provider's resources whose ids a state holds.
var resourceTypes = []string{drift.TypeTemplate, drift.TypeVolume, drift.TypeSandbox, drift.TypeSnapshot}

// StateSummary is what one state file held.
type StateSummary struct {
	// Name is the file name, or "standard input".
	Name   string
	Format drift.Format
	// Resources counts the sbx_* resource instances with an id.
	Resources int
	// Empty is a state file of no bytes, which Terraform reads as no state
	// (or a backend's workspace with no state yet).
	Empty bool
	// Workspace is the backend workspace the state is ("" for a file).
	Workspace string
}

// Held is the set of object ids the states read so far hold.
type Held struct {
	ids    map[string]bool
	States []StateSummary
	// Platforms counts the platform attribute recorded on sandboxes and
	// snapshots ("docker", "e2b"), so a mismatch with --platform is seen.
	Platforms map[string]int
}

// NewHeld returns an empty set.
func NewHeld() *Held { return &Held{ids: map[string]bool{}, Platforms: map[string]int{}} }

// Read streams one state (terraform state pull, a .tfstate file or
// terraform show -json) and adds the id of every managed sbx_template,
// sbx_volume, sbx_sandbox and sbx_snapshot instance, deposed ones too:
// Terraform still holds those and will destroy them. Bad input is a
// *drift.InputError.
func (h *Held) Read(r io.Reader, name string) error { return h.read(r, name, false) }

// read is Read; backend says r came from a backend, which holds only the
// state file layout. Input that does not say what it holds (a bare
// {"format_version":"1.0"}, a state without "resources") is refused, not
// read as empty: that would make every live object an orphan.
func (h *Held) read(r io.Reader, name string, backend bool) error {
	sum := StateSummary{Name: name}
	opts := drift.ParseOptions{Types: resourceTypes, Tool: "orphans", Backend: backend, RequireResources: true}
	format, err := drift.ParseWith(r, opts, func(in drift.Instance) error {
		if in.ID == "" {
			return nil // planned but never created: nothing to hold
		}
		h.ids[in.ID] = true
		sum.Resources++
		if in.Platform != "" {
			h.Platforms[in.Platform]++
		}
		return nil
	})
	if err != nil {
		return err
	}
	sum.Format = format
	h.States = append(h.States, sum)
	return nil
}

// ReadFile reads the state in the named file; "-" reads stdin.
func (h *Held) ReadFile(name string, stdin io.Reader) error {
	in := stdin
	label := "standard input"
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return fmt.Errorf("cannot read %s: %w", name, unwrapPath(err))
		}
		defer func() { _ = f.Close() }() // read-only: nothing to lose on close
		st, err := f.Stat()
		if err != nil {
			return fmt.Errorf("cannot read %s: %w", name, err)
		}
		if st.IsDir() {
			return fmt.Errorf("cannot read %s: it is a directory, want a state file", name)
		}
		if st.Mode().IsRegular() && st.Size() == 0 {
			// Terraform's local backend empties the file before writing
			// it, so a terraform killed in between leaves it empty, and
			// Terraform reads an empty state file as no state: so does
			// this command. Standard input stays an error: an empty pipe
			// is a state pull that failed.
			h.States = append(h.States, StateSummary{Name: name, Format: drift.FormatState, Empty: true})
			return nil
		}
		in, label = f, name
	}
	if err := h.Read(bufio.NewReaderSize(in, 256<<10), label); err != nil {
		var ie *drift.InputError
		if errors.As(err, &ie) {
			return fmt.Errorf("%s: %w", label, err)
		}
		return fmt.Errorf("cannot read %s: %w", label, err)
	}
	return nil
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// ReadSource reads the state of every workspace of a backend. A workspace
// that cannot be read or is not a state is an error naming it: were it read
// as empty, every object it holds would be an orphan.
func (h *Held) ReadSource(ctx context.Context, src statesource.Source) error {
	return src.Each(ctx, func(ws string, r io.Reader) error {
		label := "workspace " + ws
		if r == nil {
			h.States = append(h.States, StateSummary{Name: label, Format: drift.FormatState, Empty: true, Workspace: ws})
			return nil
		}
		if err := h.read(r, label, true); err != nil {
			return err
		}
		h.States[len(h.States)-1].Workspace = ws
		return nil
	})
}

// Resources is the number of sbx resource instances the states held.
func (h *Held) Resources() int {
	n := 0
	for _, s := range h.States {
		n += s.Resources
	}
	return n
}

// Holds reports whether a state holds o, under its id or an alias.
func (h *Held) Holds(o platform.ManagedObject) bool {
	if h.ids[o.ID] {
		return true
	}
	for _, a := range o.Aliases {
		if a != "" && h.ids[a] {
			return true
		}
	}
	return false
}

// Len is the number of distinct ids held.
func (h *Held) Len() int { return len(h.ids) }
