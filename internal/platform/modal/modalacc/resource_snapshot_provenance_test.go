package modalacc_test

import (
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// modalProvenanceHCL is a template, a sandbox made from it and, with
// snapshot, a filesystem snapshot of the sandbox.
func modalProvenanceHCL(providerConfig string, snapshot bool) string {
	hcl := providerConfig + modalTemplateHCL("prov-tpl") + `
resource "sbx_sandbox" "src" {
  name        = "prov-src"
  template_id = sbx_template.t.id
}
`
	if snapshot {
		hcl += `
resource "sbx_snapshot" "snap" {
  sandbox_id = sbx_sandbox.src.id
}
`
	}
	return hcl
}

// flat is the CLI's output on one line, its boxes and wrapping undone.
func flat(out string) string {
	return strings.Join(strings.Fields(strings.NewReplacer("│", " ", "╷", " ", "╵", " ").Replace(out)), " ")
}

// The SDK cannot tell a snapshot's Image from a template's: importing a
// template's Image as sbx_snapshot is an error saying what the id is and
// what is accepted, and nothing is imported.
func TestAccModalSnapshotImportTemplateImage(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	ws, providerConfig := modalAccWorkspace(t)
	s := acctest.NewOtherStateServing(t, modalFactories(ws)["sbx"])
	s.Apply(modalProvenanceHCL(providerConfig, false))
	tpl, src := s.Attr("sbx_template.t", "id"), s.Attr("sbx_sandbox.src", "id")

	s.WriteFile("main.tf", modalProvenanceHCL(providerConfig, true))
	out, err := s.Run("import", "-input=false", "-no-color", "sbx_snapshot.snap", tpl)
	if err == nil {
		t.Fatalf("importing the template's Image %s as a snapshot succeeded:\n%s", tpl, out)
	}
	for _, want := range []string{
		"Error: Cannot import snapshot " + tpl,
		tpl + " is a Modal Image the provider has no record of taking as a snapshot (the template Image sandbox " + src + " was made from)",
		"only a filesystem snapshot the provider took, recorded in the tags of its running sandbox, is a snapshot here",
		"a template's Image is imported as sbx_template",
	} {
		if !strings.Contains(flat(out), want) {
			t.Errorf("the import error does not say %q:\n%s", want, out)
		}
	}
	if ids := s.StateIDs("sbx_snapshot"); len(ids) != 0 {
		t.Errorf("the state holds snapshots %v after a refused import", ids)
	}
}

// A filesystem snapshot the provider took imports (its sandbox's tags
// record it) and is deleted by destroy, as is one the state created, also
// once its sandbox ended. Once nothing records it (its sandbox ended and
// the state holds it by import), destroy forgets it with a warning and
// leaves the Image: the provider cannot tell it from another
// configuration's template.
func TestAccModalSnapshotDestroyUnrecorded(t *testing.T) {
	acctest.RequireTerraform(t)
	tests := []struct {
		name string
		// imported: the state holds the snapshot by import, not by its create.
		imported, endSource bool
		kept                bool
	}{
		{"imported, recorded: deleted", true, false, false},
		{"imported, unrecorded: left in place", true, true, true},
		{"created here, its sandbox ended: deleted", false, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ws, providerConfig := modalAccWorkspace(t)
			s := acctest.NewOtherStateServing(t, modalFactories(ws)["sbx"])
			s.Apply(modalProvenanceHCL(providerConfig, true))
			snap, src := s.Attr("sbx_snapshot.snap", "id"), s.Attr("sbx_sandbox.src", "id")
			if tt.imported {
				// Imported, the state holds no record of creating it:
				// only the platform's record says it is the provider's.
				s.MustRun("state", "rm", "sbx_snapshot.snap")
				s.MustRun("import", "-input=false", "-no-color", "sbx_snapshot.snap", snap)
			}
			if tt.endSource {
				if err := ws.TerminateSandbox(src); err != nil {
					t.Fatal(err)
				}
			}
			out := flat(s.MustRun("destroy", "-auto-approve", "-input=false", "-no-color"))
			_, kept := ws.Image(snap)
			warned := strings.Contains(out, "Warning: Snapshot left in place") &&
				strings.Contains(out, snap+" is a Modal Image the provider has no record of taking as a snapshot")
			if kept != tt.kept || warned != tt.kept {
				t.Fatalf("after destroy the snapshot's Image is kept: %v, the destroy warns: %v; want %v:\n%s",
					kept, warned, tt.kept, out)
			}
		})
	}
}
