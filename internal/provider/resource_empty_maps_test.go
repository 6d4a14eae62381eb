package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	sdkacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// TestMapsSame: null and a known empty map both mean "none"; an unknown
// map or any content differs.
func TestMapsSame(t *testing.T) {
	null, empty, unknown := types.MapNull(types.StringType), sandboxTestMap(), types.MapUnknown(types.StringType)
	one, other := sandboxTestMap("a", "1"), sandboxTestMap("a", "2")
	tests := []struct {
		name string
		a, b types.Map
		want bool
	}{
		{"null, null", null, null, true},
		{"null, empty", null, empty, true},
		{"empty, null", empty, null, true},
		{"empty, empty", empty, empty, true},
		{"same content", one, sandboxTestMap("a", "1"), true},
		{"null, content", null, one, false},
		{"empty, content", empty, one, false},
		{"other value", one, other, false},
		{"unknown, null", unknown, null, false},
		{"unknown, empty", unknown, empty, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mapsSame(tt.a, tt.b); got != tt.want {
				t.Errorf("mapsSame(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

// emptyMapsAccConfig is a template, a volume, a sandbox mounting it and a
// snapshot of the sandbox;
// with empty, labels (and env) are written as {} instead of left out.
func emptyMapsAccConfig(t *testing.T, name string, empty bool) string {
	labels, env := "", ""
	if empty {
		labels, env = "labels = {}", "env = {}"
	}
	return fmt.Sprintf(`
resource "sbx_template" "t" {
  name        = %[1]q
  context_dir = %[2]q
  dockerfile  = <<-EOT
%[3]sEOT
  %[4]s
}

resource "sbx_volume" "v" {
  name = %[1]q
  %[4]s
}

resource "sbx_sandbox" "test" {
  name        = %[1]q
  template_id = sbx_template.t.id
  %[4]s
  %[5]s
  volume_mount {
    volume_id = sbx_volume.v.id
    path      = "/data"
  }
}

resource "sbx_snapshot" "s" {
  sandbox_id = sbx_sandbox.test.id
  %[4]s
}
`, name, acctest.AgentContextDir(t), acctest.AgentDockerfile, labels, env)
}

// TestAccEmptyMaps_sameAsLeftOut: writing labels = {} and env = {} where
// they were left out (a module's `var.labels` defaulting to {}, or a
// config after an import, which records none as null) replaces no
// sandbox or snapshot, rebuilds no template and relabels no mounted volume: the plan
// only records the empty maps in place, and the plans after are empty.
func TestAccEmptyMaps_sameAsLeftOut(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-emptymaps")
	inPlace := func(addr string) plancheck.PlanCheck {
		return plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy: resource.ComposeTestCheckFunc(
			sandboxAccCheckDestroy(t, name),
			volumeAccCheckDestroy(t, name),
		),
		Steps: []resource.TestStep{
			{
				Config: emptyMapsAccConfig(t, name, false),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				Config: emptyMapsAccConfig(t, name, true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						inPlace(sandboxAccAddr), inPlace("sbx_volume.v"), inPlace("sbx_template.t"), inPlace("sbx_snapshot.s"),
						plancheck.ExpectKnownValue("sbx_template.t", tfjsonpath.New("build_id"), knownvalue.NotNull()),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// And back: leaving them out again changes nothing either.
				Config: emptyMapsAccConfig(t, name, false),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						inPlace(sandboxAccAddr), inPlace("sbx_volume.v"), inPlace("sbx_template.t"), inPlace("sbx_snapshot.s"),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}
