package provider

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// lifecycleTestCaps is a platform enforcing deadlines with every setting and limits.
var lifecycleTestCaps = platform.Capabilities{
	EnforcesDeadlines: true,
	OnTimeoutActions:  []platform.OnTimeoutAction{platform.OnTimeoutKill, platform.OnTimeoutPause},
	MaxTimeout:        24 * time.Hour, LifecycleMutable: true,
	IdleTimeout: true, AutoArchive: true, MaxAutoArchive: 30 * 24 * time.Hour, AutoDelete: true,
}

func TestSandboxCheckLifecycle(t *testing.T) {
	str := types.StringValue
	tests := []struct {
		name   string
		caps   func(*platform.Capabilities)
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
		{name: "timeout unsupported", caps: func(c *platform.Capabilities) { c.OnTimeoutActions = nil },
			change: func(m *sandboxModel) { m.Timeout = str("1h") },
			want:   `timeout = "1h" is not supported on test: this platform has no sandbox timeout`, path: pathSandboxTimeout},
		{name: "on_timeout not offered", change: func(m *sandboxModel) { m.Timeout, m.OnTimeout = str("1h"), str("stop") },
			want: `on_timeout = "stop" is not supported on test: on_timeout must be one of "kill", "pause"`, path: pathSandboxOnTimeout},
		{name: "idle unsupported", caps: func(c *platform.Capabilities) { c.IdleTimeout = false },
			change: func(m *sandboxModel) { m.IdleTimeout = str("10m") },
			want:   `idle_timeout = "10m" is not supported on test`, path: pathSandboxIdleTimeout},
		{name: "archive unsupported", caps: func(c *platform.Capabilities) { c.AutoArchive = false },
			change: func(m *sandboxModel) { m.AutoArchiveAfter = str("1d") },
			want:   `auto_archive_after = "1d" is not supported on test: this platform has no archived state`, path: pathSandboxAutoArchiveAfter},
		{name: "archive above the max", change: func(m *sandboxModel) { m.AutoArchiveAfter = str("31d") },
			want: `auto_archive_after = "31d" is above the maximum of 30d on test`, path: pathSandboxAutoArchiveAfter},
		{name: "auto delete unsupported", caps: func(c *platform.Capabilities) { c.AutoDelete = false },
			change: func(m *sandboxModel) { m.AutoDeleteAfter = str("2h") },
			want:   `auto_delete_after = "2h" is not supported on test`, path: pathSandboxAutoDeleteAfter},
		{name: "unknown values wait for apply", change: func(m *sandboxModel) {
			m.Timeout, m.OnTimeout = types.StringUnknown(), types.StringUnknown()
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			caps := lifecycleTestCaps
			if tt.caps != nil {
				tt.caps(&caps)
			}
			m := sandboxTestModel()
			tt.change(&m)
			var diags diag.Diagnostics
			sandboxCheckLifecycle(caps, "test", m, &diags)
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
// the platform allows it, else each changed setting replaces the box.
func TestSandboxLifecycleReplacePaths(t *testing.T) {
	state := sandboxTestModel()
	state.Timeout = types.StringValue("1h")
	plan := state
	plan.Timeout, plan.AutoDeleteAfter = types.StringValue("2h"), types.StringValue("1d")

	caps := lifecycleTestCaps
	if got := sandboxLifecycleReplacePaths(caps, plan, state); len(got) != 0 {
		t.Errorf("mutable lifecycle: want no replacement, got %v", got)
	}
	caps.LifecycleMutable = false
	got := sandboxLifecycleReplacePaths(caps, plan, state)
	if len(got) != 2 || !got[0].Equal(pathSandboxTimeout) || !got[1].Equal(pathSandboxAutoDeleteAfter) {
		t.Errorf("immutable lifecycle: want timeout and auto_delete_after to replace, got %v", got)
	}
	if got := sandboxLifecycleReplacePaths(caps, state, state); len(got) != 0 {
		t.Errorf("unchanged: want no replacement, got %v", got)
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
	if imported.Timeout.ValueString() != "24h0m0s" || imported.OnTimeout.ValueString() != "stop" ||
		!imported.AutoArchiveAfter.IsNull() || sandboxLifecycleFromModel(imported) != want {
		t.Fatalf("sandboxLifecycleToModel gave %+v", imported)
	}
}
