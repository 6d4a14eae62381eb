package e2bacc_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/provider"
)

// ownershipE2BBox is a template and one named box whose env is mark, made
// before it is destroyed when replaced.
func ownershipE2BBox(providerConfig, mark string) string {
	return providerConfig + fmt.Sprintf(`
resource "sbx_template" "t" {
  name       = "cbd"
  dockerfile = "FROM alpine:3.20\nRUN echo ok\n"
}

resource "sbx_sandbox" "s" {
  name        = "agent"
  template_id = sbx_template.t.id
  timeout     = "10m"
  env         = { MARK = %q }
  lifecycle {
    create_before_destroy = true
  }
}
`, mark)
}

// E2B lets two boxes share a name, so a create_before_destroy replacement
// of a named box works: the new box is made beside the old one (never
// taken over by name), the old one is destroyed, and the state holds the
// live box.
func TestAccOwnershipE2B_createBeforeDestroyNamedBox(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := e2bAccFake(t, e2bfake.Options{})
	var oldID string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		Steps: []resource.TestStep{{
			Config: ownershipE2BBox(cfg, "one"),
			Check: func(s *terraform.State) (err error) {
				oldID, err = acctest.ResourceID(s, "sbx_sandbox.s")
				return err
			},
		}, {
			Config: ownershipE2BBox(cfg, "two"),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("sbx_sandbox.s", plancheck.ResourceActionCreateBeforeDestroy)},
			},
			Check: resource.ComposeTestCheckFunc(
				e2bAccBoxCount(fake, 1),
				func(s *terraform.State) error {
					id, err := acctest.ResourceID(s, "sbx_sandbox.s")
					if err != nil {
						return err
					}
					if id == oldID {
						return fmt.Errorf("the state still holds the old box %s", id)
					}
					v, ok := fake.Sandbox(id)
					if !ok || v.State != "running" {
						return fmt.Errorf("the box in state (%s) is not live on E2B: %+v", id, v)
					}
					if _, ok := fake.Sandbox(oldID); ok {
						return fmt.Errorf("the old box %s was not destroyed", oldID)
					}
					return nil
				},
			),
		}},
		CheckDestroy: e2bAccBoxCount(fake, 0),
	})
}

// An E2B template another state manages is never taken over by a second
// configuration of the same name (E2B would add the build to it): the
// create fails naming the template and the import command, and the first
// state's template keeps its one build.
func TestAccOwnershipE2B_templateOfAnotherState(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := e2bAccFake(t, e2bfake.Options{})
	hcl := cfg + `
resource "sbx_template" "t" {
  name       = "team-base"
  dockerfile = "FROM alpine:3.20\nRUN echo ok\n"
}
`
	first := acctest.NewOtherState(t, provider.New("test"))
	first.Apply(hcl)
	id := first.Attr("sbx_template.t", "id")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		Steps: []resource.TestStep{{
			Config:      hcl,
			ExpectError: acctest.ErrorPattern(fmt.Sprintf(`(?s)a template named "team-base" already exists and this create did not make it.*terraform import <this resource's address> %s`, id)),
		}},
		CheckDestroy: func(*terraform.State) error {
			views := fake.Templates()
			if len(views) != 1 || views[0].ID != id || len(views[0].Builds) != 1 {
				return fmt.Errorf("templates on E2B = %+v, want the first state's %s with its one build", views, id)
			}
			return nil
		},
	})
}

// On E2B a snapshot name identifies one snapshot (a second snapshot of the
// name would become a build of the first). Two sbx_snapshot of one
// configuration with the same name both passed the create-time check when
// they were created in one apply; they are a plan-time error, and nothing
// is snapshotted. On Docker, where names need not be unique, the same
// configuration is fine (the TestAccSnapshot tests of internal/provider
// take several snapshots).
func TestAccOwnershipE2B_duplicateSnapshotNames(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := e2bAccFake(t, e2bfake.Options{})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		Steps: []resource.TestStep{{
			Config: cfg + `
resource "sbx_template" "t" {
  name       = "snapnames"
  dockerfile = "FROM alpine:3.20\nRUN echo ok\n"
}

resource "sbx_sandbox" "s" {
  count       = 2
  template_id = sbx_template.t.id
  timeout     = "10m"
}

resource "sbx_snapshot" "s" {
  count      = 2
  sandbox_id = sbx_sandbox.s[count.index].id
  name       = "nightly"
}
`,
			ExpectError: acctest.ErrorPattern(`Another sbx_snapshot in this configuration also has name = "nightly"`),
		}},
		CheckDestroy: func(*terraform.State) error {
			if n := fake.Requests("POST /sandboxes/{sandboxID}/snapshots"); n != 0 {
				return fmt.Errorf("%d snapshot creates were sent; the duplicate names were not stopped at plan time", n)
			}
			return nil
		},
	})
}
