package provider

import (
	"strings"
	"testing"

	sdkacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// TestAccSandbox_envWOPlainValueHidden: a value of env_wo from a plain
// variable, neither sensitive nor ephemeral, never shows: the CLI prints
// the attribute as "(write-only attribute)" in the plan.
func TestAccSandbox_envWOPlainValueHidden(t *testing.T) {
	acctest.RequireDocker(t)
	t.Parallel()
	name := sdkacctest.RandomWithPrefix("tf-acc-envwo-plain")
	secret := acctest.Secret()
	s := acctest.NewOtherState(t, New("test"))
	s.WriteFile("main.tf", sandboxAccTemplateHCL(t, name)+`
variable "token" {
  type = string
}

resource "sbx_sandbox" "test" {
  name           = "`+name+`"
  template_id    = sbx_template.t.id
  env_wo         = { API_TOKEN = var.token }
  env_wo_version = 1
}
`)
	out := s.MustRun("plan", "-input=false", "-no-color", "-var", "token="+secret)
	if strings.Contains(out, secret) {
		t.Fatalf("the plan shows env_wo's value:\n%s", out)
	}
	if !strings.Contains(out, "env_wo") || !strings.Contains(out, "(write-only attribute)") {
		t.Fatalf("the plan does not show env_wo as a write-only attribute:\n%s", out)
	}
}
