package provider

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// unreportedImportPlat reports back neither a box's mounts nor a
// template's name, image, Dockerfile or base, as a platform keeping no
// record of them would.
type unreportedImportPlat struct {
	boxes *sandboxFakeBoxes
	tpls  *unreportedImportTemplates
}

func (p *unreportedImportPlat) Name() string { return "fake" }
func (p *unreportedImportPlat) Capabilities() platform.Capabilities {
	c := sandboxTestCaps
	c.Attributes = sandboxTestAttributes(platform.Attributes{
		platform.AttrSandboxVolumeMount:     {Support: platform.Replace, Unreported: true},
		platform.AttrSandboxMountReadOnly:   {Support: platform.Replace, Unreported: true},
		platform.AttrTemplateImage:          {Support: platform.Replace, Unreported: true},
		platform.AttrTemplateDockerfile:     {Support: platform.Replace, Unreported: true},
		platform.AttrTemplateFromTemplate:   {Support: platform.Replace, Unreported: true},
		platform.AttrSandboxMemorySnapshots: {Support: platform.Replace},
	})
	return c
}
func (p *unreportedImportPlat) Close() error                        { return nil }
func (p *unreportedImportPlat) Templates() platform.TemplateService { return p.tpls }
func (p *unreportedImportPlat) Volumes() platform.VolumeService     { return &sandboxFakeVolumes{} }
func (p *unreportedImportPlat) Sandboxes() platform.SandboxService  { return p.boxes }
func (p *unreportedImportPlat) Snapshots() platform.SnapshotService { return nil }
func (p *unreportedImportPlat) Extensions() platform.Extensions     { return platform.Extensions{} }

// unreportedImportTemplates holds templates by id and reports only their
// id, build and status; it counts the builds it is asked for.
type unreportedImportTemplates struct {
	mu     sync.Mutex
	ids    map[string]bool
	builds int
}

func (f *unreportedImportTemplates) template(id string) *platform.Template {
	return &platform.Template{ID: id, BuildID: "build-" + id, Status: "ready", CreatedAt: time.Unix(0, 0).UTC(), Labels: map[string]string{}}
}

func (f *unreportedImportTemplates) Create(_ context.Context, spec platform.TemplateSpec) (*platform.Template, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.builds++
	id := fmt.Sprintf("im-%d", f.builds)
	f.ids[id] = true
	return f.template(id), nil
}

func (f *unreportedImportTemplates) Rebuild(_ context.Context, id string, _ platform.TemplateSpec) (*platform.Template, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.builds++
	return f.template(id), nil
}

func (f *unreportedImportTemplates) Get(_ context.Context, id string) (*platform.Template, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.ids[id] {
		return nil, &platform.NotFoundError{Kind: "template", ID: id}
	}
	return f.template(id), nil
}

func (f *unreportedImportTemplates) List(context.Context, platform.TemplateFilter) ([]platform.Template, error) {
	return nil, nil
}

func (f *unreportedImportTemplates) Delete(_ context.Context, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.ids, id)
	return nil
}

// builtCount is how many builds were asked for.
func (f *unreportedImportTemplates) builtCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.builds
}

// TestUnreportedImportTakesConfiguration: the first plan after an import block takes the
// unreported values from the configuration (an update in place, not a
// replacement) and its apply calls no build or platform update; the next
// plan is empty, and a change after that replaces as usual.
func TestUnreportedImportTakesConfiguration(t *testing.T) {
	acctest.RequireTerraform(t)
	const importBox = "import {\n  to = sbx_sandbox.s\n  id = \"box1\"\n}\n"
	const importTpl = "import {\n  to = sbx_template.t\n  id = \"im-old\"\n}\n"
	box := func(path string) string {
		return fmt.Sprintf("resource \"sbx_sandbox\" \"s\" {\n  name = \"box\"\n  template_id = \"tpl\"\n"+
			"  volume_mount {\n    volume_id = \"vol1\"\n    path = %q\n  }\n}\n", path)
	}
	tpl := func(body string) string {
		return "resource \"sbx_template\" \"t\" {\n  name = \"agent\"\n" + body + "}\n"
	}
	tests := []struct {
		name           string
		addr           string
		imported, next string
		builds         int // by the replacement
	}{
		{"sandbox volume_mount", "sbx_sandbox.s", importBox + box("/data"), box("/other"), 0},
		{"template image and name", "sbx_template.t", importTpl + tpl("  image = \"reg/agent:1\"\n"), tpl("  image = \"reg/agent:2\"\n"), 1},
		{"template dockerfile", "sbx_template.t", importTpl + tpl("  dockerfile = \"FROM alpine\\n\"\n"),
			tpl("  dockerfile = \"FROM alpine\\nRUN true\\n\"\n"), 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			boxes := &sandboxFakeBoxes{box: &platform.Sandbox{ID: "box1", Name: "box", TemplateID: "tpl",
				Status: platform.StateRunning, PlatformStatus: "running", Labels: map[string]string{}}}
			tpls := &unreportedImportTemplates{ids: map[string]bool{"im-old": true}}
			plat := &unreportedImportPlat{boxes: boxes, tpls: tpls}
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: dataSourceFakeFactories(plat, time.Time{}),
				Steps: []resource.TestStep{
					{
						Config: tc.imported,
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(tc.addr, plancheck.ResourceActionUpdate)},
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
						},
						Check: func(*terraform.State) error {
							if n := len(boxes.updates); n != 0 || boxes.gotSpec.Name != "" || tpls.builtCount() != 0 {
								return fmt.Errorf("the apply reached the platform: %d box updates, box create %q, %d builds",
									n, boxes.gotSpec.Name, tpls.builtCount())
							}
							return nil
						},
					},
					{
						Config: tc.next,
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(tc.addr, plancheck.ResourceActionDestroyBeforeCreate)},
						},
						Check: func(*terraform.State) error {
							if got := tpls.builtCount(); got != tc.builds {
								return fmt.Errorf("%d builds, want %d", got, tc.builds)
							}
							return nil
						},
					},
				},
			})
		})
	}
}

// TestUnreportedImportNothingToTake: an import whose configuration sets
// none of what the platform does not report plans a pure import.
func TestUnreportedImportNothingToTake(t *testing.T) {
	acctest.RequireTerraform(t)
	boxes := &sandboxFakeBoxes{box: &platform.Sandbox{ID: "box1", Name: "box", TemplateID: "tpl",
		Status: platform.StateRunning, PlatformStatus: "running", Labels: map[string]string{}}}
	plat := &unreportedImportPlat{boxes: boxes, tpls: &unreportedImportTemplates{ids: map[string]bool{}}}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dataSourceFakeFactories(plat, time.Time{}),
		Steps: []resource.TestStep{{
			Config: "import {\n  to = sbx_sandbox.s\n  id = \"box1\"\n}\n" +
				"resource \"sbx_sandbox\" \"s\" {\n  name = \"box\"\n  template_id = \"tpl\"\n}\n",
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction("sbx_sandbox.s", plancheck.ResourceActionNoop)},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
		}},
	})
}
