package e2bacc_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// e2bAccTemplate is a template built from dockerfile with dir as its context.
func e2bAccTemplate(providerConfig, dir, dockerfile string) string {
	return providerConfig + fmt.Sprintf(`
resource "sbx_template" "t" {
  name        = "layered"
  dockerfile  = %q
  context_dir = %q
}
`, dockerfile, dir)
}

func e2bAccWrite(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// e2bAccNoTemplates checks the fake holds no template: nothing orphaned.
func e2bAccNoTemplates(fake *e2bfake.Server) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if ts := fake.Templates(); len(ts) != 0 {
			return fmt.Errorf("the fake still holds %d templates: %+v", len(ts), ts)
		}
		return nil
	}
}

// e2bAccLayerUploads checks the one template's builds and uploads: its
// newest build is ready, there are builds of them, and each COPY step's
// files hash of the newest build was uploaded as often as want says (by
// step order).
func e2bAccLayerUploads(fake *e2bfake.Server, id *string, builds int, want ...int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		ts := fake.Templates()
		if len(ts) != 1 {
			return fmt.Errorf("the fake holds %d templates, want 1", len(ts))
		}
		v := ts[0]
		got := s.RootModule().Resources["sbx_template.t"].Primary.ID
		if *id == "" {
			*id = got
		}
		if got != *id || v.ID != *id {
			return fmt.Errorf("template id %s (fake: %s), want it kept as %s", got, v.ID, *id)
		}
		if len(v.Builds) != builds || v.Builds[builds-1].Status != "ready" {
			return fmt.Errorf("builds = %+v, want %d, the newest ready", v.Builds, builds)
		}
		var i int
		for _, st := range v.Builds[builds-1].Steps {
			if st.Type != "COPY" {
				continue
			}
			if i >= len(want) || v.Uploads[st.FilesHash] != want[i] {
				return fmt.Errorf("COPY %v (hash %s) uploaded %d times; uploads %v, want %v", st.Args, st.FilesHash, v.Uploads[st.FilesHash], v.Uploads, want)
			}
			i++
		}
		if i != len(want) {
			return fmt.Errorf("%d COPY steps, want %d", i, len(want))
		}
		return nil
	}
}

// A template with two COPY steps of different files: when one file
// changes, the template is rebuilt in place (same id) and only the layer
// of the step that copies it is uploaded; the other is already on E2B.
func TestAccE2BTemplateLayerRebuild(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := e2bAccFake(t, e2bfake.Options{})
	dir := t.TempDir()
	e2bAccWrite(t, dir, map[string]string{"bin/agent": "#!/bin/sh\necho v1\n", "etc/agent.conf": "mode=1\n"})
	const dockerfile = "FROM alpine:3.20\nCOPY bin/agent /usr/local/bin/agent\nCOPY etc/agent.conf /etc/agent.conf\n"
	config := e2bAccTemplate(cfg, dir, dockerfile)
	var id string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		CheckDestroy:             e2bAccNoTemplates(fake),
		Steps: []resource.TestStep{
			{Config: config, Check: e2bAccLayerUploads(fake, &id, 1, 1, 1)},
			{
				PreConfig: func() { e2bAccWrite(t, dir, map[string]string{"etc/agent.conf": "mode=2\n"}) },
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("sbx_template.t", plancheck.ResourceActionUpdate),
				}},
				// The agent's layer was uploaded once (by the first build);
				// the changed conf's layer once, now.
				Check: e2bAccLayerUploads(fake, &id, 2, 1, 1),
			},
			{
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// A first build that fails leaves the template in state, tainted (not an
// orphan holding the name): the error names the template once, the
// failing step and the last log lines; fixing the Dockerfile replaces it,
// and destroy leaves nothing on E2B.
func TestAccE2BTemplateFailedBuildTainted(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := e2bAccFake(t, e2bfake.Options{})
	dir := t.TempDir()
	e2bAccWrite(t, dir, map[string]string{"agent": "#!/bin/sh\n"})
	broken := e2bAccTemplate(cfg, dir, "FROM alpine:3.20\nCOPY agent /usr/local/bin/agent\nRUN false\n")
	fixed := e2bAccTemplate(cfg, dir, "FROM alpine:3.20\nCOPY agent /usr/local/bin/agent\nRUN true\n")
	var failedID string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		CheckDestroy:             e2bAccNoTemplates(fake),
		Steps: []resource.TestStep{
			{
				Config: broken,
				ExpectError: regexp.MustCompile(`(?s)template "layered": build \S+ failed at\s+step\s+4\s+\(RUN\s+false\):\s+failed\s+to\s+run\s+command\s+'false':\s+exit\s+status\s+1.*` +
					`Last\s+lines\s+of\s+the\s+build\s+log:.*Step\s+4/6:\s+RUN\s+false`),
			},
			{
				// The failed template is in state, tainted: the plan replaces it.
				Config: fixed,
				PreConfig: func() {
					ts := fake.Templates()
					if len(ts) != 1 || ts[0].Builds[0].Status != "error" {
						t.Fatalf("after the failed build the fake holds %+v, want one template whose build failed", ts)
					}
					failedID = ts[0].ID
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("sbx_template.t", plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: func(s *terraform.State) error {
					ts := fake.Templates()
					if len(ts) != 1 || ts[0].ID == failedID || ts[0].Builds[0].Status != "ready" {
						return fmt.Errorf("the fake holds %+v, want only a new, ready template (the failed %s deleted)", ts, failedID)
					}
					if got := s.RootModule().Resources["sbx_template.t"].Primary.ID; got != ts[0].ID {
						return fmt.Errorf("state holds %s, want %s", got, ts[0].ID)
					}
					return nil
				},
			},
		},
	})
}
