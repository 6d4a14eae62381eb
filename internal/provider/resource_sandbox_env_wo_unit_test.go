package provider

import (
	"context"
	"maps"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// TestSandboxEnvWOSchema: env_wo is a sensitive, write-only map of strings
// (Sensitive as the first release's states record it,
// resource_sandbox_env_wo.go) checked as env is; env_wo_version an optional integer, as the
// *_wo_version attributes of HashiCorp's providers.
func TestSandboxEnvWOSchema(t *testing.T) {
	var resp resource.SchemaResponse
	NewSandboxResource().Schema(context.Background(), resource.SchemaRequest{}, &resp)
	wo, ok := resp.Schema.Attributes["env_wo"].(schema.MapAttribute)
	if !ok || !wo.WriteOnly || !wo.Sensitive || !wo.Optional || wo.Computed || !wo.ElementType.Equal(types.StringType) {
		t.Fatalf("env_wo must be an optional, sensitive, write-only map of strings: %+v", resp.Schema.Attributes["env_wo"])
	}
	if len(wo.Validators) != 1 {
		t.Fatalf("env_wo must carry sandboxEnvKeysValidator, has %d validators", len(wo.Validators))
	}
	if _, ok := wo.Validators[0].(sandboxEnvKeysValidator); !ok {
		t.Errorf("env_wo validator is %T", wo.Validators[0])
	}
	version, ok := resp.Schema.Attributes["env_wo_version"].(schema.Int64Attribute)
	if !ok || !version.Optional || version.Computed || version.WriteOnly {
		t.Fatalf("env_wo_version must be an optional, stored integer: %+v", resp.Schema.Attributes["env_wo_version"])
	}
	if !strings.Contains(wo.MarkdownDescription, "env_wo_version") {
		t.Errorf("env_wo's description does not say how a change is applied: %s", wo.MarkdownDescription)
	}
	// Each platform's row says how a new version is applied.
	for _, w := range []string{"a change replaces the sandbox", "changed in place"} {
		if !strings.Contains(version.MarkdownDescription, w) {
			t.Errorf("env_wo_version's description does not say %q: %s", w, version.MarkdownDescription)
		}
	}
}

// sandboxEnvWOTestConfig is a configuration of sbx_sandbox with env, env_wo
// and env_wo_version set as given (nil: null).
func sandboxEnvWOTestConfig(t *testing.T, env, wo map[string]string, version *int64) tfsdk.Config {
	t.Helper()
	var resp resource.SchemaResponse
	NewSandboxResource().Schema(context.Background(), resource.SchemaRequest{}, &resp)
	ctx := context.Background()
	tfMap := func(m map[string]string) types.Map {
		if m == nil {
			return types.MapNull(types.StringType)
		}
		v, _ := types.MapValueFrom(ctx, types.StringType, m)
		return v
	}
	// A null object cannot be written into; start from one of nulls. A
	// configuration has no setters: the values are written as a plan's.
	obj := map[string]tftypes.Value{}
	objType, ok := resp.Schema.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		t.Fatalf("schema type %T is not an object", resp.Schema.Type().TerraformType(ctx))
	}
	for name, typ := range objType.AttributeTypes {
		obj[name] = tftypes.NewValue(typ, nil)
	}
	p := tfsdk.Plan{Schema: resp.Schema, Raw: tftypes.NewValue(objType, obj)}
	var diags diag.Diagnostics
	diags.Append(p.SetAttribute(ctx, path.Root("env"), tfMap(env))...)
	diags.Append(p.SetAttribute(ctx, path.Root("env_wo"), tfMap(wo))...)
	v := types.Int64Null()
	if version != nil {
		v = types.Int64Value(*version)
	}
	diags.Append(p.SetAttribute(ctx, path.Root("env_wo_version"), v)...)
	if diags.HasError() {
		t.Fatalf("building the configuration: %v", diags)
	}
	cfg := tfsdk.Config{Schema: resp.Schema, Raw: p.Raw}
	return cfg
}

// TestSandboxEnvWOValidator: env_wo and env_wo_version come together; a
// name in both env and env_wo is an error on env_wo[name] naming it, never
// either value.
func TestSandboxEnvWOValidator(t *testing.T) {
	const secret, plain = "s3cr3t-wo-value", "plain-env-value"
	one := int64(1)
	tests := []struct {
		name      string
		env, wo   map[string]string
		version   *int64
		want      string
		wantPath  path.Path
		wantCount int
	}{
		{name: "none", wantCount: 0},
		{name: "env_wo with its version", env: map[string]string{"PLAIN": plain}, wo: map[string]string{"TOKEN": secret}, version: &one},
		{name: "env_wo alone", wo: map[string]string{"TOKEN": secret}, want: "env_wo needs env_wo_version",
			wantPath: path.Root("env_wo"), wantCount: 1},
		{name: "version alone", version: &one, want: "env_wo_version without env_wo", wantPath: path.Root("env_wo_version"), wantCount: 1},
		{name: "a name in both", env: map[string]string{"TOKEN": plain, "PLAIN": plain}, wo: map[string]string{"TOKEN": secret},
			version: &one, want: `The variable "TOKEN" is set in both env and env_wo`,
			wantPath: path.Root("env_wo").AtMapKey("TOKEN"), wantCount: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := resource.ValidateConfigRequest{Config: sandboxEnvWOTestConfig(t, tt.env, tt.wo, tt.version)}
			var resp resource.ValidateConfigResponse
			sandboxEnvWOValidator{}.ValidateResource(context.Background(), req, &resp)
			if got := resp.Diagnostics.ErrorsCount(); got != tt.wantCount {
				t.Fatalf("want %d errors, got %v", tt.wantCount, resp.Diagnostics)
			}
			if tt.wantCount == 0 {
				return
			}
			d := resp.Diagnostics.Errors()[0]
			if !strings.Contains(d.Summary()+" "+d.Detail(), tt.want) {
				t.Errorf("want %q, got %s: %s", tt.want, d.Summary(), d.Detail())
			}
			if strings.Contains(d.Summary()+d.Detail(), secret) || strings.Contains(d.Summary()+d.Detail(), plain) {
				t.Errorf("the error shows a value: %s", d.Detail())
			}
			if wp, ok := d.(diag.DiagnosticWithPath); !ok || !wp.Path().Equal(tt.wantPath) {
				t.Errorf("the error is not on %s: %v", tt.wantPath, d)
			}
		})
	}
}

// TestSandboxUpdateEnvWO: an in-place update sends env, with env_wo's
// variables, when env or env_wo_version changed, and only then; a version
// an import left unknown and the plan took from the configuration sends
// nothing.
func TestSandboxUpdateEnvWO(t *testing.T) {
	ctx := context.Background()
	wo := map[string]string{"TOKEN": "s3cr3t"}
	base := sandboxTestModel()
	base.Env = sandboxTestMap("PLAIN", "x")
	base.EnvWOVersion = types.Int64Value(1)
	bumped := base
	bumped.EnvWOVersion = types.Int64Value(2)
	imported := base
	imported.EnvWOVersion = types.Int64Null()
	tests := []struct {
		name        string
		plan, state sandboxModel
		envChanged  map[string]string // SandboxUpdate.Env from sandboxUpdateFrom (nil: none)
		taken       []string
		want        map[string]string // nil: no env sent
	}{
		{name: "nothing changed", plan: base, state: base},
		{name: "a new version", plan: bumped, state: base, want: map[string]string{"PLAIN": "x", "TOKEN": "s3cr3t"}},
		{name: "env changed", plan: base, state: base, envChanged: map[string]string{"PLAIN": "y"},
			want: map[string]string{"PLAIN": "y", "TOKEN": "s3cr3t"}},
		{name: "version taken after an import", plan: base, state: imported, taken: []string{platform.AttrSandboxEnvWOVersion}},
		{name: "version removed with env_wo", plan: sandboxTestModel(), state: base, want: map[string]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var change platform.SandboxUpdate
			if tt.envChanged != nil {
				env := maps.Clone(tt.envChanged)
				change.Env = &env
			}
			w := wo
			if tt.plan.EnvWOVersion.IsNull() {
				w = nil // env_wo is removed with its version
			}
			var diags diag.Diagnostics
			sent := sandboxUpdateEnvWO(ctx, &change, tt.plan, tt.state, tt.taken, w, &diags)
			if diags.HasError() {
				t.Fatal(diags)
			}
			if tt.want == nil {
				if sent || change.Env != nil {
					t.Fatalf("want no env sent, got sent=%v", sent)
				}
				return
			}
			if !sent || change.Env == nil || !maps.Equal(*change.Env, tt.want) {
				t.Fatalf("want env with the variables %v sent (sent=%v)", len(tt.want), sent)
			}
		})
	}
}

// TestSandboxEnvWOHeld: the variables of env_wo an imported box (or one
// whose variable moved from env to env_wo) holds with the same value leave
// state's env, so nothing is replaced or sent; the version is taken only
// when every one is held; a variable held with another value, or one env
// still sets, stays a change.
func TestSandboxEnvWOHeld(t *testing.T) {
	ctx := context.Background()
	env := func(kv map[string]string) types.Map {
		if kv == nil {
			return types.MapNull(types.StringType)
		}
		return mapToTF(kv, types.MapNull(types.StringType))
	}
	for _, tc := range []struct {
		name        string
		stateEnv    map[string]string
		stateVer    types.Int64
		planEnv     map[string]string
		wo          map[string]string
		wantEnv     map[string]string // nil: null
		wantVersion types.Int64
	}{
		{name: "imported: the secret leaves, the version is taken",
			stateEnv: map[string]string{"PLAIN": "x", "TOKEN": "s3"}, stateVer: types.Int64Null(),
			planEnv: map[string]string{"PLAIN": "x"}, wo: map[string]string{"TOKEN": "s3"},
			wantEnv: map[string]string{"PLAIN": "x"}, wantVersion: types.Int64Value(7)},
		{name: "imported, env_wo only: state's env is null as configured",
			stateEnv: map[string]string{"TOKEN": "s3"}, stateVer: types.Int64Null(),
			planEnv: nil, wo: map[string]string{"TOKEN": "s3"},
			wantEnv: nil, wantVersion: types.Int64Value(7)},
		{name: "another value: a change of the environment",
			stateEnv: map[string]string{"PLAIN": "x", "TOKEN": "old"}, stateVer: types.Int64Null(),
			planEnv: map[string]string{"PLAIN": "x"}, wo: map[string]string{"TOKEN": "s3"},
			wantEnv: map[string]string{"PLAIN": "x", "TOKEN": "old"}, wantVersion: types.Int64Null()},
		{name: "one of two held: it leaves, the version is not taken",
			stateEnv: map[string]string{"A": "1", "B": "old"}, stateVer: types.Int64Null(),
			planEnv: nil, wo: map[string]string{"A": "1", "B": "2"},
			wantEnv: map[string]string{"B": "old"}, wantVersion: types.Int64Null()},
		{name: "a recorded version is kept: its change is the user's",
			stateEnv: map[string]string{"TOKEN": "s3"}, stateVer: types.Int64Value(1),
			planEnv: nil, wo: map[string]string{"TOKEN": "s3"},
			wantEnv: nil, wantVersion: types.Int64Value(1)},
		{name: "no env_wo: nothing changes",
			stateEnv: map[string]string{"TOKEN": "s3"}, stateVer: types.Int64Null(),
			planEnv: nil, wo: nil,
			wantEnv: map[string]string{"TOKEN": "s3"}, wantVersion: types.Int64Null()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state := sandboxModel{Env: env(tc.stateEnv), EnvWOVersion: tc.stateVer}
			plan := sandboxModel{Env: env(tc.planEnv), EnvWOVersion: types.Int64Value(7)}
			var diags diag.Diagnostics
			sandboxEnvWOHeld(ctx, &state, plan, tc.wo, &diags)
			if diags.HasError() {
				t.Fatal(diags)
			}
			if want := env(tc.wantEnv); !state.Env.Equal(want) {
				t.Errorf("state env %v, want %v", state.Env, want)
			}
			if !state.EnvWOVersion.Equal(tc.wantVersion) {
				t.Errorf("state env_wo_version %v, want %v", state.EnvWOVersion, tc.wantVersion)
			}
		})
	}
}
