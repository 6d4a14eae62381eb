package provider

import (
	"context"
	"reflect"
	"strings"
	"testing"

	fwattr "github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// memoryPrivate is private state held in a map.
type memoryPrivate map[string][]byte

func (m memoryPrivate) GetKey(_ context.Context, key string) ([]byte, diag.Diagnostics) {
	return m[key], nil
}

func (m memoryPrivate) SetKey(_ context.Context, key string, value []byte) diag.Diagnostics {
	if len(value) == 0 {
		delete(m, key)
	} else {
		m[key] = value
	}
	return nil
}

// unreportedTable: env and timeout are not reported back; labels are.
var unreportedTable = platform.Attributes{
	platform.AttrSandboxEnv:     {Support: platform.Replace, Unreported: true},
	platform.AttrSandboxTimeout: {Support: platform.InPlace, Unreported: true},
	platform.AttrSandboxLabels:  {Support: platform.Replace},
}

func TestUnreportedAfterImport(t *testing.T) {
	env := types.MapValueMust(types.StringType, map[string]fwattr.Value{"A": types.StringValue("1")})
	tests := []struct {
		name  string
		attrs []plannedAttribute
		// object is what the read said it could not report for this object.
		object []string
		want   []string
	}{
		{"null unreported attributes are recorded", []plannedAttribute{
			{key: platform.AttrSandboxEnv, plan: types.MapNull(types.StringType)},
			{key: platform.AttrSandboxTimeout, plan: types.StringNull()},
			{key: platform.AttrSandboxLabels, plan: types.MapNull(types.StringType)},
		}, nil, []string{platform.AttrSandboxEnv, platform.AttrSandboxTimeout}},
		{"a value the platform gave is not", []plannedAttribute{
			{key: platform.AttrSandboxEnv, plan: env},
			{key: platform.AttrSandboxTimeout, plan: types.StringValue("1h")},
		}, nil, nil},
		{"what the read could not report for this object is recorded, table row or not", []plannedAttribute{
			{key: platform.AttrSandboxLabels, plan: types.MapNull(types.StringType)},
			{key: platform.AttrSandboxTemplateID, plan: types.StringNull()},
			{key: platform.AttrSandboxName, plan: types.StringNull()},
		}, []string{platform.AttrSandboxTemplateID, platform.AttrSandboxName},
			[]string{platform.AttrSandboxTemplateID, platform.AttrSandboxName}},
		{"a null the read did report is not", []plannedAttribute{
			{key: platform.AttrSandboxTemplateID, plan: types.StringNull()},
		}, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := unreportedAfterImport(unreportedTable, tc.attrs, tc.object); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestUnreportedRecordRoundTrip(t *testing.T) {
	ctx := context.Background()
	var diags diag.Diagnostics
	priv := memoryPrivate{}
	writeUnreported(ctx, priv, []string{platform.AttrSandboxTimeout}, &diags)
	if got := readUnreported(ctx, priv, &diags); !reflect.DeepEqual(got, []string{platform.AttrSandboxTimeout}) {
		t.Errorf("read back %v", got)
	}
	writeUnreported(ctx, priv, nil, &diags)
	if got := readUnreported(ctx, priv, &diags); len(got) != 0 || len(priv) != 0 {
		t.Errorf("after clearing: %v, private %v", got, priv)
	}
	// An import recorded by an earlier provider version (env only).
	priv[privateKeyEnvUnreported] = []byte("true")
	if got := readUnreported(ctx, priv, &diags); !reflect.DeepEqual(got, []string{platform.AttrSandboxEnv}) {
		t.Errorf("legacy record read as %v, want env", got)
	}
	if diags.HasError() {
		t.Fatal(diags)
	}
}

func TestPlanUnreportedFromConfig(t *testing.T) {
	env := types.MapValueMust(types.StringType, map[string]fwattr.Value{"TOKEN": types.StringValue("s3cret")})
	attrs := []plannedAttribute{
		{key: platform.AttrSandboxEnv, path: path.Root("env"), plan: env, prior: types.MapNull(types.StringType)},
		{key: platform.AttrSandboxLabels, path: path.Root("labels"), plan: env, prior: types.MapNull(types.StringType)},
	}
	recorded := []string{platform.AttrSandboxEnv, platform.AttrSandboxTimeout}
	taken := unreportedTaken(recorded, attrs)
	if !reflect.DeepEqual(taken, []string{platform.AttrSandboxEnv}) {
		t.Fatalf("taken = %v, want env only (labels were reported; timeout is not configured)", taken)
	}
	var diags diag.Diagnostics
	planUnreportedFromConfig(attrs, taken, "plat", "sandbox", "Sandbox", "box-1", &diags)
	decision := planAttributes(unreportedTable, "plat", attrs, &diags)
	if !reflect.DeepEqual(decision.replace, path.Paths{path.Root("labels")}) {
		t.Errorf("replace = %v: env taken from the configuration must not replace; labels still do", decision.replace)
	}
	if diags.WarningsCount() != 1 || diags.HasError() {
		t.Fatalf("diagnostics = %v, want one warning", diags)
	}
	w := diags.Warnings()[0]
	if got := w.Summary() + w.Detail(); !strings.Contains(got, "env") || !strings.Contains(got, "box-1") || strings.Contains(got, "s3cret") {
		t.Errorf("warning %q must name env and the box, never a value", got)
	}
}
