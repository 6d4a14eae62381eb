package provider

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// lifecycleTestCaps is a platform enforcing deadlines with every setting
// and limits, each changed in place, on top of sandboxTestCaps.
var lifecycleTestCaps = platform.Capabilities{
	EnforcesDeadlines: true,
	Attributes: sandboxTestAttributes(platform.Attributes{
		platform.AttrSandboxTimeout: {Support: platform.InPlace, MaxDuration: 24 * time.Hour},
		platform.AttrSandboxOnTimeout: {Support: platform.InPlace,
			Values: []string{string(platform.OnTimeoutKill), string(platform.OnTimeoutPause)}},
		platform.AttrSandboxIdleTimeout:      {Support: platform.InPlace},
		platform.AttrSandboxAutoArchiveAfter: {Support: platform.InPlace, MaxDuration: 30 * 24 * time.Hour},
		platform.AttrSandboxAutoDeleteAfter:  {Support: platform.InPlace},
	}),
}

// lifecycleTestAttributes is lifecycleTestCaps' table, a copy, with rows
// replaced or added.
func lifecycleTestAttributes(rows platform.Attributes) platform.Attributes {
	out := maps.Clone(lifecycleTestCaps.Attributes)
	maps.Copy(out, rows)
	return out
}

// TestSandboxLifecycleAttributes: the table judges lifecycle settings
// (planAttributes over sandboxAttributes): a refused setting, a refused
// value or one above the platform's maximum is an error naming the
// attribute, the value and what is allowed.
func TestSandboxLifecycleAttributes(t *testing.T) {
	str := types.StringValue
	refuse := func(key, why string) platform.Attributes { return platform.Attributes{key: {Why: why}} }
	tests := []struct {
		name   string
		caps   platform.Attributes // rows replacing lifecycleTestCaps'
		change func(*sandboxModel)
		want   string // substring of the one expected error; "" = none
		path   path.Path
	}{
		{name: "nothing set", change: func(*sandboxModel) {}},
		{name: "all within limits", change: func(m *sandboxModel) {
			m.Timeout, m.OnTimeout, m.IdleTimeout, m.AutoArchiveAfter, m.AutoDeleteAfter = str("24h"), str("pause"), str("15m"), str("30d"), str("1d")
		}},
		{name: "timeout above the max", change: func(m *sandboxModel) { m.Timeout = str("25h") },
			want: `timeout = "25h" is above the maximum of 1d on test. Set timeout to 1d or less.`, path: pathSandboxTimeout},
		{name: "timeout unsupported", caps: refuse(platform.AttrSandboxTimeout, "this platform has no sandbox timeout; remove timeout and on_timeout"),
			change: func(m *sandboxModel) { m.Timeout = str("1h") },
			want:   `timeout = "1h" is not supported on test: this platform has no sandbox timeout`, path: pathSandboxTimeout},
		{name: "on_timeout not offered", change: func(m *sandboxModel) { m.Timeout, m.OnTimeout = str("1h"), str("stop") },
			want: `on_timeout = "stop" is not supported on test: on_timeout must be one of "kill", "pause"`, path: pathSandboxOnTimeout},
		{name: "idle unsupported", caps: refuse(platform.AttrSandboxIdleTimeout, "this platform stops no idle sandboxes"),
			change: func(m *sandboxModel) { m.IdleTimeout = str("10m") },
			want:   `idle_timeout = "10m" is not supported on test`, path: pathSandboxIdleTimeout},
		{name: "archive unsupported", caps: refuse(platform.AttrSandboxAutoArchiveAfter, "this platform has no archived state; remove auto_archive_after"),
			change: func(m *sandboxModel) { m.AutoArchiveAfter = str("1d") },
			want:   `auto_archive_after = "1d" is not supported on test: this platform has no archived state`, path: pathSandboxAutoArchiveAfter},
		{name: "archive above the max", change: func(m *sandboxModel) { m.AutoArchiveAfter = str("31d") },
			want: `auto_archive_after = "31d" is above the maximum of 30d on test`, path: pathSandboxAutoArchiveAfter},
		{name: "auto delete unsupported", caps: refuse(platform.AttrSandboxAutoDeleteAfter, "this platform does not delete stopped sandboxes by itself"),
			change: func(m *sandboxModel) { m.AutoDeleteAfter = str("2h") },
			want:   `auto_delete_after = "2h" is not supported on test`, path: pathSandboxAutoDeleteAfter},
		{name: "unknown values wait for apply", change: func(m *sandboxModel) {
			m.Timeout, m.OnTimeout = types.StringUnknown(), types.StringUnknown()
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := sandboxTestModel()
			tt.change(&m)
			var diags diag.Diagnostics
			planAttributes(lifecycleTestAttributes(tt.caps), "test", sandboxAttributes(m, nil), &diags)
			if tt.want == "" {
				if diags.HasError() {
					t.Fatalf("unexpected errors: %v", diags)
				}
				return
			}
			if diags.ErrorsCount() != 1 {
				t.Fatalf("want one error, got %v", diags)
			}
			e := diags.Errors()[0]
			if !strings.Contains(e.Detail(), tt.want) {
				t.Errorf("error %q lacks %q", e.Detail(), tt.want)
			}
			if p, ok := e.(diag.DiagnosticWithPath); !ok || !p.Path().Equal(tt.path) {
				t.Errorf("error not attached to %s: %#v", tt.path, e)
			}
		})
	}
}

// TestPositiveDurationValidator covers every duration attribute (sandbox
// timeout & co., snapshot ttl): one parser, days allowed.
func TestPositiveDurationValidator(t *testing.T) {
	tests := []struct{ value, want string }{
		{"1h", ""}, {"90m", ""}, {"7d", ""}, {"1d12h", ""}, {"72h", ""}, {"1h30m", ""}, {"1s", ""}, {"3d", ""},
		{"0s", `timeout = "0s": must be positive; use a positive duration such as 1h, 90m or 7d.`},
		{"0", `timeout = "0": must be positive`},
		{"-1h", `timeout = "-1h": must be positive`},
		{"an hour", `timeout = "an hour": not a duration`},
		{"soon", `timeout = "soon": not a duration`},
		{"", `timeout = "": not a duration`},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			var resp validator.StringResponse
			positiveDurationValidator{}.ValidateString(context.Background(),
				validator.StringRequest{Path: pathSandboxTimeout, ConfigValue: types.StringValue(tt.value)}, &resp)
			if tt.want == "" {
				if resp.Diagnostics.HasError() {
					t.Fatalf("unexpected error: %v", resp.Diagnostics)
				}
				return
			}
			if !resp.Diagnostics.HasError() || !strings.Contains(resp.Diagnostics.Errors()[0].Detail(), tt.want) {
				t.Fatalf("want error containing %q, got %v", tt.want, resp.Diagnostics)
			}
		})
	}
}

// TestSandboxLifecycleReplacePaths: a lifecycle change is in place where
// the table says so, else each changed setting replaces the box.
func TestSandboxLifecycleReplacePaths(t *testing.T) {
	state := sandboxTestModel()
	state.Timeout = types.StringValue("1h")
	plan := state
	plan.Timeout, plan.AutoDeleteAfter = types.StringValue("2h"), types.StringValue("1d")
	decide := func(table platform.Attributes, plan, state sandboxModel) attributeDecision {
		t.Helper()
		var diags diag.Diagnostics
		got := planAttributes(table, "test", sandboxAttributes(plan, &state), &diags)
		if diags.HasError() {
			t.Fatalf("unexpected errors: %v", diags)
		}
		return got
	}

	got := decide(lifecycleTestCaps.Attributes, plan, state)
	if len(got.replace) != 0 {
		t.Errorf("mutable lifecycle: want no replacement, got %v", got.replace)
	}
	if want := []string{platform.AttrSandboxTimeout, platform.AttrSandboxAutoDeleteAfter}; !slices.Equal(got.inPlace, want) {
		t.Errorf("mutable lifecycle: in place = %v, want %v", got.inPlace, want)
	}
	immutable := lifecycleTestAttributes(nil)
	for _, key := range []string{platform.AttrSandboxTimeout, platform.AttrSandboxOnTimeout, platform.AttrSandboxIdleTimeout,
		platform.AttrSandboxAutoArchiveAfter, platform.AttrSandboxAutoDeleteAfter} {
		row := immutable[key]
		row.Support = platform.Replace
		immutable[key] = row
	}
	got = decide(immutable, plan, state)
	if len(got.replace) != 2 || !got.replace[0].Equal(pathSandboxTimeout) || !got.replace[1].Equal(pathSandboxAutoDeleteAfter) || len(got.inPlace) != 0 {
		t.Errorf("immutable lifecycle: want timeout and auto_delete_after to replace, got %v (in place %v)", got.replace, got.inPlace)
	}
	if got := decide(immutable, state, state); len(got.replace) != 0 || len(got.inPlace) != 0 {
		t.Errorf("unchanged: want no change, got %v (in place %v)", got.replace, got.inPlace)
	}
}

// TestSandboxLifecycleRoundTrip: settings reach the platform as durations
// (days included), and a platform's report fills an imported box.
func TestSandboxLifecycleRoundTrip(t *testing.T) {
	m := sandboxTestModel()
	m.Timeout, m.OnTimeout, m.IdleTimeout = types.StringValue("1d"), types.StringValue("stop"), types.StringValue("90m")
	lc := sandboxLifecycleFromModel(m)
	want := platform.Lifecycle{Timeout: 24 * time.Hour, OnTimeout: platform.OnTimeoutStop, IdleTimeout: 90 * time.Minute}
	if lc != want {
		t.Fatalf("sandboxLifecycleFromModel = %+v, want %+v", lc, want)
	}
	var imported sandboxModel
	sandboxLifecycleToModel(&imported, want)
	if imported.Timeout.ValueString() != "24h" || imported.OnTimeout.ValueString() != "stop" ||
		!imported.AutoArchiveAfter.IsNull() || sandboxLifecycleFromModel(imported) != want {
		t.Fatalf("sandboxLifecycleToModel gave %+v", imported)
	}
}
