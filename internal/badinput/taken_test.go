package badinput_test

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platforms"
	"github.com/sbxhq/terraform-provider-sbx/internal/provider"
)

// A name only the platform knows is taken cannot be refused at plan time:
// the apply fails, names the import command that takes the object over on
// purpose, and leaves nothing half-made: the object that holds the name is
// untouched (the test's destroy would delete it had the failed create put
// it in state) and nothing else was made.

// TestTakenNameModalVolume: a Modal volume of the name exists (made outside
// Terraform).
func TestTakenNameModalVolume(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	tg := newTarget(t, modal)
	ws := tg.modal
	id := ws.CreateVolume("taken-vol")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: tg.factories,
		Steps: []resource.TestStep{{
			Config: tg.block() + vol(`name = "taken-vol"`),
			ExpectError: wantPattern(w(`a volume named "taken-vol" already exists and this create did not make it`,
				"import it: terraform import <this resource's address> taken-vol", "otherwise choose another name")),
		}},
	})
	v, ok := ws.Volume("taken-vol")
	if !ok || v.ID != id {
		t.Errorf("the volume that held the name is gone or replaced: %+v (found %v), want id %s", v, ok, id)
	}
	if made := tg.made(); len(made) > 0 {
		t.Errorf("the refused apply made: %s", strings.Join(made, "; "))
	}
}

// TestTakenNameDaytonaTemplate: a Daytona snapshot (an sbx_template there)
// of the name exists.
func TestTakenNameDaytonaTemplate(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	tg := newTarget(t, daytona)
	id := tg.daytona.SeedSnapshot(daytonafake.SnapshotSeed{Name: "taken-tpl", ImageName: "python:3.12-slim"})
	seeded := len(tg.daytona.Snapshots())
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: tg.factories,
		Steps: []resource.TestStep{{
			Config: tg.block() + tpl("name  = \"taken-tpl\"\nimage = \"python:3.12-slim\""),
			ExpectError: wantPattern(w(`a template named "taken-tpl" already exists and this create did not make it`,
				"import it: terraform import <this resource's address> "+id, "otherwise choose another name")),
		}},
	})
	if _, ok := tg.daytona.Snapshot(id); !ok {
		t.Errorf("the snapshot %s that held the name is gone", id)
	}
	if n := len(tg.daytona.Snapshots()); n != seeded {
		t.Errorf("the fake holds %d snapshots after the refused apply, want the %d seeded", n, seeded)
	}
}

// TestTakenNameE2BVolume: another state made an E2B volume of the name.
func TestTakenNameE2BVolume(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	tg := newTarget(t, e2b)
	other := acctest.NewOtherState(t, provider.NewWithOptions("test",
		provider.Options{Platforms: platforms.All(), Hooks: acctest.NoWaitHooks()}))
	other.Apply(tg.block() + vol(`name = "taken-e2b"`))
	theirs := other.Attr("sbx_volume.v", "id")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: tg.factories,
		Steps: []resource.TestStep{{
			Config: tg.block() + vol(`name = "taken-e2b"`),
			ExpectError: wantPattern(w(`a volume named "taken-e2b" already exists and this create did not make it`,
				"import it: terraform import <this resource's address> "+theirs, "otherwise choose another name")),
		}},
	})
	names := e2bVolumes(tg)
	if len(names) != 1 || names[0] != theirs {
		t.Errorf("the fake holds the volumes %v after the refused apply, want only the other state's %s", names, theirs)
	}
	if got := other.Attr("sbx_volume.v", "id"); got != theirs {
		t.Errorf("the other state's volume changed: %s, want %s", got, theirs)
	}
}

// e2bVolumes are the ids of the volumes tg's E2B fake holds.
func e2bVolumes(tg *target) []string {
	var ids []string
	for _, m := range tg.made() {
		if id, ok := strings.CutPrefix(m, "volume "); ok {
			ids = append(ids, id)
		}
	}
	return ids
}
