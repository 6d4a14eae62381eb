package platformtest

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// testImportForeign is the journey of a team taking over a volume someone
// made with the platform's own tools: an `import {}` block and a
// configuration that gives only its name import it without replacing or
// destroying it (the plan may only take over what the platform cannot
// report), the next plan is empty, and the volume the state holds is the
// one that was made, still there; another one imported with `terraform
// import` plans nothing either. Its id imported as a sandbox is an
// import error, and the volume survives that too. The destroy deletes it:
// importing is taking ownership.
func testImportForeign(t *testing.T, h harness) {
	r := newRun(h)
	name, cliName := r.volumeName("own"), r.volumeName("cli")
	id := h.OutOfBand.Make(t, Foreign{Kind: KindVolume, Name: name})
	cliID := h.OutOfBand.Make(t, Foreign{Kind: KindVolume, Name: cliName})
	volume := fmt.Sprintf("import {\n  to = sbx_volume.v\n  id = %q\n}\n\nresource \"sbx_volume\" \"v\" {\n  name = %q\n}\n", id, name)
	cliVolume := fmt.Sprintf("resource \"sbx_volume\" \"cli\" {\n  name = %q\n}\n", cliName)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.ProviderFactories,
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(
			goneFromPlatform(t, h, map[string]*string{KindVolume: &id}),
			goneFromPlatform(t, h, map[string]*string{KindVolume: &cliID})),
		Steps: []resource.TestStep{
			{
				Config: r.config(volume),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{keepsObject("sbx_volume.v")},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					idIs("sbx_volume.v", &id),
					resource.TestCheckResourceAttr("sbx_volume.v", "name", name),
					existsOnPlatform(t, h, KindVolume, &id),
				),
			},
			{
				// Another kind's id: the sandbox import fails, naming
				// the id, and changes nothing.
				Config:        r.config(volume, "resource \"sbx_sandbox\" \"x\" {\n  template_id = \"none\"\n}\n"),
				ResourceName:  "sbx_sandbox.x",
				ImportState:   true,
				ImportStateId: id,
				ExpectError:   regexp.MustCompile(`(?s)(Cannot import non-existent remote object|` + regexp.QuoteMeta(id) + `)`),
			},
			{
				Config:           r.config(volume),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            resource.ComposeAggregateTestCheckFunc(idIs("sbx_volume.v", &id), existsOnPlatform(t, h, KindVolume, &id)),
			},
			{
				// The other one by the CLI (terraform import), kept in
				// the state: the configuration giving only its name then
				// plans nothing.
				Config:             r.config(volume, cliVolume),
				ResourceName:       "sbx_volume.cli",
				ImportState:        true,
				ImportStateId:      cliID,
				ImportStatePersist: true,
			},
			{
				Config:           r.config(volume, cliVolume),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            resource.ComposeAggregateTestCheckFunc(idIs("sbx_volume.cli", &cliID), existsOnPlatform(t, h, KindVolume, &cliID)),
			},
		},
	})
}

// keepsObject is a plan check: the plan neither creates, replaces nor
// destroys addr (an import, an in-place update or nothing at all).
func keepsObject(addr string) plancheck.PlanCheck { return keepsObjectCheck{addr} }

type keepsObjectCheck struct{ addr string }

func (c keepsObjectCheck) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != c.addr {
			continue
		}
		if rc.Change.Actions.Create() || rc.Change.Actions.Delete() || rc.Change.Actions.Replace() ||
			rc.Change.Actions.CreateBeforeDestroy() || rc.Change.Actions.DestroyBeforeCreate() {
			resp.Error = fmt.Errorf("%s: the plan would %v it; an imported object must be kept", c.addr, rc.Change.Actions)
		}
		return
	}
	resp.Error = fmt.Errorf("%s is not in the plan", c.addr)
}

// testImportBuiltTemplate is the journey of a template another
// configuration built, taken over by this one through an `import {}` block
// with the same configuration: the plan keeps it (an update of the state
// alone where the platform cannot report a build input, with a warning),
// nothing is built again (its build_id stays), and the next plan is empty.
func testImportBuiltTemplate(t *testing.T, h harness) {
	r := newRun(h)
	var id, buildID string
	forget := "removed {\n  from = sbx_template.t\n  lifecycle {\n    destroy = false\n  }\n}\n"
	// The id is known once the first step ran: a variable carries it.
	importBlock := "variable \"template_id\" {\n  type = string\n}\n\nimport {\n  to = sbx_template.t\n  id = var.template_id\n}\n"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.ProviderFactories,
		CheckDestroy:             templateGone(t, h, &id),
		Steps: []resource.TestStep{
			{
				Config: r.config(r.template()),
				Check: resource.ComposeAggregateTestCheckFunc(captureID("sbx_template.t", &id),
					resource.TestCheckResourceAttrWith("sbx_template.t", "build_id", func(v string) error { buildID = v; return nil })),
			},
			// The configuration that built it lets go of it.
			{Config: r.config(forget)},
			{
				Config:          r.config(importBlock, r.template()),
				ConfigVariables: config.Variables{"template_id": acctest.LazyString{V: &id}},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{keepsObject("sbx_template.t")},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					idIs("sbx_template.t", &id),
					resource.TestCheckResourceAttrWith("sbx_template.t", "build_id", func(v string) error {
						if v != buildID {
							return fmt.Errorf("build_id %q after the import, %q before: the template was built again", v, buildID)
						}
						return nil
					}),
				),
			},
		},
	})
}

// templateGone is a CheckDestroy: the template is gone from the platform,
// where templates are objects there at all (not on a platform whose
// templates are records in state).
func templateGone(t *testing.T, h harness, id *string) resource.TestCheckFunc {
	if h.TemplatesInStateOnly {
		return func(*terraform.State) error { return nil }
	}
	return goneFromPlatform(t, h, map[string]*string{KindTemplate: id})
}
