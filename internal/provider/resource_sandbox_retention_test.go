package provider

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// retentionTestT0 is when the test box was paused.
var retentionTestT0 = time.Date(2026, 4, 1, 8, 0, 0, 0, time.UTC)

// retentionTestDocker is the fake platform under Docker's name and
// capabilities, so the Docker rows of the policy table apply.
type retentionTestDocker struct{ *sandboxFakePlatform }

func (retentionTestDocker) Name() string { return "docker" }

// Capabilities is sandboxTestCaps with lifecycle settings, each changed in
// place; a fresh table on every call.
func (retentionTestDocker) Capabilities() platform.Capabilities {
	c := sandboxTestCaps
	c.Attributes = sandboxTestAttributes(platform.Attributes{
		platform.AttrSandboxTimeout: {Support: platform.InPlace},
		platform.AttrSandboxOnTimeout: {Support: platform.InPlace,
			Values: []string{string(platform.OnTimeoutKill), string(platform.OnTimeoutPause), string(platform.OnTimeoutStop)}},
		platform.AttrSandboxIdleTimeout:     {Support: platform.InPlace},
		platform.AttrSandboxAutoDeleteAfter: {Support: platform.InPlace},
	})
	return c
}

// retentionTestResource is sbx_sandbox on that platform with
// `retention { paused_sandbox = "2h", warn_before = "1h" }` and a fake clock.
func retentionTestResource(t *testing.T, box *platform.Sandbox, err error) (*sandboxResource, *clock.Fake) {
	t.Helper()
	clock := clock.NewFake(retentionTestT0)
	policy := retentionTestPolicy(t, map[string]time.Duration{"paused_sandbox": 2 * time.Hour})
	return &sandboxResource{
		platform:  retentionTestDocker{&sandboxFakePlatform{boxes: &sandboxFakeBoxes{box: box, err: err}}},
		retention: retentionSettings{policy: policy, warnBefore: time.Hour, clock: clock},
	}, clock
}

// retentionTestPausedState is a box paused at t0 as Read records it.
func retentionTestPausedState() sandboxModel {
	m := sandboxTestModel()
	m.Timeouts = sandboxTestTimeouts()
	m.State, m.Status = types.StringValue("paused"), types.StringValue("paused")
	m.Platform = types.StringValue("docker")
	m.StatusSince = types.StringValue(retentionTestT0.Format(time.RFC3339))
	m.ExpiresAt = types.StringValue(retentionTestT0.Add(2 * time.Hour).Format(time.RFC3339))
	m.RetentionRule, m.RetentionAction = types.StringValue("paused_sandbox"), types.StringValue("delete")
	return m
}

// retentionTestModifyPlan runs ModifyPlan (state nil: a create) and returns
// the planned model and the diagnostics.
func retentionTestModifyPlan(t *testing.T, r *sandboxResource, plan sandboxModel, state *sandboxModel) (sandboxModel, diag.Diagnostics) {
	t.Helper()
	ctx := context.Background()
	st, pl := sandboxTestSchemaOf(t, r)
	sandboxTestMustSet(t, pl.Set(ctx, plan))
	if state != nil {
		sandboxTestMustSet(t, st.Set(ctx, *state))
	}
	resp := resource.ModifyPlanResponse{Plan: pl}
	r.ModifyPlan(ctx, resource.ModifyPlanRequest{Plan: pl, State: st}, &resp)
	var out sandboxModel
	sandboxTestMustSet(t, resp.Plan.Get(ctx, &out))
	return out, resp.Diagnostics
}

// TestSandboxModifyPlanRetention moves the clock past a paused box's
// deadline: no warning while ok, then "expires in", then "expired", and a
// no-op plan keeps every retention value from state throughout.
func TestSandboxModifyPlanRetention(t *testing.T) {
	r, clock := retentionTestResource(t, nil, nil)
	state := retentionTestPausedState()
	steps := []struct {
		advance time.Duration
		want    string // substring of the one warning; "" = none
	}{
		{30 * time.Minute, ""},
		{time.Hour, "expires in 30m: on docker the paused_sandbox rule will delete it at 2026-04-01T10:00:00Z."},
		{90 * time.Minute, "expired 1h ago: on docker the paused_sandbox rule was to delete it at 2026-04-01T10:00:00Z."},
	}
	for _, s := range steps {
		clock.Advance(s.advance)
		got, diags := retentionTestModifyPlan(t, r, state, &state)
		if diags.HasError() {
			t.Fatalf("at %s: %v", clock.Now(), diags)
		}
		if !got.ExpiresAt.Equal(state.ExpiresAt) ||
			!got.RetentionRule.Equal(state.RetentionRule) || !got.StatusSince.Equal(state.StatusSince) {
			t.Errorf("at %s: a no-op plan must keep the retention values of state, got %+v", clock.Now(), got)
		}
		if s.want == "" {
			if diags.WarningsCount() != 0 {
				t.Errorf("at %s: want no warning, got %v", clock.Now(), diags)
			}
			continue
		}
		if diags.WarningsCount() != 1 || !strings.Contains(diags.Warnings()[0].Detail(), s.want) {
			t.Errorf("at %s: want one warning containing %q, got %v", clock.Now(), s.want, diags)
		}
	}
}

// TestSandboxModifyPlanRetentionChanges: what moves the deadline leaves the
// retention values to the apply, and a deadline the change would bring
// close is warned about up front.
func TestSandboxModifyPlanRetentionChanges(t *testing.T) {
	r, _ := retentionTestResource(t, nil, nil)
	state := retentionTestPausedState()

	t.Run("lifecycle change keeps status_since", func(t *testing.T) {
		plan := state
		plan.Timeout = types.StringValue("1h")
		got, diags := retentionTestModifyPlan(t, r, plan, &state)
		if diags.HasError() || !got.ExpiresAt.IsUnknown() || !got.StatusSince.Equal(state.StatusSince) {
			t.Fatalf("got %+v, %v", got, diags)
		}
	})
	t.Run("state change: status_since unknown", func(t *testing.T) {
		plan := state
		plan.State = types.StringValue("running")
		got, diags := retentionTestModifyPlan(t, r, plan, &state)
		if diags.HasError() || !got.StatusSince.IsUnknown() || !got.ExpiresAt.IsUnknown() || got.Status.ValueString() != "running" {
			t.Fatalf("got %+v, %v", got, diags)
		}
	})
	t.Run("start with a short timeout warns", func(t *testing.T) {
		stopped := state
		stopped.State, stopped.Status = types.StringValue("stopped"), types.StringValue("stopped")
		plan := stopped
		plan.State, plan.Timeout = types.StringValue("running"), types.StringValue("30m")
		_, diags := retentionTestModifyPlan(t, r, plan, &stopped)
		if diags.WarningsCount() != 1 || !strings.Contains(diags.Warnings()[0].Detail(),
			"Once applied, this sandbox expires in 30m: on docker the running_sandbox rule will kill it") {
			t.Fatalf("want the planned-deadline warning, got %v", diags)
		}
	})
	t.Run("unpause keeps started_at: a long-running box past its timeout warns", func(t *testing.T) {
		plan := state
		plan.State, plan.Timeout = types.StringValue("running"), types.StringValue("30m")
		_, diags := retentionTestModifyPlan(t, r, plan, &state)
		if diags.WarningsCount() != 1 || !strings.Contains(diags.Warnings()[0].Detail(),
			"Once applied, this sandbox expired 90d7h ago: on docker the running_sandbox rule was to kill it at 2026-01-01T00:30:01Z") {
			t.Fatalf("want the planned-deadline warning, got %v", diags)
		}
	})
	t.Run("create: platform known, deadline unknown, close deadline warned", func(t *testing.T) {
		plan := sandboxTestModel()
		plan.Timeouts = sandboxTestTimeouts()
		plan.ID, plan.Status, plan.CreatedAt, plan.StartedAt = types.StringUnknown(), types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
		plan.Platform, plan.StatusSince = types.StringUnknown(), types.StringUnknown()
		plan.ExpiresAt, plan.RetentionRule, plan.RetentionAction = types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
		plan.Timeout, plan.OnTimeout = types.StringValue("45m"), types.StringValue("pause")
		got, diags := retentionTestModifyPlan(t, r, plan, nil)
		if got.Platform.ValueString() != "docker" || !got.ExpiresAt.IsUnknown() {
			t.Errorf("got platform %s, expires_at %s", got.Platform, got.ExpiresAt)
		}
		if diags.WarningsCount() != 1 || !strings.Contains(diags.Warnings()[0].Detail(), "expires in 45m: on docker the running_sandbox rule will pause it") {
			t.Fatalf("want the planned-deadline warning, got %v", diags)
		}
	})
	t.Run("timeout above the platform max is an error", func(t *testing.T) {
		r2, _ := retentionTestResource(t, nil, nil)
		docker, ok := r2.platform.(retentionTestDocker)
		if !ok {
			t.Fatalf("platform is %T", r2.platform)
		}
		r2.platform = sandboxMaxTimeoutPlatform{docker}
		plan := state
		plan.Timeout = types.StringValue("2d")
		_, diags := retentionTestModifyPlan(t, r2, plan, &state)
		if !diags.HasError() || !strings.Contains(diags.Errors()[0].Detail(), `timeout = "2d" is above the maximum of 1d on docker`) {
			t.Fatalf("want the max error, got %v", diags)
		}
	})
}

// sandboxMaxTimeoutPlatform caps timeouts at a day.
type sandboxMaxTimeoutPlatform struct{ retentionTestDocker }

func (p sandboxMaxTimeoutPlatform) Capabilities() platform.Capabilities {
	c := p.retentionTestDocker.Capabilities() // a fresh table: changed here only
	row := c.Attributes[platform.AttrSandboxTimeout]
	row.MaxDuration = 24 * time.Hour
	c.Attributes[platform.AttrSandboxTimeout] = row
	return c
}

// retentionTestRead runs Read on state and returns the new state (nil when
// removed) and the diagnostics.
func retentionTestRead(t *testing.T, r *sandboxResource, state sandboxModel) (*sandboxModel, diag.Diagnostics) {
	t.Helper()
	ctx := context.Background()
	st, _ := sandboxTestSchemaOf(t, r)
	sandboxTestMustSet(t, st.Set(ctx, state))
	resp := resource.ReadResponse{State: st}
	r.Read(ctx, resource.ReadRequest{State: st}, &resp)
	if resp.State.Raw.IsNull() {
		return nil, resp.Diagnostics
	}
	var out sandboxModel
	sandboxTestMustSet(t, resp.State.Get(ctx, &out))
	return &out, resp.Diagnostics
}

// TestSandboxReadRetention: Read keeps status_since while the status holds,
// restarts it when the status changed, and judges the deadline by the clock.
func TestSandboxReadRetention(t *testing.T) {
	box := &platform.Sandbox{ID: "box1", Name: "box", TemplateID: "tpl", Status: platform.StatePaused, PlatformStatus: "paused",
		CreatedAt: retentionTestT0.Add(-time.Hour), StartedAt: retentionTestT0.Add(-time.Hour)}
	r, clock := retentionTestResource(t, box, nil)
	state := retentionTestPausedState()

	clock.Advance(90 * time.Minute)
	got, diags := retentionTestRead(t, r, state)
	if diags.HasError() || got == nil {
		t.Fatalf("read: %v", diags)
	}
	if got.StatusSince.ValueString() != "2026-04-01T08:00:00Z" || got.ExpiresAt.ValueString() != "2026-04-01T10:00:00Z" ||
		got.RetentionRule.ValueString() != "paused_sandbox" ||
		got.RetentionAction.ValueString() != "delete" || got.Platform.ValueString() != "docker" {
		t.Fatalf("paused box after 90m: %+v", got)
	}

	// Stopped outside Terraform: a new status, counted from now.
	box.Status = platform.StateStopped
	got, _ = retentionTestRead(t, r, *got)
	if got.StatusSince.ValueString() != "2026-04-01T09:30:00Z" || !got.ExpiresAt.IsNull() {
		t.Fatalf("stopped box (no stopped_sandbox deadline on Docker): %+v", got)
	}

	// A platform that reports when the status began wins.
	box.StatusSince = retentionTestT0.Add(10 * time.Minute)
	got, _ = retentionTestRead(t, r, *got)
	if got.StatusSince.ValueString() != "2026-04-01T08:10:00Z" {
		t.Fatalf("platform-reported status_since ignored: %s", got.StatusSince)
	}
}

// TestSandboxReadGonePastDeadline: a box gone after its deadline is removed
// from state with the retention warning, not the bare "gone" one.
func TestSandboxReadGonePastDeadline(t *testing.T) {
	r, clock := retentionTestResource(t, nil, &platform.NotFoundError{Kind: "sandbox", ID: "box1"})
	clock.Advance(3 * time.Hour)
	got, diags := retentionTestRead(t, r, retentionTestPausedState())
	if got != nil || diags.HasError() || diags.WarningsCount() != 1 {
		t.Fatalf("want the box removed with one warning, got %+v, %v", got, diags)
	}
	w := diags.Warnings()[0]
	for _, want := range []string{"removed at its retention deadline", "2026-04-01T10:00:00Z", "paused_sandbox rule was to delete it",
		"the plan will create it again"} {
		if !strings.Contains(w.Summary()+" "+w.Detail(), want) {
			t.Errorf("warning %q / %q lacks %q", w.Summary(), w.Detail(), want)
		}
	}
}

// TestSandboxCreateRecordsRetention: Create records the lifecycle settings
// sent, status_since from the clock and the deadline they imply.
func TestSandboxCreateRecordsRetention(t *testing.T) {
	box := &platform.Sandbox{ID: "box1", Name: "box", TemplateID: "tpl", Status: platform.StateRunning, PlatformStatus: "running",
		CreatedAt: retentionTestT0, StartedAt: retentionTestT0}
	r, _ := retentionTestResource(t, box, nil)
	ctx := context.Background()
	st, pl := sandboxTestSchemaOf(t, r)
	plan := sandboxTestModel()
	plan.Timeouts = sandboxTestTimeouts()
	plan.ID, plan.Status, plan.CreatedAt, plan.StartedAt = types.StringUnknown(), types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
	plan.Platform = types.StringValue("docker")
	plan.StatusSince, plan.ExpiresAt, plan.RetentionRule, plan.RetentionAction = types.StringUnknown(), types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
	plan.Timeout, plan.OnTimeout = types.StringValue("1h"), types.StringValue("stop")
	sandboxTestMustSet(t, pl.Set(ctx, plan))
	resp := resource.CreateResponse{State: st}
	r.Create(ctx, resource.CreateRequest{Plan: pl}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	fake, ok := r.platform.Sandboxes().(*sandboxFakeBoxes)
	if !ok {
		t.Fatalf("sandbox service is %T", r.platform.Sandboxes())
	}
	if fake.gotSpec.Lifecycle != (platform.Lifecycle{Timeout: time.Hour, OnTimeout: platform.OnTimeoutStop}) {
		t.Errorf("spec.Lifecycle = %+v", fake.gotSpec.Lifecycle)
	}
	var got sandboxModel
	sandboxTestMustSet(t, resp.State.Get(ctx, &got))
	if got.StatusSince.ValueString() != "2026-04-01T08:00:00Z" || got.ExpiresAt.ValueString() != "2026-04-01T09:00:00Z" ||
		got.RetentionRule.ValueString() != "running_sandbox" || got.RetentionAction.ValueString() != "stop" {
		t.Fatalf("created box: %+v", got)
	}
}
