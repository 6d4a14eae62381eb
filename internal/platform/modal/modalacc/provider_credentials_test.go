package modalacc_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// A modal block with no credentials anywhere (none in the block or the
// environment, and the SDK's config file absent: modalfake.RunTests points
// MODAL_CONFIG_PATH at a file that does not exist) fails the plan of a
// template, which reads nothing from Modal, saying where credentials go.
func TestAccModalNoCredentialsRefusedAtPlan(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	ws := modalFake.NewWorkspace(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: modalFactories(ws),
		Steps: []resource.TestStep{{
			Config:      "provider \"sbx\" {\n  modal {}\n}\n" + modalTemplateHCL("no-credentials-tpl"),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`No Modal credentials(.|\n)*Set token_id and token_secret in the modal block`),
		}},
	})
}
