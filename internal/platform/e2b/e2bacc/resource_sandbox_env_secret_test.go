package e2bacc_test

import (
	"encoding/json"
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

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// TestAccE2BSandbox_envSecretEchoedInError: an E2B answer that refuses a
// create by echoing the request (env values and all) gives an error that
// names the variable and masks its value, in terraform's output and in the
// trace log.
func TestAccE2BSandbox_envSecretEchoedInError(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := e2bAccFake(t, e2bfake.Options{})
	secret := acctest.Secret()
	logPath := acctest.TraceLog(t)

	// In front of the fake: POST /sandboxes is refused with the request
	// quoted back, as a validating API may do; the rest is the fake's.
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
		_ = json.NewEncoder(w).Encode(map[string]any{
			"code": 400, "message": "invalid envVars in request " + string(body),
		})
	}))
	t.Cleanup(echo.Close)
	cfg = strings.Replace(cfg, fake.URL(), echo.URL, 1)

	step := func(expect *regexp.Regexp) resource.TestStep {
		return resource.TestStep{
			Config: cfg + `
variable "token" {
  type = string
}

resource "sbx_template" "t" {
  name       = "envsecret"
  dockerfile = "FROM alpine:3.20\nRUN echo ok\n"
}

resource "sbx_sandbox" "s" {
  template_id = sbx_template.t.id
  timeout     = "10m"
  env         = { API_TOKEN = var.token }
}
`,
			ConfigVariables: config.Variables{"token": config.StringVariable(secret)},
			ExpectError:     expect,
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		Steps: []resource.TestStep{
			step(acctest.ErrorPattern(`(?s)Failed to create sandbox .*POST /sandboxes: 400 Bad Request: invalid envVars in request .*"API_TOKEN":"\*\*\*"`)),
			step(acctest.Without(secret)),
		},
	})
	acctest.CheckTraceLog(t, logPath, secret, `invalid envVars in request`, `API_TOKEN`)
}
