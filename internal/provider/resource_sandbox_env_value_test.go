package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestSandboxEnvValueValidator: an env value no Linux process can be given
// (a NUL, or NAME=value past the kernel's limit for one variable) is an
// error at env["NAME"] naming the variable and never the value; unknown
// values wait for apply.
func TestSandboxEnvValueValidator(t *testing.T) {
	const secret = "s3cr3t-value"
	limit := strings.Repeat("v", sandboxEnvMaxEntry-len("API_TOKEN="))
	tests := []struct {
		name, value, want string
	}{
		{"plain", secret, ""},
		{"empty", "", ""},
		{"NUL", secret + "\x00" + secret, `The value of env["API_TOKEN"] contains a NUL character`},
		{"at the limit", limit, ""},
		{"past the limit", limit + "v", `The value of env["API_TOKEN"] is 131062 bytes long; with its name that is more than the 131071 bytes`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := validator.MapRequest{Path: path.Root("env"), ConfigValue: sandboxTestMap("API_TOKEN", tt.value, "OTHER", "fine")}
			var resp validator.MapResponse
			sandboxEnvKeysValidator{}.ValidateMap(context.Background(), req, &resp)
			if tt.want == "" {
				if resp.Diagnostics.HasError() {
					t.Fatalf("want no error, got %v", resp.Diagnostics)
				}
				return
			}
			if resp.Diagnostics.ErrorsCount() != 1 {
				t.Fatalf("want one error, got %v", resp.Diagnostics)
			}
			d := resp.Diagnostics.Errors()[0]
			if !strings.Contains(d.Detail(), tt.want) {
				t.Errorf("detail %q, want %q", d.Detail(), tt.want)
			}
			if strings.Contains(d.Summary()+d.Detail(), secret) || strings.Contains(d.Detail(), "vvvv") {
				t.Errorf("the error shows the env value: %s", d.Detail())
			}
			withPath, ok := d.(diag.DiagnosticWithPath)
			if !ok || !withPath.Path().Equal(path.Root("env").AtMapKey("API_TOKEN")) {
				t.Errorf("the error is not on env[\"API_TOKEN\"]: %v", d)
			}
		})
	}
	unknown := types.MapValueMust(types.StringType, map[string]attr.Value{"API_TOKEN": types.StringUnknown()})
	var resp validator.MapResponse
	sandboxEnvKeysValidator{}.ValidateMap(context.Background(), validator.MapRequest{Path: path.Root("env"), ConfigValue: unknown}, &resp)
	if resp.Diagnostics.HasError() {
		t.Errorf("an unknown value: want no error, got %v", resp.Diagnostics)
	}
}
