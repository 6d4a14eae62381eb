package provider

import (
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// TestPlanAttributes covers the one place plan-time decisions come from a
// platform's attribute table: each case is one attribute with one row.
func TestPlanAttributes(t *testing.T) {
	str, num, flag := types.StringValue, types.Int64Value, types.BoolValue
	labels := func(kv ...string) types.Map { return sandboxTestMap(kv...) }
	killWhenNull := func(v types.String) types.String {
		if v.IsNull() {
			return str("kill")
		}
		return v
	}
	tests := []struct {
		name string
		row  platform.Attribute
		key  string // the table key; platform.AttrSandboxDiskMB when empty
		// absent: the table has no row for key at all.
		absent bool
		a      plannedAttribute
		// wantErr are fragments of the one expected error's detail; nil: no error.
		wantErr     []string
		wantSummary string // a fragment of that error's summary
		wantReplace bool
		wantInPlace bool
	}{
		// Refused attributes.
		{name: "refused attribute set: error naming it, the value and why",
			row:         platform.Attribute{Why: "disks are sized by the platform; remove disk_mb"},
			a:           plannedAttribute{path: path.Root("disk_mb"), plan: num(2048)},
			wantErr:     []string{"disk_mb = 2048 is not supported on plat: disks are sized by the platform; remove disk_mb"},
			wantSummary: "not supported"},
		{name: "refused attribute with no reason: remove it",
			row:     platform.Attribute{},
			a:       plannedAttribute{path: path.Root("disk_mb"), plan: num(2048)},
			wantErr: []string{"disk_mb = 2048 is not supported on plat: remove disk_mb"}},
		{name: "attribute absent from the table is refused",
			absent:  true,
			a:       plannedAttribute{path: path.Root("disk_mb"), plan: num(1)},
			wantErr: []string{"disk_mb = 1 is not supported on plat: remove disk_mb"}},
		{name: "refused attribute left out passes",
			row: platform.Attribute{Why: "no"},
			a:   plannedAttribute{path: path.Root("disk_mb"), plan: types.Int64Null()}},
		{name: "refused attribute known only after apply is refused",
			row:     platform.Attribute{Why: "no disks"},
			a:       plannedAttribute{path: path.Root("disk_mb"), plan: types.Int64Unknown()},
			wantErr: []string{"disk_mb = (known after apply) is not supported on plat: no disks"}},
		{name: "refused string shows the value quoted",
			row:     platform.Attribute{Why: "no regions"},
			key:     platform.AttrVolumeRegion,
			a:       plannedAttribute{path: path.Root("region"), plan: str("ord")},
			wantErr: []string{`region = "ord" is not supported on plat: no regions`}},
		{name: "refused attribute shown as the caller says",
			row:     platform.Attribute{Why: "no env"},
			key:     platform.AttrSandboxEnv,
			a:       plannedAttribute{path: path.Root("env"), plan: labels("SECRET", "s3cret"), shown: "(the env map)"},
			wantErr: []string{"env = (the env map) is not supported on plat: no env"}},
		{name: "refused attribute is not also a change",
			row:     platform.Attribute{Why: "no"},
			a:       plannedAttribute{path: path.Root("disk_mb"), plan: num(2), prior: num(1)},
			wantErr: []string{"disk_mb = 2 is not supported"}},

		// Maps: an empty map asks for nothing.
		{name: "refused labels set: the map is shown",
			row:     platform.Attribute{Why: "volumes carry no labels here; remove labels"},
			key:     platform.AttrVolumeLabels,
			a:       plannedAttribute{path: path.Root("labels"), plan: labels("team", "ml", "env", "dev")},
			wantErr: []string{`labels = { env = "dev", team = "ml" } is not supported on plat: volumes carry no labels here`}},
		{name: "empty map passes a refused row",
			row: platform.Attribute{Why: "no labels"},
			key: platform.AttrVolumeLabels,
			a:   plannedAttribute{path: path.Root("labels"), plan: labels()}},
		{name: "wholly unknown map is left to the apply",
			row: platform.Attribute{Why: "no labels"},
			key: platform.AttrVolumeLabels,
			a:   plannedAttribute{path: path.Root("labels"), plan: types.MapUnknown(types.StringType)}},
		{name: "map with an unknown value is refused",
			row: platform.Attribute{Why: "no labels"},
			key: platform.AttrVolumeLabels,
			a: plannedAttribute{path: path.Root("labels"), plan: types.MapValueMust(types.StringType,
				map[string]attr.Value{"team": types.StringUnknown()})},
			wantErr: []string{"labels = { team = (known after apply) } is not supported on plat: no labels"}},
		{name: "null map and empty map are the same",
			row: platform.Attribute{Support: platform.Replace},
			key: platform.AttrVolumeLabels,
			a:   plannedAttribute{path: path.Root("labels"), plan: labels(), prior: types.MapNull(types.StringType)}},
		{name: "changed map replaces",
			row:         platform.Attribute{Support: platform.Replace},
			key:         platform.AttrVolumeLabels,
			a:           plannedAttribute{path: path.Root("labels"), plan: labels("a", "b"), prior: labels()},
			wantReplace: true},

		// Required.
		{name: "required attribute missing",
			row:         platform.Attribute{Support: platform.Replace, Required: true, Why: "every volume lives in a region"},
			key:         platform.AttrVolumeRegion,
			a:           plannedAttribute{path: path.Root("region"), plan: types.StringNull()},
			wantErr:     []string{"plat needs region: every volume lives in a region"},
			wantSummary: "region is required on plat"},
		{name: "required attribute set",
			row: platform.Attribute{Support: platform.Replace, Required: true},
			key: platform.AttrVolumeRegion,
			a:   plannedAttribute{path: path.Root("region"), plan: str("ord")}},
		{name: "required attribute known only after apply",
			row: platform.Attribute{Support: platform.Replace, Required: true},
			key: platform.AttrVolumeRegion,
			a:   plannedAttribute{path: path.Root("region"), plan: types.StringUnknown()}},

		// Values.
		{name: "value not accepted: error naming it and the accepted values",
			row:     platform.Attribute{Support: platform.InPlace, Values: []string{"running", "stopped"}},
			key:     platform.AttrSandboxState,
			a:       plannedAttribute{path: path.Root("state"), plan: str("paused")},
			wantErr: []string{`state = "paused" is not supported on plat: state must be one of "running", "stopped"`}},
		{name: "value not accepted, with the reason",
			row:     platform.Attribute{Support: platform.Replace, Values: []string{"kill", "pause"}, Why: "stop is not offered"},
			key:     platform.AttrSandboxOnTimeout,
			a:       plannedAttribute{path: pathSandboxOnTimeout, plan: str("stop")},
			wantErr: []string{`on_timeout = "stop" is not supported on plat: on_timeout must be one of "kill", "pause"; stop is not offered`}},
		{name: "bool value not accepted: written unquoted",
			row:     platform.Attribute{Support: platform.Replace, Values: []string{"false"}, Why: "mounts are read-write here"},
			key:     platform.AttrSandboxMountReadOnly,
			a:       plannedAttribute{path: path.Root("volume_mount").AtListIndex(1).AtName("read_only"), plan: flag(true)},
			wantErr: []string{"volume_mount[1].read_only = true is not supported on plat: volume_mount[1].read_only must be one of false; mounts are read-write here"}},
		{name: "value accepted",
			row: platform.Attribute{Support: platform.InPlace, Values: []string{"running", "stopped"}},
			key: platform.AttrSandboxState,
			a:   plannedAttribute{path: path.Root("state"), plan: str("stopped")}},
		{name: "bool value accepted",
			row: platform.Attribute{Support: platform.Replace, Values: []string{"false"}},
			key: platform.AttrSandboxMountReadOnly,
			a:   plannedAttribute{path: path.Root("read_only"), plan: flag(false)}},

		// Bounds.
		{name: "below the minimum",
			row:         platform.Attribute{Support: platform.InPlace, Min: 128},
			key:         platform.AttrSandboxMemoryMB,
			a:           plannedAttribute{path: path.Root("memory_mb"), plan: num(64)},
			wantErr:     []string{"memory_mb = 64 is below the minimum of 128 on plat. Set memory_mb to 128 or more"},
			wantSummary: "below the platform minimum"},
		{name: "at the minimum",
			row: platform.Attribute{Support: platform.InPlace, Min: 128},
			key: platform.AttrSandboxMemoryMB,
			a:   plannedAttribute{path: path.Root("memory_mb"), plan: num(128)}},
		{name: "above the maximum",
			row:         platform.Attribute{Support: platform.InPlace, Max: 8},
			key:         platform.AttrSandboxCPUCount,
			a:           plannedAttribute{path: path.Root("cpu_count"), plan: num(16)},
			wantErr:     []string{"cpu_count = 16 is above the maximum of 8 on plat. Set cpu_count to 8 or less."},
			wantSummary: "above the platform maximum"},
		{name: "at the maximum",
			row: platform.Attribute{Support: platform.InPlace, Max: 8},
			key: platform.AttrSandboxCPUCount,
			a:   plannedAttribute{path: path.Root("cpu_count"), plan: num(8)}},
		{name: "no bounds",
			row: platform.Attribute{Support: platform.InPlace},
			key: platform.AttrSandboxCPUCount,
			a:   plannedAttribute{path: path.Root("cpu_count"), plan: num(1 << 20)}},

		// MaxDuration.
		{name: "duration above the maximum",
			row:         platform.Attribute{Support: platform.InPlace, MaxDuration: 24 * time.Hour},
			key:         platform.AttrSandboxTimeout,
			a:           plannedAttribute{path: pathSandboxTimeout, plan: str("25h"), duration: true},
			wantErr:     []string{`timeout = "25h" is above the maximum of 1d on plat. Set timeout to 1d or less.`},
			wantSummary: "above the platform maximum"},
		{name: "duration in days above the maximum",
			row:     platform.Attribute{Support: platform.InPlace, MaxDuration: 30 * 24 * time.Hour},
			key:     platform.AttrSandboxAutoArchiveAfter,
			a:       plannedAttribute{path: pathSandboxAutoArchiveAfter, plan: str("31d"), duration: true},
			wantErr: []string{`auto_archive_after = "31d" is above the maximum of 30d on plat`}},
		{name: "duration at the maximum",
			row: platform.Attribute{Support: platform.InPlace, MaxDuration: 24 * time.Hour},
			key: platform.AttrSandboxTimeout,
			a:   plannedAttribute{path: pathSandboxTimeout, plan: str("1d"), duration: true}},
		{name: "duration with no maximum",
			row: platform.Attribute{Support: platform.InPlace},
			key: platform.AttrSandboxTimeout,
			a:   plannedAttribute{path: pathSandboxTimeout, plan: str("365d"), duration: true}},

		// Changes.
		{name: "in-place change",
			row:         platform.Attribute{Support: platform.InPlace},
			key:         platform.AttrSandboxMemoryMB,
			a:           plannedAttribute{path: path.Root("memory_mb"), plan: num(512), prior: num(256)},
			wantInPlace: true},
		{name: "replacing change",
			row:         platform.Attribute{Support: platform.Replace},
			key:         platform.AttrSandboxMemoryMB,
			a:           plannedAttribute{path: path.Root("memory_mb"), plan: num(512), prior: num(256)},
			wantReplace: true},
		{name: "set where it was not: a change",
			row:         platform.Attribute{Support: platform.Replace},
			key:         platform.AttrSandboxMemoryMB,
			a:           plannedAttribute{path: path.Root("memory_mb"), plan: num(512), prior: types.Int64Null()},
			wantReplace: true},
		{name: "removed: a change",
			row:         platform.Attribute{Support: platform.InPlace},
			key:         platform.AttrSandboxMemoryMB,
			a:           plannedAttribute{path: path.Root("memory_mb"), plan: types.Int64Null(), prior: num(256)},
			wantInPlace: true},
		{name: "unchanged",
			row: platform.Attribute{Support: platform.Replace},
			key: platform.AttrSandboxMemoryMB,
			a:   plannedAttribute{path: path.Root("memory_mb"), plan: num(512), prior: num(512)}},
		{name: "create: no prior, no change",
			row: platform.Attribute{Support: platform.Replace},
			key: platform.AttrSandboxMemoryMB,
			a:   plannedAttribute{path: path.Root("memory_mb"), plan: num(512)}},

		// normalize.
		{name: "on_timeout left out is kill: no change",
			row: platform.Attribute{Support: platform.Replace},
			key: platform.AttrSandboxOnTimeout,
			a:   plannedAttribute{path: pathSandboxOnTimeout, plan: types.StringNull(), prior: str("kill"), normalize: killWhenNull}},
		{name: "on_timeout kill written out: no change",
			row: platform.Attribute{Support: platform.Replace},
			key: platform.AttrSandboxOnTimeout,
			a:   plannedAttribute{path: pathSandboxOnTimeout, plan: str("kill"), prior: types.StringNull(), normalize: killWhenNull}},
		{name: "on_timeout left out where it was pause: a change",
			row:         platform.Attribute{Support: platform.Replace},
			key:         platform.AttrSandboxOnTimeout,
			a:           plannedAttribute{path: pathSandboxOnTimeout, plan: types.StringNull(), prior: str("pause"), normalize: killWhenNull},
			wantReplace: true},
		{name: "without normalize, left out and kill differ",
			row:         platform.Attribute{Support: platform.Replace},
			key:         platform.AttrSandboxOnTimeout,
			a:           plannedAttribute{path: pathSandboxOnTimeout, plan: types.StringNull(), prior: str("kill")},
			wantReplace: true},

		// Step: only multiples.
		{name: "a multiple of Step passes",
			row: platform.Attribute{Support: platform.Replace, Step: 1024},
			key: platform.AttrTemplateMemoryMB,
			a:   plannedAttribute{path: path.Root("memory_mb"), plan: num(2048)}},
		{name: "not a multiple of Step: error with the nearest multiples",
			row:         platform.Attribute{Support: platform.Replace, Step: 1024},
			key:         platform.AttrTemplateMemoryMB,
			a:           plannedAttribute{path: path.Root("memory_mb"), plan: num(1536)},
			wantErr:     []string{"memory_mb = 1536 is not a multiple of 1024, the only sizes plat offers. Set memory_mb to 1024 or 2048."},
			wantSummary: "not a multiple"},
		{name: "below Step: error naming Step",
			row:     platform.Attribute{Support: platform.Replace, Step: 1024},
			key:     platform.AttrTemplateMemoryMB,
			a:       plannedAttribute{path: path.Root("memory_mb"), plan: num(512)},
			wantErr: []string{"Set memory_mb to 1024."}},

		// GrowOnly: a smaller value than state's is an error.
		{name: "GrowOnly growing: in place",
			row:         platform.Attribute{Support: platform.InPlace, GrowOnly: true},
			a:           plannedAttribute{path: path.Root("disk_mb"), plan: num(4096), prior: num(2048)},
			wantInPlace: true},
		{name: "GrowOnly shrinking: error naming both sizes",
			row:         platform.Attribute{Support: platform.InPlace, GrowOnly: true},
			a:           plannedAttribute{path: path.Root("disk_mb"), plan: num(1024), prior: num(2048)},
			wantErr:     []string{"disk_mb = 1024 is below the 2048 the object has: plat only grows disk_mb"},
			wantSummary: "cannot shrink",
			wantInPlace: true}, // the error stops the plan whatever the decision
		{name: "GrowOnly set where state has none: the platform's size is not known, no error",
			row:         platform.Attribute{Support: platform.InPlace, GrowOnly: true},
			a:           plannedAttribute{path: path.Root("disk_mb"), plan: num(1024), prior: types.Int64Null()},
			wantInPlace: true},

		// UpdateOnly: refused on a new object, in place on a live one.
		{name: "UpdateOnly at create: error with why",
			row: platform.Attribute{Support: platform.InPlace, UpdateOnly: true,
				Why: "a new box takes its size from its template; set it on the sbx_template"},
			key:         platform.AttrSandboxCPUCount,
			a:           plannedAttribute{path: path.Root("cpu_count"), plan: num(2)},
			wantErr:     []string{"cpu_count = 2 cannot be set when plat makes the object: a new box takes its size from its template"},
			wantSummary: "cannot be set at create on plat"},
		{name: "UpdateOnly left out at create passes",
			row: platform.Attribute{Support: platform.InPlace, UpdateOnly: true},
			key: platform.AttrSandboxCPUCount,
			a:   plannedAttribute{path: path.Root("cpu_count"), plan: types.Int64Null()}},
		{name: "UpdateOnly on a live object: in place",
			row:         platform.Attribute{Support: platform.InPlace, UpdateOnly: true},
			key:         platform.AttrSandboxCPUCount,
			a:           plannedAttribute{path: path.Root("cpu_count"), plan: num(2), prior: types.Int64Null()},
			wantInPlace: true},

		// Unknown values skip value checks.
		{name: "unknown value skips Values",
			row: platform.Attribute{Support: platform.InPlace, Values: []string{"running"}},
			key: platform.AttrSandboxState,
			a:   plannedAttribute{path: path.Root("state"), plan: types.StringUnknown()}},
		{name: "unknown value skips Min and Max",
			row: platform.Attribute{Support: platform.InPlace, Min: 128, Max: 256},
			key: platform.AttrSandboxMemoryMB,
			a:   plannedAttribute{path: path.Root("memory_mb"), plan: types.Int64Unknown()}},
		{name: "unknown value skips MaxDuration",
			row: platform.Attribute{Support: platform.InPlace, MaxDuration: time.Hour},
			key: platform.AttrSandboxTimeout,
			a:   plannedAttribute{path: pathSandboxTimeout, plan: types.StringUnknown(), duration: true}},
		{name: "unknown value is still a change",
			row:         platform.Attribute{Support: platform.Replace, Values: []string{"a"}},
			key:         platform.AttrSandboxOnTimeout,
			a:           plannedAttribute{path: pathSandboxOnTimeout, plan: types.StringUnknown(), prior: str("a")},
			wantReplace: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key := tt.key
			if key == "" {
				key = platform.AttrSandboxDiskMB
			}
			a := tt.a
			a.key = key
			table := platform.Attributes{}
			if !tt.absent {
				table[key] = tt.row
			}
			var diags diag.Diagnostics
			got := planAttributes(table, "plat", []plannedAttribute{a}, &diags)
			attributePlanTestExpectError(t, diags, a.path, tt.wantErr, tt.wantSummary)
			if replaced := len(got.replace) == 1 && got.replace[0].Equal(a.path); replaced != tt.wantReplace || len(got.replace) > 1 {
				t.Errorf("replace = %v, want %s replaced: %v", got.replace, a.path, tt.wantReplace)
			}
			if inPlace := len(got.inPlace) == 1 && got.inPlace[0] == key; inPlace != tt.wantInPlace || len(got.inPlace) > 1 {
				t.Errorf("in place = %v, want %s in place: %v", got.inPlace, key, tt.wantInPlace)
			}
		})
	}
}

// TestPlanAttributesSeveral: every attribute is judged, in order: each
// error is reported, and the decision lists every replacing path and every
// in-place key.
func TestPlanAttributesSeveral(t *testing.T) {
	table := platform.Attributes{
		platform.AttrSandboxCPUCount: {Support: platform.InPlace},
		platform.AttrSandboxMemoryMB: {Support: platform.InPlace, Min: 6},
		platform.AttrSandboxEnv:      {Support: platform.Replace},
		platform.AttrSandboxLabels:   {Support: platform.Replace},
		platform.AttrSandboxTimeout:  {Support: platform.InPlace},
		platform.AttrSandboxDiskMB:   {Why: "no disks"},
	}
	t.Run("changes", func(t *testing.T) {
		attrs := []plannedAttribute{
			{key: platform.AttrSandboxCPUCount, path: path.Root("cpu_count"), plan: types.Int64Value(2), prior: types.Int64Value(1)},
			{key: platform.AttrSandboxEnv, path: path.Root("env"), plan: sandboxTestMap("A", "1"), prior: types.MapNull(types.StringType)},
			{key: platform.AttrSandboxLabels, path: path.Root("labels"), plan: sandboxTestMap("t", "x"), prior: sandboxTestMap("t", "y")},
			{key: platform.AttrSandboxTimeout, path: pathSandboxTimeout, plan: types.StringValue("1h"), prior: types.StringNull(), duration: true},
			{key: platform.AttrSandboxMemoryMB, path: path.Root("memory_mb"), plan: types.Int64Value(8), prior: types.Int64Value(8)},
		}
		var diags diag.Diagnostics
		got := planAttributes(table, "plat", attrs, &diags)
		if diags.HasError() {
			t.Fatalf("unexpected errors: %v", diags)
		}
		if len(got.replace) != 2 || !got.replace[0].Equal(path.Root("env")) || !got.replace[1].Equal(path.Root("labels")) {
			t.Errorf("replace = %v, want [env labels]", got.replace)
		}
		if strings.Join(got.inPlace, ",") != platform.AttrSandboxCPUCount+","+platform.AttrSandboxTimeout {
			t.Errorf("in place = %v, want [%s %s]", got.inPlace, platform.AttrSandboxCPUCount, platform.AttrSandboxTimeout)
		}
	})
	t.Run("errors", func(t *testing.T) {
		attrs := []plannedAttribute{
			{key: platform.AttrSandboxDiskMB, path: path.Root("disk_mb"), plan: types.Int64Value(1024)},
			{key: platform.AttrSandboxMemoryMB, path: path.Root("memory_mb"), plan: types.Int64Value(4)},
			{key: platform.AttrSandboxCPUCount, path: path.Root("cpu_count"), plan: types.Int64Value(2)},
		}
		var diags diag.Diagnostics
		planAttributes(table, "plat", attrs, &diags)
		errs := diags.Errors()
		if len(errs) != 2 {
			t.Fatalf("want 2 errors, got %v", diags)
		}
		for i, p := range []path.Path{path.Root("disk_mb"), path.Root("memory_mb")} {
			if wp, ok := errs[i].(diag.DiagnosticWithPath); !ok || !wp.Path().Equal(p) {
				t.Errorf("error %d not at %s: %v", i, p, errs[i])
			}
		}
	})
	t.Run("an UpdateOnly attribute on a replacement is an error", func(t *testing.T) {
		table := platform.Attributes{
			platform.AttrSandboxCPUCount: {Support: platform.InPlace, UpdateOnly: true, Why: "set it on the template"},
			platform.AttrSandboxEnv:      {Support: platform.Replace},
		}
		attrs := []plannedAttribute{
			{key: platform.AttrSandboxCPUCount, path: path.Root("cpu_count"), plan: types.Int64Value(2), prior: types.Int64Value(2)},
			{key: platform.AttrSandboxEnv, path: path.Root("env"), plan: sandboxTestMap("A", "1"), prior: sandboxTestMap("A", "2")},
		}
		var diags diag.Diagnostics
		planAttributes(table, "plat", attrs, &diags)
		attributePlanTestExpectError(t, diags, path.Root("cpu_count"),
			[]string{"The plan replaces the object (env changed), and cpu_count cannot be set when plat makes one: set it on the template"},
			"cannot be set at create")
	})
	t.Run("empty", func(t *testing.T) {
		var diags diag.Diagnostics
		got := planAttributes(platform.Attributes{}, "plat", nil, &diags)
		if diags.HasError() || len(got.replace) != 0 || len(got.inPlace) != 0 {
			t.Fatalf("got %+v, %v", got, diags)
		}
	})
}

// attributePlanTestExpectError checks diags hold exactly one error, at p,
// whose detail holds every want and whose summary holds summary; or no
// error when want is nil.
func attributePlanTestExpectError(t *testing.T, diags diag.Diagnostics, p path.Path, want []string, summary string) {
	t.Helper()
	sandboxTestExpectOneError(t, diags, p, want)
	if want != nil && summary != "" && diags.ErrorsCount() == 1 && !strings.Contains(diags.Errors()[0].Summary(), summary) {
		t.Errorf("summary %q does not contain %q", diags.Errors()[0].Summary(), summary)
	}
}
