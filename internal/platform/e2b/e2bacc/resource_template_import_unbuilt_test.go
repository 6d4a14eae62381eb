package e2bacc_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
)

// TestAccE2BTemplateImportUnbuilt: a template whose build never finished
// (an apply killed while it built: the template requested, its build
// waiting or running) imported through an `import {}` block is built by
// the apply, and a box then starts from it. E2B keeps no record of the
// Dockerfile, which an import of a built template takes from the
// configuration; taken here, it would keep a template no box starts from
// (E2B: 404 "tag 'default' does not exist").
func TestAccE2BTemplateImportUnbuilt(t *testing.T) {
	for _, started := range []bool{false, true} {
		t.Run(map[bool]string{false: "build waiting", true: "build running"}[started], func(t *testing.T) {
			fake, providerConfig := e2bAccFake(t, e2bfake.Options{})
			hdr := http.Header{"X-Api-Key": {e2bAccKey}}
			var made struct {
				TemplateID string `json:"templateID"`
				BuildID    string `json:"buildID"`
			}
			platformtest.PostJSON(t, fake.URL()+"/v3/templates", hdr, map[string]any{"name": "unbuilt", "cpuCount": 2, "memoryMB": 512}, &made)
			if started {
				e2bAccStartBuild(t, fake.URL()+"/v2/templates/"+made.TemplateID+"/builds/"+made.BuildID, hdr)
			}
			cfg := providerConfig + fmt.Sprintf(`
import {
  to = sbx_template.t
  id = %q
}

resource "sbx_template" "t" {
  name        = "unbuilt"
  dockerfile  = "FROM alpine:3.20\nCOPY agent /usr/local/bin/agent\n"
  context_dir = %q
  cpu_count   = 2
  memory_mb   = 512
}

resource "sbx_sandbox" "s" {
  template_id = sbx_template.t.id
}
`, made.TemplateID, acctest.AgentContextDir(t))
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: accFactories,
				Steps: []resource.TestStep{{
					Config: cfg,
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply:             []plancheck.PlanCheck{plancheck.ExpectUnknownValue("sbx_template.t", tfjsonpath.New("build_id"))},
						PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					},
					Check: resource.ComposeAggregateTestCheckFunc(
						resource.TestCheckResourceAttr("sbx_template.t", "id", made.TemplateID),
						resource.TestCheckResourceAttr("sbx_template.t", "status", "ready"),
						resource.TestCheckResourceAttr("sbx_sandbox.s", "status", "running"),
					),
				}},
			})
		})
	}
}

// e2bAccStartBuild starts a build as another client would
// (TemplateBuildStartV2), without waiting for it.
func e2bAccStartBuild(t *testing.T, url string, hdr http.Header) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(`{"fromImage":"alpine:3.20","steps":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = hdr.Clone()
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("starting build: %s", resp.Status)
	}
}
