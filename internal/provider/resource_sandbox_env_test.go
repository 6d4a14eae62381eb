package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	sdkacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// TestSandboxEnvKeysValidator: an env name that is empty or holds "=" or
// NUL is a plan-time error on env naming the name, never the value.
func TestSandboxEnvKeysValidator(t *testing.T) {
	const secret = "s3cr3t-value"
	tests := []struct {
		name, key, want string
	}{
		{"plain name", "API_TOKEN", ""},
		{"lowercase and dots", "my.var", ""},
		{"empty name", "", `env has the name "", which is empty`},
		{"equals sign", "A=B", `env has the name "A=B", which contains "="`},
		{"NUL", "A\x00B", `env has the name "A\x00B", which contains a NUL character`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := validator.MapRequest{Path: path.Root("env"), ConfigValue: sandboxTestMap(tt.key, secret)}
			var resp validator.MapResponse
			sandboxEnvKeysValidator{}.ValidateMap(context.Background(), req, &resp)
			if tt.want == "" {
				if resp.Diagnostics.HasError() {
					t.Fatalf("want no error, got %v", resp.Diagnostics)
				}
				return
			}
			if resp.Diagnostics.ErrorsCount() != 1 || !strings.Contains(resp.Diagnostics.Errors()[0].Detail(), tt.want) {
				t.Fatalf("want one error containing %q, got %v", tt.want, resp.Diagnostics)
			}
			if d := resp.Diagnostics.Errors()[0]; strings.Contains(d.Summary()+d.Detail(), secret) {
				t.Errorf("the error shows the env value: %s", d.Detail())
			}
		})
	}
	for _, v := range []types.Map{types.MapNull(types.StringType), types.MapUnknown(types.StringType)} {
		var resp validator.MapResponse
		sandboxEnvKeysValidator{}.ValidateMap(context.Background(), validator.MapRequest{Path: path.Root("env"), ConfigValue: v}, &resp)
		if resp.Diagnostics.HasError() {
			t.Errorf("%s: want no error, got %v", v, resp.Diagnostics)
		}
	}

	var sresp resource.SchemaResponse
	NewSandboxResource().Schema(context.Background(), resource.SchemaRequest{}, &sresp)
	env, ok := sresp.Schema.Attributes["env"].(schema.MapAttribute)
	if !ok || len(env.Validators) != 1 {
		t.Fatalf("env must carry sandboxEnvKeysValidator, has %+v", sresp.Schema.Attributes["env"])
	}
	if _, ok := env.Validators[0].(sandboxEnvKeysValidator); !ok {
		t.Errorf("env validator is %T", env.Validators[0])
	}
}

// TestAccSandbox_envBadName: an empty env name fails the plan on env; the
// Docker engine would otherwise refuse it at apply with an error quoting
// the (sensitive) value. Nothing is created.
func TestAccSandbox_envBadName(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-sandbox-env")
	tfresource.Test(t, tfresource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		Steps: []tfresource.TestStep{{
			Config: fmt.Sprintf(`
resource "sbx_sandbox" "test" {
  name        = %q
  template_id = "sbx/none:latest"
  env         = { "" = "s3cr3t-value" }
}
`, name),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)Invalid environment variable name.*env has the name "", which is empty`),
		}},
	})
}
