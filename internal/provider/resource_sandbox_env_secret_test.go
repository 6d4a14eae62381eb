package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	sdkacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// TestAccSandbox_envValueSecretNeverShown: an env value holding a NUL (which
// the engine refused at start, quoting NAME=value whole) is a plan-time
// error on env["API_TOKEN"] that names the variable; the value appears
// nowhere in terraform's output nor in the trace log of terraform and the
// provider.
func TestAccSandbox_envValueSecretNeverShown(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-sandbox-envsecret")
	secret := acctest.Secret()
	logPath := acctest.TraceLog(t)
	cfg := sandboxAccTemplateHCL(t, name) + fmt.Sprintf(`
variable "token" {
  type = string
}

resource "sbx_sandbox" "test" {
  name        = %q
  template_id = sbx_template.t.id
  env         = { API_TOKEN = var.token, PLAIN = "x" }
}
`, name)
	vars := config.Variables{"token": config.StringVariable(secret + "\x00tail")}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy:             sandboxAccCheckDestroy(t, name),
		Steps: []resource.TestStep{
			{
				Config:          cfg,
				ConfigVariables: vars,
				ExpectError: acctest.ErrorPattern(`(?s)Invalid environment variable value .*` +
					`The value of env\["API_TOKEN"\] contains a NUL character`),
			},
			{
				// The same error again, now matched against "any text
				// that does not contain the secret".
				Config:          cfg,
				ConfigVariables: vars,
				ExpectError:     acctest.Without(secret),
			},
		},
	})
	acctest.CheckTraceLog(t, logPath, secret, `Invalid environment variable value`, `API_TOKEN`)
}
