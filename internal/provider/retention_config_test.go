package provider

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/docker"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

// retentionTestBlock is a retention {} block value with the given settings
// and every other attribute null.
func retentionTestBlock(t *testing.T, set map[string]types.String) types.Object {
	t.Helper()
	attrTypes := map[string]attr.Type{"warn_before": types.StringType}
	vals := map[string]attr.Value{"warn_before": types.StringNull()}
	for _, k := range retention.Keys() {
		attrTypes[k] = types.StringType
		vals[k] = types.StringNull()
	}
	for k, v := range set {
		if _, ok := attrTypes[k]; !ok {
			t.Fatalf("retention block has no attribute %q", k)
		}
		vals[k] = v
	}
	return types.ObjectValueMust(attrTypes, vals)
}

func TestRetentionFromConfig(t *testing.T) {
	clock := retention.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	paused := retention.Object{Platform: retention.Docker, Kind: retention.Sandbox, State: retention.StatePaused,
		StateSince: clock.Now()}
	tests := []struct {
		name        string
		block       types.Object
		wantErr     string // substring of the error detail; "" = no error
		wantWarn    time.Duration
		wantPausedD time.Duration // deadline of a paused Docker box after StateSince; 0 = none
	}{
		{name: "no block: defaults", block: types.ObjectNull(retentionTestBlock(t, nil).AttributeTypes(context.Background())),
			wantWarn: 72 * time.Hour},
		{name: "empty block: defaults", block: retentionTestBlock(t, nil), wantWarn: 72 * time.Hour},
		{name: "warn_before and an override", block: retentionTestBlock(t, map[string]types.String{
			"warn_before": types.StringValue("1h"), "paused_sandbox": types.StringValue("2h")}),
			wantWarn: time.Hour, wantPausedD: 2 * time.Hour},
		{name: "days", block: retentionTestBlock(t, map[string]types.String{
			"warn_before": types.StringValue("3d"), "paused_sandbox": types.StringValue("30d")}),
			wantWarn: 72 * time.Hour, wantPausedD: 30 * 24 * time.Hour},
		{name: "bad warn_before", block: retentionTestBlock(t, map[string]types.String{"warn_before": types.StringValue("soon")}),
			wantErr: `retention.warn_before = "soon": not a duration`},
		{name: "negative override", block: retentionTestBlock(t, map[string]types.String{"paused_sandbox": types.StringValue("-1h")}),
			wantErr: `retention.paused_sandbox = "-1h": must not be negative`},
		{name: "unknown override", block: retentionTestBlock(t, map[string]types.String{"stopped_sandbox": types.StringUnknown()}),
			wantErr: "retention.stopped_sandbox depends on a value known only after apply"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, diags := retentionFromConfig(tt.block, clock, nil)
			if tt.wantErr != "" {
				if !diags.HasError() || !strings.Contains(diags.Errors()[0].Detail(), tt.wantErr) {
					t.Fatalf("want error containing %q, got %v", tt.wantErr, diags)
				}
				return
			}
			if diags.HasError() {
				t.Fatalf("unexpected error: %v", diags)
			}
			if got.warnBefore != tt.wantWarn {
				t.Errorf("warnBefore = %s, want %s", got.warnBefore, tt.wantWarn)
			}
			if got.now() != clock.Now() {
				t.Errorf("the settings must use the injected clock")
			}
			d, ok := got.policy.Deadline(paused, clock.Now())
			switch {
			case tt.wantPausedD == 0 && ok:
				t.Errorf("paused Docker box: unexpected deadline %v", d)
			case tt.wantPausedD != 0 && (!ok || d.At.Sub(paused.StateSince) != tt.wantPausedD):
				t.Errorf("paused Docker box: deadline %v (ok %v), want %s after status_since", d.At, ok, tt.wantPausedD)
			}
		})
	}
}

// TestRetentionDurationValidator: plan-time errors name the attribute and value.
func TestRetentionDurationValidator(t *testing.T) {
	tests := []struct {
		value string
		want  string
	}{
		{"72h", ""}, {"0", ""}, {"1d12h", ""}, {"90m", ""},
		{"soon", `retention.paused_sandbox = "soon": not a duration`},
		{"-2h", `retention.paused_sandbox = "-2h": must not be negative`},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			req := validator.StringRequest{Path: path.Root("retention").AtName("paused_sandbox"), ConfigValue: types.StringValue(tt.value)}
			var resp validator.StringResponse
			retentionDurationValidator{}.ValidateString(context.Background(), req, &resp)
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

// TestRetentionBlockSchema: one described attribute per rule key; each
// description lists every row of that key of a shipped platform with its
// default, and no row of a platform not shipped yet. A key only coming
// platforms have says it changes no deadline yet.
func TestRetentionBlockSchema(t *testing.T) {
	var resp provider.SchemaResponse
	(&sbxProvider{}).Schema(context.Background(), provider.SchemaRequest{}, &resp)
	block, ok := resp.Schema.Blocks["retention"]
	if !ok {
		t.Fatal("provider schema has no retention block")
	}
	attrs := block.GetNestedObject().GetAttributes()
	if _, ok := attrs["warn_before"]; !ok {
		t.Error("retention block lacks warn_before")
	}
	for _, key := range retention.Keys() {
		a, ok := attrs[key]
		if !ok {
			t.Errorf("retention block lacks %s", key)
			continue
		}
		desc := a.GetMarkdownDescription()
		shippedRows := 0
		for _, r := range retention.Rules() {
			if r.Key != key {
				continue
			}
			row := r.Platform + " " + r.State + " " + r.Object
			if !retention.IsShipped(r.Platform) {
				if strings.Contains(desc, r.Platform) {
					t.Errorf("%s: description %q names %s, which is not shipped", key, desc, r.Platform)
				}
				continue
			}
			shippedRows++
			if !strings.Contains(desc, row) {
				t.Errorf("%s: description %q does not list %q", key, desc, row)
			}
			if r.Window > 0 && !strings.Contains(desc, "default "+retentionHumanDuration(r.Window)) {
				t.Errorf("%s: description %q lacks the default %s of %s", key, desc, retentionHumanDuration(r.Window), row)
			}
		}
		noRule := strings.Contains(desc, "No shipped platform (docker, e2b) has a rule with this key yet: "+
			"the value is accepted and changes no deadline.")
		if noRule != (shippedRows == 0) {
			t.Errorf("%s: %d rows of shipped platforms, but the description says %q", key, shippedRows, desc)
		}
	}
	for _, key := range []string{"archived_sandbox", "idle_sandbox", "unused_snapshot"} {
		if desc := attrs[key].GetMarkdownDescription(); strings.Contains(desc, "Replaces:") {
			t.Errorf("%s applies to no shipped platform, but its description offers it as replacing a rule: %q", key, desc)
		}
	}
	if len(attrs) != len(retention.Keys())+1 {
		t.Errorf("retention block has %d attributes, want %d rule keys + warn_before", len(attrs), len(retention.Keys()))
	}
}

// TestRetentionShippedPlatformNames: the platforms the provider configures
// are the retention package's shipped platforms, under the same names, so
// the guide and the descriptions show the rows of exactly those platforms.
func TestRetentionShippedPlatformNames(t *testing.T) {
	e, err := e2b.New(e2b.Config{APIKey: "k", Tier: e2b.TierBase})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{(&docker.Platform{}).Name(), e.Name()}
	if got, want := strings.Join(names, " "), strings.Join(retention.Shipped(), " "); got != want {
		t.Errorf("the provider's platforms are %q, retention.Shipped() is %q", got, want)
	}
}

func TestRetentionHumanDuration(t *testing.T) {
	tests := []struct {
		in   time.Duration
		want string
	}{
		{15 * time.Second, "15s"}, {15 * time.Minute, "15m"}, {5 * time.Hour, "5h"}, {90 * time.Minute, "1h30m"},
		{7 * 24 * time.Hour, "7d"}, {36 * time.Hour, "1d12h"}, {-2 * time.Hour, "2h"}, {0, "0s"},
		{4*time.Hour + 59*time.Minute + 50*time.Second, "5h"},
	}
	for _, tt := range tests {
		if got := retentionHumanDuration(tt.in); got != tt.want {
			t.Errorf("retentionHumanDuration(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestNewWithClock: the option-style constructor hands its clock to the
// provider; New keeps the wall clock.
func TestNewWithClock(t *testing.T) {
	clock := retention.NewFakeClock(time.Date(2030, 5, 6, 7, 8, 9, 0, time.UTC))
	p, ok := NewWithClock("test", clock)().(*sbxProvider)
	if !ok || p.clock != clock {
		t.Fatalf("NewWithClock did not keep its clock: %#v", p)
	}
	if p, ok := New("test")().(*sbxProvider); !ok || p.clock != (retention.SystemClock{}) {
		t.Fatalf("New must use the system clock: %#v", p)
	}
}

// The platform's tier sits under the user's overrides: E2B Pro lifts the
// max_runtime cap to 24 h, Base keeps 1 h, and a user's max_runtime wins
// over either.
func TestRetentionFromConfigTierDefaults(t *testing.T) {
	clock := retention.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	started := clock.Now()
	box := retention.Object{Platform: retention.E2B, Kind: retention.Sandbox, State: retention.StateRunning,
		StartedAt: started, Timeout: 20 * time.Hour}
	e2bOn := func(tier string) platform.Platform {
		p, err := e2b.New(e2b.Config{APIKey: "k", Tier: tier})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	nullBlock := types.ObjectNull(retentionTestBlock(t, nil).AttributeTypes(context.Background()))
	tests := []struct {
		name     string
		plat     platform.Platform
		block    types.Object
		wantIn   time.Duration
		wantRule string
	}{
		{"e2b base: 1 h cap", e2bOn(e2b.TierBase), nullBlock, time.Hour, "max_runtime"},
		{"e2b pro: the box's own timeout", e2bOn(e2b.TierPro), nullBlock, 20 * time.Hour, "running_sandbox"},
		{"e2b pro, empty block", e2bOn(e2b.TierPro), retentionTestBlock(t, nil), 20 * time.Hour, "running_sandbox"},
		{"e2b pro, user override wins", e2bOn(e2b.TierPro),
			retentionTestBlock(t, map[string]types.String{"max_runtime": types.StringValue("2h")}), 2 * time.Hour, "max_runtime"},
		{"e2b base, user override wins", e2bOn(e2b.TierBase),
			retentionTestBlock(t, map[string]types.String{"max_runtime": types.StringValue("30h")}), 20 * time.Hour, "running_sandbox"},
		{"no platform: table", nil, nullBlock, time.Hour, "max_runtime"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, diags := retentionFromConfig(tt.block, clock, tt.plat)
			if diags.HasError() {
				t.Fatalf("unexpected error: %v", diags)
			}
			d, ok := got.policy.Deadline(box, clock.Now())
			if !ok {
				t.Fatal("no deadline")
			}
			if want := started.Add(tt.wantIn); !d.At.Equal(want) || d.Rule != tt.wantRule {
				t.Errorf("deadline = %s (%s), want %s (%s)", d.At, d.Rule, want, tt.wantRule)
			}
		})
	}
}
