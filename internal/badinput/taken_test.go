package badinput_test

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/conformance"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
	"github.com/sbxhq/terraform-provider-sbx/internal/provider"
)

// A name only the platform knows is taken cannot be refused at plan time:
// the apply fails, names the import command that takes the object over on
// purpose, and leaves nothing half-made: the object that holds the name is
// untouched (the test's destroy would delete it had the failed create put
// it in state) and nothing else was made.

// TestTakenNameModalVolume: a Modal volume of the name exists (made outside
// Terraform, as the modal CLI would).
func TestTakenNameModalVolume(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	tg := newTarget(t, modal)
	id := tg.OutOfBand.Make(t, platformtest.Foreign{Kind: platformtest.KindVolume, Name: "taken-vol"})
	tg.begin(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: tg.factories,
		Steps: []resource.TestStep{{
			Config: tg.block() + vol(`name = "taken-vol"`),
			ExpectError: wantPattern(w(`a volume named "taken-vol" already exists and this create did not make it`,
				"import it: terraform import <this resource's address> taken-vol", "otherwise choose another name")),
		}},
	})
	checkUntouched(t, tg, platformtest.KindVolume, id)
	if made := tg.made(t); len(made) > 0 {
		t.Errorf("the refused apply made: %s", strings.Join(made, "; "))
	}
}

// TestTakenNameDaytonaTemplate: a Daytona snapshot (an sbx_template there)
// of the name exists, made as another client would.
func TestTakenNameDaytonaTemplate(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	tg := newTarget(t, daytona)
	id := tg.OutOfBand.Make(t, platformtest.Foreign{Kind: platformtest.KindTemplate, Name: "taken-tpl", SourceID: "python:3.12-slim"})
	tg.begin(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: tg.factories,
		Steps: []resource.TestStep{{
			Config: tg.block() + tpl("name  = \"taken-tpl\"\nimage = \"python:3.12-slim\""),
			ExpectError: wantPattern(w(`a template named "taken-tpl" already exists and this create did not make it`,
				"import it: terraform import <this resource's address> "+id, "otherwise choose another name")),
		}},
	})
	checkUntouched(t, tg, platformtest.KindTemplate, id)
	if made := tg.made(t); len(made) > 0 {
		t.Errorf("the refused apply made: %s", strings.Join(made, "; "))
	}
}

// TestTakenNameE2BVolume: another state made an E2B volume of the name.
func TestTakenNameE2BVolume(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	tg := newTarget(t, e2b)
	other := acctest.NewOtherState(t, provider.NewWithOptions("test", conformance.Options(tg.Instance)))
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
	var ids []string
	for _, o := range tg.Objects(t) {
		if o.Kind == platformtest.KindVolume {
			ids = append(ids, o.ID)
		}
	}
	if len(ids) != 1 || ids[0] != theirs {
		t.Errorf("the fake holds the volumes %v after the refused apply, want only the other state's %s", ids, theirs)
	}
	if got := other.Attr("sbx_volume.v", "id"); got != theirs {
		t.Errorf("the other state's volume changed: %s, want %s", got, theirs)
	}
}

// checkUntouched fails t unless the object of kind that held the name
// still exists and the platform received no delete of the kind (the only
// way the provider could have replaced it by another of the same id, as
// Modal's volumes, whose id is their name).
func checkUntouched(t *testing.T, tg *target, kind, id string) {
	t.Helper()
	if !tg.OutOfBand.Exists(t, kind, id) {
		t.Errorf("the %s %s that held the name is gone", kind, id)
	}
	k, ok := tg.FaultPlan.Target(kind)
	if !ok {
		t.Fatalf("%s: the fault plan has no %s", tg.Name, kind)
	}
	if route := k.Routes[platformtest.OpDelete]; tg.Faults.Hits(route) > 0 {
		t.Errorf("the refused apply sent %d × %s: the %s that held the name may have been replaced", tg.Faults.Hits(route), route, kind)
	}
}
