package e2bacc_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// e2bEnvWOBox is a template and one box on the E2B fake; body is what the
// box sets besides its template and timeout. var.token is ephemeral.
func e2bEnvWOBox(providerConfig, body string) string {
	return providerConfig + fmt.Sprintf(`
variable "token" {
  type      = string
  ephemeral = true
}

resource "sbx_template" "t" {
  name       = "envwo"
  dockerfile = "FROM alpine:3.20\nRUN echo ok\n"
}

resource "sbx_sandbox" "b" {
  template_id = sbx_template.t.id
  timeout     = "10m"
%s
}
`, body)
}

// TestAccE2BSandbox_envWOPlanErrors: a variable in both env and env_wo,
// and env_wo without env_wo_version (or the reverse), fail the plan; the
// error names the variable, never a value; nothing is created.
func TestAccE2BSandbox_envWOPlanErrors(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := e2bAccFake(t, e2bfake.Options{})
	secret := acctest.Secret()
	logPath := acctest.TraceLog(t)
	vars := config.Variables{"token": config.StringVariable(secret)}
	both := e2bEnvWOBox(cfg, `  env            = { API_TOKEN = "plain-value", PLAIN = "x" }
  env_wo         = { API_TOKEN = var.token }
  env_wo_version = 1`)
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		ProtoV6ProviderFactories: accFactories,
		Steps: []resource.TestStep{
			{
				Config: both, ConfigVariables: vars, PlanOnly: true,
				ExpectError: acctest.ErrorPattern(`(?s)Environment variable in both env and env_wo.*` +
					`The variable "API_TOKEN" is set in both env and env_wo`),
			},
			{Config: both, ConfigVariables: vars, PlanOnly: true, ExpectError: acctest.Without(secret)},
			{
				Config:          e2bEnvWOBox(cfg, `  env_wo = { API_TOKEN = var.token }`),
				ConfigVariables: vars, PlanOnly: true,
				ExpectError: acctest.ErrorPattern(`(?s)env_wo needs env_wo_version.*set env_wo_version`),
			},
			{
				Config:          e2bEnvWOBox(cfg, `  env_wo_version = 1`),
				ConfigVariables: vars, PlanOnly: true,
				ExpectError: acctest.ErrorPattern(`(?s)env_wo_version without env_wo.*versions nothing`),
			},
		},
	})
	if n := len(fake.Sandboxes()); n != 0 {
		t.Errorf("the fake holds %d sandboxes, want none", n)
	}
	acctest.CheckTraceLog(t, logPath, secret, `Environment variable in both env and env_wo`)
}

// TestAccE2BSandbox_envWOEchoedInError: an E2B answer that refuses the
// create by echoing its request, env_wo's value and all, gives an error
// naming the variable with its value masked, in terraform's output and in
// the trace log; nothing is created.
func TestAccE2BSandbox_envWOEchoedInError(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := e2bAccFake(t, e2bfake.Options{})
	secret := acctest.Secret()
	logPath := acctest.TraceLog(t)
	target, err := url.Parse(fake.URL())
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/sandboxes" {
			proxy.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(map[string]any{"code": 400, "message": "invalid envVars in request " + string(body)})
	}))
	t.Cleanup(echo.Close)
	cfg = strings.Replace(cfg, fake.URL(), echo.URL, 1)
	step := func(expect *regexp.Regexp) resource.TestStep {
		return resource.TestStep{
			Config: e2bEnvWOBox(cfg, `  env_wo         = { API_TOKEN = var.token }
  env_wo_version = 1`),
			ConfigVariables: config.Variables{"token": config.StringVariable(secret)},
			ExpectError:     expect,
		}
	}
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		ProtoV6ProviderFactories: accFactories,
		Steps: []resource.TestStep{
			step(acctest.ErrorPattern(`(?s)Failed to create sandbox .*POST /sandboxes: 400 Bad Request: invalid envVars in request .*"API_TOKEN":"\*\*\*"`)),
			step(acctest.Without(secret)),
		},
	})
	if n := len(fake.Sandboxes()); n != 0 {
		t.Errorf("the fake holds %d sandboxes, want none", n)
	}
	acctest.CheckTraceLog(t, logPath, secret, `invalid envVars in request`, `API_TOKEN`)
}
