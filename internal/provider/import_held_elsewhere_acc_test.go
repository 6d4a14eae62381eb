package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// TestAccImport_volumeHeldElsewhere: importing a volume that a create of
// this provider made warns that another state may hold it, naming its
// owner and, when the importing provider block's owner differs, saying
// so; a volume made by hand imports without a word.
func TestAccImport_volumeHeldElsewhere(t *testing.T) {
	acctest.RequireDocker(t)
	tests := []struct {
		name          string
		maker         string // the owner of the state that makes the volume; "-": docker volume create
		importer      string // the owner of the provider block that imports it
		warns         bool
		otherOwnerMsg bool
	}{
		{name: "another team's", maker: "team-a", importer: "team-b", warns: true, otherOwnerMsg: true},
		{name: "own team's", maker: "team-a", importer: "team-a", warns: true},
		{name: "made by hand", maker: "-", importer: "team-a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			name := ownershipAccName("held")
			if tt.maker == "-" {
				volumeAccCreateUnmanaged(t, name)
			} else {
				first := acctest.NewOtherState(t, New("test"))
				first.Apply(fmt.Sprintf("provider \"sbx\" {\n  owner = %q\n}\n\nresource \"sbx_volume\" \"a\" {\n  name = %q\n}\n", tt.maker, name))
			}
			second := acctest.NewOtherState(t, New("test"))
			second.WriteFile("main.tf", fmt.Sprintf("provider \"sbx\" {\n  owner = %q\n}\n\nresource \"sbx_volume\" \"v\" {\n  name = %q\n}\n", tt.importer, name))
			if out, err := second.Run("init", "-input=false", "-no-color"); err != nil {
				t.Fatalf("init: %v\n%s", err, out)
			}
			out, err := second.Run("import", "-input=false", "-no-color", "sbx_volume.v", name)
			if err != nil {
				t.Fatalf("import: %v\n%s", err, out)
			}
			// The second state lets go, so that only the first one's destroy deletes the volume.
			if rmOut, err := second.Run("state", "rm", "sbx_volume.v"); err != nil {
				t.Fatalf("state rm: %v\n%s", err, rmOut)
			}
			flat := strings.Join(strings.Fields(out), " ")
			warning := fmt.Sprintf("Warning: Imported volume %s may be held by another state", name)
			if got := strings.Contains(flat, warning); got != tt.warns {
				t.Fatalf("the import warns %v, want %v:\n%s", got, tt.warns, out)
			}
			if !tt.warns {
				return
			}
			if want := fmt.Sprintf("made by a create of this provider (owner %q)", tt.maker); !strings.Contains(flat, want) {
				t.Errorf("the warning does not name the owner (%s):\n%s", want, out)
			}
			otherOwner := fmt.Sprintf("This provider block has owner %q", tt.importer)
			if got := strings.Contains(flat, otherOwner); got != tt.otherOwnerMsg {
				t.Errorf("the warning says the owners differ: %v, want %v:\n%s", got, tt.otherOwnerMsg, out)
			}
		})
	}
}
