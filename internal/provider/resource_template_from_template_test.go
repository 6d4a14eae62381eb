package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	sbxacctest "github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// templateTestFromTemplateConfig: two base templates (each the agent and a
// version.txt of its own, built from its own context) and one built on
// base (a or b) whose Dockerfile only copies a file in.
func templateTestFromTemplateConfig(prefix, dirA, dirB, dirDerived, base string) string {
	return fmt.Sprintf(`
resource "sbx_template" "a" {
  name        = "%[1]s-a"
  dockerfile  = file("%[2]s/Dockerfile")
  context_dir = %[2]q
}

resource "sbx_template" "b" {
  name        = "%[1]s-b"
  dockerfile  = file("%[3]s/Dockerfile")
  context_dir = %[3]q
}

resource "sbx_template" "derived" {
  name          = "%[1]s-derived"
  from_template = sbx_template.%[5]s.id
  dockerfile    = "COPY extra.txt /extra.txt\n"
  context_dir   = %[4]q
}
`, prefix, dirA, dirB, dirDerived, base)
}

// A template built on another on Docker: FROM the base's image with the
// Dockerfile's steps on top, its tag (id) known at plan time; moving it to
// another base is a rebuild in place (the tag moves), the plan after is
// empty, and an import reads from_template back from the image.
func TestAccTemplate_fromTemplate(t *testing.T) {
	cli := sbxacctest.DockerClient(t)
	prefix := acctest.RandomWithPrefix("tf-acc-from")
	dirA, dirB, dirDerived := templateTestContext(t), templateTestContext(t), t.TempDir()
	templateTestWrite(t, dirA, "version.txt", "base a")
	templateTestWrite(t, dirB, "version.txt", "base b")
	templateTestWrite(t, dirDerived, "extra.txt", "derived")
	derived := "sbx_template.derived"
	derivedID := "sbx/" + prefix + "-derived:latest"
	var firstBuild string
	config := func(base string) string {
		return templateTestFromTemplateConfig(prefix, dirA, dirB, dirDerived, base)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(
			templateTestCheckDestroy(cli, prefix+"-derived"),
			templateTestCheckDestroy(cli, prefix+"-a"),
			templateTestCheckDestroy(cli, prefix+"-b"),
		),
		Steps: []resource.TestStep{
			{
				Config: `
resource "sbx_template" "derived" {
  name          = "refused"
  from_template = "sbx/base:latest"
  dockerfile    = "# steps only\nFROM alpine\n"
}
`,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)dockerfile\s+line\s+2\s+is\s+a\s+FROM\s+instruction`),
			},
			{
				Config: `
resource "sbx_template" "derived" {
  name          = "refused"
  from_template = "sbx/base:latest"
  image         = "alpine:3.20"
}
`,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)from_template.*(dockerfile|image)`),
			},
			{
				Config: config("a"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(derived, "id", derivedID),
					resource.TestCheckResourceAttrPair(derived, "from_template", "sbx_template.a", "id"),
					templateTestImageHas(cli, derivedID, "/version.txt", "base a"),
					templateTestImageHas(cli, derivedID, "/extra.txt", "derived"),
					sbxacctest.CaptureAttr(derived, "build_id", &firstBuild),
				),
			},
			{
				Config: config("b"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(derived, plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction("sbx_template.a", plancheck.ResourceActionNoop),
						plancheck.ExpectResourceAction("sbx_template.b", plancheck.ResourceActionNoop),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(derived, "id", derivedID),
					resource.TestCheckResourceAttrPair(derived, "from_template", "sbx_template.b", "id"),
					resource.TestCheckResourceAttrWith(derived, "build_id", func(v string) error {
						if v == firstBuild {
							return fmt.Errorf("build_id %s did not change when the base changed", v)
						}
						return nil
					}),
					templateTestImageHas(cli, derivedID, "/version.txt", "base b"),
					templateTestImageHas(cli, derivedID, "/extra.txt", "derived"),
				),
			},
			{Config: config("b"), ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
			{
				// Docker records the base on the image: an import reads it back.
				ResourceName:            derived,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"dockerfile", "context_dir", "context_hash"},
			},
		},
	})
}
