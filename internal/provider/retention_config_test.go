package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platforms"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

// retentionTestDef is the registered platform called name.
func retentionTestDef(t *testing.T, name string) platform.Definition {
	t.Helper()
	for _, d := range platforms.All() {
		if d.Name == name {
			return d
		}
	}
	t.Fatalf("no registered platform %q", name)
	return platform.Definition{}
}

// retentionTestBlock is a retention {} block value with the given settings
// and every other attribute null, as the schema of the registered platforms
// and testplat has it.
func retentionTestBlock(t *testing.T, set map[string]types.String) types.Object {
	t.Helper()
	attrTypes := map[string]attr.Type{"warn_before": types.StringType}
	vals := map[string]attr.Value{"warn_before": types.StringNull()}
	for _, k := range platform.RetentionTable(append(platforms.All(), testplatDefinition())).Keys() {
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
	clock := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	docker := retentionTestDef(t, "docker")
	paused := retention.Object{Platform: docker.Name, Kind: retention.Sandbox, State: retention.StatePaused,
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
		{name: "a key only another platform has", block: retentionTestBlock(t, map[string]types.String{"max_runtime": types.StringValue("12h")}),
			wantErr: "retention.max_runtime overrides the max_runtime rule, which Docker does not have, so it would change no deadline. " +
				"The keys of Docker's rules are auto_delete, filesystem_snapshot, paused_sandbox, running_sandbox, stopped_sandbox, volume_snapshot. " +
				"Remove it, or set it in the provider configuration of a platform with that rule."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, diags := retentionFromConfig(tt.block, clock, docker, "")
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
			retentionDurationValidator().ValidateString(context.Background(), req, &resp)
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

// TestRetentionBlockSchema: one described attribute per rule key of the
// registered platforms, and no other; each description lists every row of
// that key with its default.
func TestRetentionBlockSchema(t *testing.T) {
	defs := platforms.All()
	table := platform.RetentionTable(defs)
	attrs := retentionBlock(defs).Attributes
	if _, ok := attrs["warn_before"]; !ok {
		t.Error("retention block lacks warn_before")
	}
	for _, key := range table.Keys() {
		a, ok := attrs[key]
		if !ok {
			t.Errorf("retention block lacks %s", key)
			continue
		}
		desc := a.GetMarkdownDescription()
		for _, r := range table.Rules() {
			if r.Key != key {
				continue
			}
			row := r.Platform + " " + r.State + " " + r.Object
			if !strings.Contains(desc, row) {
				t.Errorf("%s: description %q does not list %q", key, desc, row)
			}
			if r.Window > 0 && !strings.Contains(desc, "default "+retentionHumanDuration(r.Window)) {
				t.Errorf("%s: description %q lacks the default %s of %s", key, desc, retentionHumanDuration(r.Window), row)
			}
		}
	}
	if len(attrs) != len(table.Keys())+1 {
		t.Errorf("retention block has %d attributes, want %d rule keys + warn_before", len(attrs), len(table.Keys()))
	}
	// The block follows the platforms given: Docker alone has no max_runtime.
	only := retentionBlock([]platform.Definition{retentionTestDef(t, "docker")}).Attributes
	if _, ok := only["max_runtime"]; ok {
		t.Error("a provider of Docker alone offers max_runtime")
	}
	if _, ok := only["auto_delete"]; !ok {
		t.Error("a provider of Docker alone lacks auto_delete")
	}
}

// TestRetentionRegisteredRules: the rows of every registered platform are
// well formed and declared under that platform's name, and the override
// keys (user-facing names) are stable.
func TestRetentionRegisteredRules(t *testing.T) {
	table := platform.RetentionTable(platforms.All())
	if err := table.Check(); err != nil {
		t.Error(err)
	}
	for _, d := range platforms.All() {
		if len(d.Retention) == 0 {
			t.Errorf("%s registers no retention rules", d.Name)
		}
		for _, r := range d.Retention {
			if r.Platform != d.Name {
				t.Errorf("%s registers a row of %q (%s)", d.Name, r.Platform, r.Key)
			}
		}
		if d.TierOverrides == nil {
			continue
		}
		tiers := []string{""}
		if s, ok := d.Setting("tier"); ok {
			tiers = append(tiers, s.OneOf...)
		}
		for _, tier := range tiers {
			if _, err := retention.NewTable(d.Retention).NewPolicy(d.TierOverrides(tier)); err != nil {
				t.Errorf("%s tier %q: %v", d.Name, tier, err)
			}
		}
	}
	want := "[archived_sandbox auto_delete filesystem_snapshot idle_sandbox max_runtime memory_snapshot paused_sandbox running_sandbox stopped_sandbox unused_template volume_snapshot]"
	if got := fmt.Sprint(table.Keys()); got != want {
		t.Errorf("Keys() = %s, want %s (keys are user-facing override names: renaming one breaks configurations)", got, want)
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
	fake := clock.NewFake(time.Date(2030, 5, 6, 7, 8, 9, 0, time.UTC))
	p, ok := NewWithClock("test", fake)().(*sbxProvider)
	if !ok || p.clock != fake {
		t.Fatalf("NewWithClock did not keep its clock: %#v", p)
	}
	if p, ok := New("test")().(*sbxProvider); !ok || p.clock != (clock.System{}) {
		t.Fatalf("New must use the system clock: %#v", p)
	}
}

// The platform's tier sits under the user's overrides: testplat's pro tier
// lifts the max_runtime cap to 24 h, base (or no tier) keeps 1 h, and a
// user's max_runtime wins over either.
func TestRetentionFromConfigTierDefaults(t *testing.T) {
	clock := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	started := clock.Now()
	def := testplatDefinition()
	box := retention.Object{Platform: def.Name, Kind: retention.Sandbox, State: retention.StateRunning,
		StartedAt: started, Timeout: 20 * time.Hour}
	nullBlock := types.ObjectNull(retentionTestBlock(t, nil).AttributeTypes(context.Background()))
	tests := []struct {
		name     string
		tier     string
		block    types.Object
		wantIn   time.Duration
		wantRule string
	}{
		{"base: 1 h cap", testplatTierBase, nullBlock, time.Hour, "max_runtime"},
		{"no tier: base", "", nullBlock, time.Hour, "max_runtime"},
		{"pro: the box's own timeout", testplatTierPro, nullBlock, 20 * time.Hour, "running_sandbox"},
		{"pro, empty block", testplatTierPro, retentionTestBlock(t, nil), 20 * time.Hour, "running_sandbox"},
		{"pro, user override wins", testplatTierPro,
			retentionTestBlock(t, map[string]types.String{"max_runtime": types.StringValue("2h")}), 2 * time.Hour, "max_runtime"},
		{"base, user override wins", testplatTierBase,
			retentionTestBlock(t, map[string]types.String{"max_runtime": types.StringValue("30h")}), 20 * time.Hour, "running_sandbox"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, diags := retentionFromConfig(tt.block, clock, def, tt.tier)
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

// TestRetentionFromConfigPlatformOnly: the policy holds the configured
// platform's rows only, and a key only another platform has is an error on
// its attribute, naming the platform's keys; the tier defaults of a
// platform never make that error.
func TestRetentionFromConfigPlatformOnly(t *testing.T) {
	clock := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	def := testplatDefinition()
	got, diags := retentionFromConfig(retentionTestBlock(t, map[string]types.String{"paused_sandbox": types.StringValue("1h")}), clock, def, testplatTierPro)
	if diags.HasError() {
		t.Fatal(diags)
	}
	if got := fmt.Sprint(got.policy.Table().Platforms()); got != "["+testplatName+"]" {
		t.Errorf("the policy holds rows of %s, want [%s]", got, testplatName)
	}
	// The boxes of every other platform (each with a row for paused boxes,
	// overridden here) get no deadline from it.
	for _, other := range platform.RetentionTable(platforms.All()).Platforms() {
		box := retention.Object{Platform: other, Kind: retention.Sandbox, State: retention.StatePaused, CreatedAt: clock.Now(), StateSince: clock.Now()}
		if d, ok := got.policy.Deadline(box, clock.Now()); ok {
			t.Errorf("a %s box got a deadline from a %s configuration: %+v", other, testplatName, d)
		}
	}

	_, diags = retentionFromConfig(retentionTestBlock(t, map[string]types.String{
		"auto_delete": types.StringValue("1h"), "volume_snapshot": types.StringValue("1d"), "paused_sandbox": types.StringValue("1h"),
	}), clock, def, "")
	if diags.ErrorsCount() != 2 {
		t.Fatalf("want one error per key %s has no rule for (auto_delete, volume_snapshot), got %v", testplatName, diags)
	}
	for i, key := range []string{"auto_delete", "volume_snapshot"} {
		e, ok := diags.Errors()[i].(diag.DiagnosticWithPath)
		if !ok || !e.Path().Equal(path.Root("retention").AtName(key)) {
			t.Errorf("error %d is not on retention.%s: %v", i, key, diags.Errors()[i])
			continue
		}
		for _, want := range []string{"Retention override changes nothing on Testplat", "retention." + key + " overrides the " + key + " rule, which Testplat does not have",
			"The keys of Testplat's rules are max_runtime, memory_snapshot, paused_sandbox, running_sandbox, stopped_sandbox."} {
			if !strings.Contains(e.Summary()+" "+e.Detail(), want) {
				t.Errorf("error %q: %q lacks %q", e.Summary(), e.Detail(), want)
			}
		}
	}

	// A platform without rules takes no override, and says so.
	_, diags = retentionFromConfig(retentionTestBlock(t, map[string]types.String{"paused_sandbox": types.StringValue("1h")}), clock,
		platform.Definition{Name: "bare", Title: "Bare"}, "")
	if !diags.HasError() || !strings.Contains(diags.Errors()[0].Detail(), "Bare has no rules") {
		t.Errorf("a platform without rules: %v", diags)
	}

	// Tier defaults naming a key the platform lacks are the platform's bug,
	// reported as such rather than blamed on the user's block.
	broken := def
	broken.TierOverrides = func(string) map[string]time.Duration { return map[string]time.Duration{"nope": time.Hour} }
	_, diags = retentionFromConfig(types.ObjectNull(retentionTestBlock(t, nil).AttributeTypes(context.Background())), clock, broken, "")
	if !diags.HasError() || !strings.Contains(diags.Errors()[0].Detail(), `unknown retention override "nope"`) {
		t.Errorf("broken tier defaults: %v", diags)
	}
}

// TestDefaultRetentionSettings: without provider data, deadlines follow
// the registered platforms' rows, with no overrides.
func TestDefaultRetentionSettings(t *testing.T) {
	s := retentionFrom(nil)
	if s.warnBefore != defaultWarnBefore || s.clock != (clock.System{}) {
		t.Errorf("defaults: %+v", s)
	}
	if got, want := fmt.Sprint(s.policy.Table().Rules()), fmt.Sprint(platform.RetentionTable(platforms.All()).Rules()); got != want {
		t.Errorf("default policy rows = %s, want the registered platforms' %s", got, want)
	}
	// Each platform's boxes follow its own rows as they are, whatever its
	// tiers would change: a running box without a timeout, the same as the
	// policy of that platform's rows alone.
	started := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, def := range platforms.All() {
		own, err := retention.NewTable(def.Retention).NewPolicy(nil)
		if err != nil {
			t.Fatal(err)
		}
		box := retention.Object{Platform: def.Name, Kind: retention.Sandbox, State: retention.StateRunning, CreatedAt: started, StartedAt: started, StateSince: started}
		want, wantOK := own.Deadline(box, started)
		if got, ok := s.policy.Deadline(box, started); ok != wantOK || !got.At.Equal(want.At) || got.Rule != want.Rule {
			t.Errorf("a %s box without a timeout: %+v %v, want its own rows' %+v %v", def.Name, got, ok, want, wantOK)
		}
	}
	if (retentionSettings{}).orDefault().clock == nil {
		t.Error("orDefault left the clock unset")
	}
}
