package provider

import (
	"fmt"
	"regexp"
	"testing"

	sdkacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// TestAccSandbox_sourceOfAnotherKind: on Docker a template's and a
// snapshot's ids both name images, and the engine starts a container from
// either. A template_id naming a snapshot, or a from_snapshot_id naming a
// template, fails the apply saying what the object is and which attribute
// takes it, and no container is made.
func TestAccSandbox_sourceOfAnotherKind(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-source")
	base := sandboxAccConfig(t, name, "running", "") + `
resource "sbx_snapshot" "s" {
  sandbox_id = sbx_sandbox.test.id
}
`
	wrong := func(body string) string {
		return base + fmt.Sprintf(`
resource "sbx_sandbox" "wrong" {
  name  = %q
  state = "stopped"
%s
}
`, name+"-wrong", body)
	}
	noWrongBox := func(*terraform.State) error {
		return sandboxAccCheckDestroy(t, name+"-wrong")(nil)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy:             resource.ComposeAggregateTestCheckFunc(sandboxAccCheckDestroy(t, name), noWrongBox),
		Steps: []resource.TestStep{
			{Config: base},
			{
				Config:      wrong("  template_id = sbx_snapshot.s.id"),
				ExpectError: acctest.ErrorPattern(`template_id names image sha256:[0-9a-f]+, a snapshot of a sandbox made by this provider, not a template; to start a box from it, set from_snapshot_id instead`),
			},
			{
				Config:      wrong("  from_snapshot_id = sbx_template.t.id"),
				ExpectError: acctest.ErrorPattern(`from_snapshot_id: "sha256:[0-9a-f]+" is not a snapshot made by this provider: it is image sha256:[0-9a-f]+ \(tagged sbx/` + regexp.QuoteMeta(name) + `:latest\) of template "` + regexp.QuoteMeta(name) + `"; to start a box from it, set template_id instead`),
			},
			{Config: base, Check: noWrongBox},
		},
	})
}
