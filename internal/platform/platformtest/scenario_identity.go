package platformtest

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// identityAddrs are the resources of identityConfig: one of each type.
var identityAddrs = []string{"sbx_template.t", "sbx_volume.v", "sbx_sandbox.s", "sbx_snapshot.snap"}

// identityChange is what the update step of the identity scenario changes
// in place: the first the platform's attribute table changes in place of
// the box's labels (a tier added) or its state (paused), and the volume's
// labels where they change in place.
type identityChange struct {
	boxLabels, pause, volumeLabels bool
}

func identityChangeOf(c platform.Capabilities) (identityChange, bool) {
	ch := identityChange{volumeLabels: c.InPlace(platform.AttrVolumeLabels)}
	switch {
	case c.InPlace(platform.AttrSandboxLabels):
		ch.boxLabels = true
	case c.InPlace(platform.AttrSandboxState) && c.AcceptsValue(platform.AttrSandboxState, string(platform.StatePaused)):
		ch.pause = true
	default:
		return ch, false
	}
	return ch, true
}

// identityConfig is one object of each type: a template, a volume, a box
// from the template labelled team = "a", and a snapshot of the box (of the
// volume where the platform snapshots volumes only), named where snapshots
// have names. updated applies ch.
func identityConfig(r run, ch identityChange, updated bool) string {
	boxLabels := map[string]string{"suite": r.name, "team": "a"}
	volLabels := map[string]string{"suite": r.name}
	state := ""
	if updated {
		if ch.boxLabels {
			boxLabels["tier"] = "gold"
		}
		if ch.pause {
			state = "  state = \"paused\""
		}
		if ch.volumeLabels {
			volLabels["step"] = "two"
		}
	}
	vol := fmt.Sprintf("resource \"sbx_volume\" \"v\" {\n  name = %q\n", r.volumeName("v"))
	if r.h.Capabilities.Accepts(platform.AttrVolumeLabels) {
		vol += "  labels = " + hclMap(volLabels) + "\n"
	}
	vol += "}\n"
	box := fmt.Sprintf(`resource "sbx_sandbox" "s" {
  name        = "%s-s"
  template_id = sbx_template.t.id
  labels      = %s
%s
%s
}
`, r.name, hclMap(boxLabels), state, identityTimeout(r.h.Capabilities))
	return r.config(r.template(), vol, box, r.snapshotOf("snap", identitySnapshotSource(r.h.Capabilities),
		r.snapshotLabels(fmt.Sprintf("suite = %q", r.name))))
}

// identityTimeout is the box's timeout where the platform ends a box at its
// deadline and changes it in place (E2B's default is five minutes, less
// than the scenario's many imports take on a loaded machine): an hour.
func identityTimeout(c platform.Capabilities) string {
	if c.EnforcesDeadlines && c.InPlace(platform.AttrSandboxTimeout) && !c.Attribute(platform.AttrSandboxTimeout).Unreported {
		return "  timeout     = \"1h\""
	}
	return ""
}

// identitySnapshotSource is what the scenario snapshots: the box where the
// platform snapshots boxes, else the volume.
func identitySnapshotSource(c platform.Capabilities) string {
	if c.Accepts(platform.AttrSnapshotSandboxID) {
		return "sbx_sandbox.s"
	}
	return "sbx_volume.v"
}

// identityChecks: every resource's identity is {id, platform}, its id the
// one recorded at create.
func identityChecks(in *Instance, ids map[string]string) []statecheck.StateCheck {
	var checks []statecheck.StateCheck
	for _, addr := range identityAddrs {
		checks = append(checks,
			statecheck.ExpectIdentity(addr, identityOf(in, ids, addr)),
			statecheck.ExpectIdentityValueMatchesState(addr, tfjsonpath.New("id")))
	}
	return checks
}

// testIdentity: the four resources carry the identity {id, platform} from
// their create, keep it across a refresh and an in-place update, and
// import by it (an import block with an identity) as by id; an identity
// naming another platform is refused naming both, and one naming nothing
// goes through the same lookup as an id.
func testIdentity(t *testing.T, in *Instance, f Factories) {
	needsTemplate(t, in)
	needs(t, in.Capabilities.Accepts(platform.AttrSnapshotSandboxID) || in.Capabilities.Accepts(platform.AttrSnapshotVolumeID),
		"snapshots (SnapshotSandboxID or SnapshotVolumeID)")
	ch, ok := identityChangeOf(in.Capabilities)
	needs(t, ok, "an in-place change of a box (sandbox.labels or sandbox.state = paused in place)")
	r := newRun(newHarness(in, f))
	ids := map[string]string{}
	cfg := identityConfig(r, ch, false)
	updated := identityConfig(r, ch, true)
	steps := []resource.TestStep{
		{
			Config:            cfg,
			Check:             recordIDs(ids, identityAddrs...),
			ConfigStateChecks: identityChecks(in, ids),
			ConfigPlanChecks:  emptyPlanAfterApply(),
		},
		{
			// The same configuration again: a refresh reads every object
			// again, the plan is empty, the identity stays.
			Config:            cfg,
			ConfigStateChecks: identityChecks(in, ids),
			ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		},
	}
	_, onTofu := acctest.IsOpenTofu()
	for _, addr := range identityAddrs {
		typ, _, _ := strings.Cut(addr, ".")
		kind := resource.ImportBlockWithResourceIdentity
		if onTofu && typ == "sbx_template" {
			// The import of a built template may plan its rebuild (a
			// replacement, where the platform keeps no build inputs), and
			// OpenTofu plans no identity for an object it replaces: the
			// identity comparison plugin-testing makes after an import by
			// identity cannot hold there. The import by id takes the same
			// lookup; the identity itself is checked after every apply.
			kind = resource.ImportBlockWithID
		}
		steps = append(steps,
			resource.TestStep{
				// What the platform does not report an import takes from
				// the configuration, recorded in place: nothing else
				// changes, and the object keeps its id.
				Config:             cfg,
				ResourceName:       addr,
				ImportState:        true,
				ImportStateKind:    kind,
				ExpectNonEmptyPlan: true,
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					importRecordsOnly(addr, ids, importIgnore(in, typ), typ == "sbx_template"),
				}},
			},
			resource.TestStep{
				Config:            cfg,
				ResourceName:      addr,
				ImportState:       true,
				ImportStateVerify: true,
				// A box's timeout is read back as what is left of it.
				ImportStateVerifyIgnore: importIgnore(in, typ, "timeout"),
			},
		)
	}
	inPlace := []plancheck.PlanCheck{plancheck.ExpectResourceAction("sbx_sandbox.s", plancheck.ResourceActionUpdate)}
	if ch.volumeLabels {
		inPlace = append(inPlace, plancheck.ExpectResourceAction("sbx_volume.v", plancheck.ResourceActionUpdate))
	}
	steps = append(steps,
		resource.TestStep{
			// Refreshed and updated in place, every identity is the one
			// its create recorded.
			Config: updated,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             inPlace,
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: identityChecks(in, ids),
		},
		resource.TestStep{
			Config: updated + fmt.Sprintf(`
import {
  to       = sbx_volume.other
  identity = { id = "%[1]s", platform = %[2]q }
}
resource "sbx_volume" "other" {
  name = "%[1]s"
}
`, r.volumeName("other"), otherPlatform(in)),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(fmt.Sprintf(`(?s)names platform %q.*configuration uses\s+%q`, otherPlatform(in), in.Name)),
		},
		resource.TestStep{
			// An identity naming nothing goes through the same lookup as an id.
			Config: updated + fmt.Sprintf(`
import {
  to       = sbx_volume.other
  identity = { id = "%[1]s" }
}
resource "sbx_volume" "other" {
  name = "%[1]s"
}
`, r.volumeName("none")),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`Cannot import volume ` + regexp.QuoteMeta(r.volumeName("none"))),
		},
	)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: f,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		CheckDestroy:             holdsNothing(t, in, r, ids),
		Steps:                    steps,
	})
}

// importRecordsOnly checks an import's plan for addr: the object keeps the
// id recorded at create (ids), nothing is made, and a change touches only
// what the platform cannot report (unreported: top-level attributes, as
// ImportStateVerifyIgnore lists them), taken from the configuration. A
// built template (rebuild) may be rebuilt from its build inputs, which a
// platform that keeps none cannot read back: replaced, on a platform that
// rebuilds by replacing.
func importRecordsOnly(addr string, ids map[string]string, unreported []string, rebuild bool) plancheck.PlanCheck {
	return importRecordsOnlyCheck{addr: addr, ids: ids, unreported: unreported, rebuild: rebuild}
}

type importRecordsOnlyCheck struct {
	addr       string
	ids        map[string]string
	unreported []string
	rebuild    bool
}

func (c importRecordsOnlyCheck) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != c.addr || rc.Change == nil {
			continue
		}
		a := rc.Change.Actions
		if !a.NoOp() && !a.Update() && (!c.rebuild || !a.Replace()) {
			resp.Error = fmt.Errorf("importing %s plans %v, want no change or an in-place record of what the platform does not report", c.addr, a)
			return
		}
		before, _ := rc.Change.Before.(map[string]any)
		after, _ := rc.Change.After.(map[string]any)
		if !a.Replace() && fmt.Sprint(after["id"]) != c.ids[c.addr] {
			resp.Error = fmt.Errorf("importing %s plans id %v, want the id recorded at create, %q", c.addr, after["id"], c.ids[c.addr])
			return
		}
		var changed []string
		for k, v := range after {
			if fmt.Sprint(before[k]) != fmt.Sprint(v) && !slices.Contains(c.unreported, k) && !unknownIn(rc.Change, k) {
				changed = append(changed, k)
			}
		}
		if len(changed) > 0 {
			slices.Sort(changed)
			resp.Error = fmt.Errorf("importing %s changes %v, which the platform reports (only %v may be taken from the configuration)",
				c.addr, changed, c.unreported)
		}
		return
	}
	resp.Error = fmt.Errorf("the import's plan has no change for %s", c.addr)
}

// unknownIn says the attribute is unknown after the change (computed anew
// by an in-place update: a template's build_id), not a changed value.
func unknownIn(ch *tfjson.Change, attr string) bool {
	m, _ := ch.AfterUnknown.(map[string]any)
	u, _ := m[attr].(bool)
	return u
}
