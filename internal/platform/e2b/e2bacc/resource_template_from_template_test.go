package e2bacc_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// e2bAccFromTemplate: two base templates and one built on base (a or b).
func e2bAccFromTemplate(cfg, base string) string {
	return cfg + fmt.Sprintf(`
resource "sbx_template" "a" {
  name       = "base-a"
  dockerfile = "FROM python:3.12\nRUN pip install requests\n"
}

resource "sbx_template" "b" {
  name       = "base-b"
  dockerfile = "FROM node:22\nRUN npm install -g tsx\n"
}

resource "sbx_template" "derived" {
  name          = "derived"
  from_template = sbx_template.%s.id
  dockerfile    = "RUN echo derived > /etc/derived\nENV MODE=derived\n"
}
`, base)
}

// e2bAccDerivedBuiltOn checks the derived template's newest build on the
// fake: ready, from the base's template id (no image), and the builds the
// derived template has had; it records the derived id and keeps it.
func e2bAccDerivedBuiltOn(fake *e2bfake.Server, base string, id *string, builds int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		res := s.RootModule().Resources
		derivedID, baseID := res["sbx_template.derived"].Primary.ID, res["sbx_template."+base].Primary.ID
		if *id == "" {
			*id = derivedID
		}
		if derivedID != *id {
			return fmt.Errorf("derived template id %s, want it kept as %s", derivedID, *id)
		}
		for _, v := range fake.Templates() {
			if v.ID != derivedID {
				continue
			}
			if len(v.Builds) != builds {
				return fmt.Errorf("derived template has %d builds, want %d: %+v", len(v.Builds), builds, v.Builds)
			}
			b := v.Builds[builds-1]
			if b.Status != "ready" || b.FromTemplate != baseID || b.FromImage != "" {
				return fmt.Errorf("derived build = %+v, want ready from template %s", b, baseID)
			}
			return nil
		}
		return fmt.Errorf("the fake holds no template %s", derivedID)
	}
}

// A template built on another: the build is fromTemplate (the base's id)
// with the Dockerfile's steps; moving it to another base is a rebuild in
// place (same id) and the plan after is empty. A FROM line is refused at
// plan time naming it; a base that does not exist fails the build as E2B
// does, at its "base" step.
func TestAccE2BTemplateFromTemplate(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := e2bAccFake(t, e2bfake.Options{})
	var id string
	empty := resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		CheckDestroy:             e2bAccNoTemplates(fake),
		Steps: []resource.TestStep{
			{
				Config: cfg + `
resource "sbx_template" "derived" {
  name          = "derived"
  from_template = "tpl-base"
  dockerfile    = "RUN true\nFROM alpine\n"
}
`,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)dockerfile\s+line\s+2\s+is\s+a\s+FROM\s+instruction`),
			},
			{Config: e2bAccFromTemplate(cfg, "a"), Check: e2bAccDerivedBuiltOn(fake, "a", &id, 1)},
			{Config: e2bAccFromTemplate(cfg, "a"), ConfigPlanChecks: empty},
			{
				Config: e2bAccFromTemplate(cfg, "b"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("sbx_template.derived", plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction("sbx_template.a", plancheck.ResourceActionNoop),
					plancheck.ExpectResourceAction("sbx_template.b", plancheck.ResourceActionNoop),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					e2bAccDerivedBuiltOn(fake, "b", &id, 2),
					resource.TestCheckResourceAttrPair("sbx_template.derived", "from_template", "sbx_template.b", "id"),
				),
			},
			{Config: e2bAccFromTemplate(cfg, "b"), ConfigPlanChecks: empty},
		},
	})
}

// A base E2B does not hold fails the build at its "base" step, in E2B's
// words; the template is saved tainted, and destroy leaves nothing.
func TestAccE2BTemplateFromMissingTemplate(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := e2bAccFake(t, e2bfake.Options{})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		CheckDestroy:             e2bAccNoTemplates(fake),
		Steps: []resource.TestStep{{
			Config: cfg + `
resource "sbx_template" "derived" {
  name          = "derived"
  from_template = "no-such-template"
  dockerfile    = "RUN true\n"
}
`,
			ExpectError: regexp.MustCompile(`(?s)failed\s+at\s+step\s+base:\s+base\s+template\s+'no-such-template'\s+not\s+found`),
		}},
	})
}
