package modal

import (
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// TestSnapshotProvenance: only an Image a box's tags record as a snapshot
// the provider took reads as one; a template's Image, or any other, reads
// with Unrecorded saying what it is and what is accepted.
func TestSnapshotProvenance(t *testing.T) {
	f := newFixture(t, false)
	tpl := f.template(t)
	box := f.box(t, platform.SandboxSpec{TemplateID: tpl})
	taken, err := f.p.Snapshots().Create(f.ctx, platform.SnapshotSpec{SandboxID: box.ID})
	if err != nil {
		t.Fatal(err)
	}
	lone := f.template(t) // an Image no box was made from

	tests := []struct {
		name, id string
		want     []string // what Unrecorded says; none: a snapshot
	}{
		{"a snapshot the provider took", taken.ID, nil},
		{"the template Image of a running box", tpl, []string{tpl + " is a Modal Image the provider has no record of taking as a snapshot",
			"the template Image sandbox " + box.ID + " was made from", "imported as sbx_template"}},
		{"any other Image", lone, []string{"made outside the provider, a template's, or a snapshot whose sandbox has ended"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := f.p.Snapshots().Get(f.ctx, tt.id)
			if err != nil {
				t.Fatal(err)
			}
			if (got.Unrecorded == "") != (tt.want == nil) {
				t.Fatalf("Unrecorded = %q, want it set: %v", got.Unrecorded, tt.want != nil)
			}
			for _, w := range tt.want {
				if !strings.Contains(got.Unrecorded, w) {
					t.Errorf("Unrecorded = %q, want it to say %q", got.Unrecorded, w)
				}
			}
		})
	}
}
