package provider

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

// templateDeadlineWindow is the test platform's template rule: a template
// no box started from for 14 days is deactivated, as Daytona does.
const templateDeadlineWindow = 14 * 24 * time.Hour

// templateDeadlineRule is testplat's template row.
func templateDeadlineRule() retention.Rule {
	return retention.Rule{Key: "unused_template", Platform: testplatName, Object: retention.Template, State: retention.TemplateReady,
		Window: templateDeadlineWindow, Since: retention.SinceLastUsed, Action: retention.ActionDeactivate, Enforced: true,
		Source: "unit test platform"}
}

// templateDeadlineSettings are testplat's rows plus its template rule,
// judged on clock with a 72h warning.
func templateDeadlineSettings(t *testing.T, clock clock.Clock, overrides map[string]time.Duration) retentionSettings {
	t.Helper()
	policy, err := retention.NewTable(testplatRetention(), []retention.Rule{templateDeadlineRule()}).NewPolicy(overrides)
	if err != nil {
		t.Fatal(err)
	}
	return retentionSettings{policy: policy, warnBefore: 72 * time.Hour, clock: clock}
}

// templateDeadlineFake is a platform whose templates are kept in memory:
// adopted from an image (replaced when it changes), rebuilt in place for a
// new start_cmd, and, when it offers activation, activated again after the
// test deactivates them. Activation counts as a use, as the platform's
// deadline must start over.
type templateDeadlineFake struct {
	name       string
	activation bool
	clock      clock.Clock

	mu          sync.Mutex
	templates   map[string]*platform.Template
	activations int
	rebuilds    int
}

func newTemplateDeadlineFake(name string, activation bool, clock clock.Clock) *templateDeadlineFake {
	return &templateDeadlineFake{name: name, activation: activation, clock: clock, templates: map[string]*platform.Template{}}
}

func (f *templateDeadlineFake) Name() string { return f.name }
func (f *templateDeadlineFake) Capabilities() platform.Capabilities {
	return platform.Capabilities{Attributes: platform.Attributes{
		platform.AttrTemplateImage:    {Support: platform.Replace},
		platform.AttrTemplateStartCmd: {Support: platform.InPlace},
	}}
}
func (f *templateDeadlineFake) Close() error                        { return nil }
func (f *templateDeadlineFake) Templates() platform.TemplateService { return f }
func (f *templateDeadlineFake) Volumes() platform.VolumeService     { return nil }
func (f *templateDeadlineFake) Sandboxes() platform.SandboxService  { return nil }
func (f *templateDeadlineFake) Snapshots() platform.SnapshotService { return nil }
func (f *templateDeadlineFake) Extensions() platform.Extensions {
	if f.activation {
		return platform.Extensions{TemplateActivation: f}
	}
	return platform.Extensions{}
}

func (f *templateDeadlineFake) Create(_ context.Context, spec platform.TemplateSpec) (*platform.Template, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := &platform.Template{ID: "tpl-" + spec.Name, Name: spec.Name, BuildID: "build-1", Status: retention.TemplateReady,
		Image: spec.Image, StartCmd: spec.StartCmd, CreatedAt: f.clock.Now().UTC(), Labels: map[string]string{}}
	f.templates[t.ID] = t
	c := *t
	return &c, nil
}

func (f *templateDeadlineFake) Rebuild(_ context.Context, id string, spec platform.TemplateSpec) (*platform.Template, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t, ok := f.templates[id]
	if !ok {
		return nil, &platform.NotFoundError{Kind: "template", ID: id}
	}
	f.rebuilds++
	t.BuildID = fmt.Sprintf("build-%d", f.rebuilds+1)
	t.StartCmd, t.Status, t.CreatedAt = spec.StartCmd, retention.TemplateReady, f.clock.Now().UTC()
	c := *t
	return &c, nil
}

func (f *templateDeadlineFake) Get(_ context.Context, id string) (*platform.Template, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t, ok := f.templates[id]
	if !ok {
		return nil, &platform.NotFoundError{Kind: "template", ID: id}
	}
	c := *t
	return &c, nil
}

func (f *templateDeadlineFake) List(context.Context, platform.TemplateFilter) ([]platform.Template, error) {
	return nil, nil
}

func (f *templateDeadlineFake) Delete(_ context.Context, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.templates, id)
	return nil
}

// Activate is the platform's activation: the template is ready again,
// and its last use is now.
func (f *templateDeadlineFake) Activate(_ context.Context, id string) (*platform.Template, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t, ok := f.templates[id]
	if !ok {
		return nil, &platform.NotFoundError{Kind: "template", ID: id}
	}
	f.activations++
	t.Status, t.LastUsedAt = retention.TemplateReady, f.clock.Now().UTC()
	c := *t
	return &c, nil
}

// set changes every template on the platform, as the platform does by
// itself (a box started from it, a deactivation).
func (f *templateDeadlineFake) set(change func(*platform.Template)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, t := range f.templates {
		change(t)
	}
}

func (f *templateDeadlineFake) counts() (activations, rebuilds int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.activations, f.rebuilds
}

// templateDeadlineDefinition registers fake as a platform with rows.
func templateDeadlineDefinition(fake *templateDeadlineFake, rows []retention.Rule) platform.Definition {
	return platform.Definition{
		Name: fake.name, Title: strings.ToUpper(fake.name[:1]) + fake.name[1:], Description: "Test platform.",
		Retention:    rows,
		Capabilities: fake.Capabilities,
		Configure:    func(context.Context, platform.Config) (platform.Platform, error) { return fake, nil },
	}
}

// templateDeadlineState is an adopted template in state on testplat,
// recorded at created with the deadline at expires.
func templateDeadlineState(status string, created, expires time.Time, rs retentionSettings) templateModel {
	m := templateModel{
		ID: types.StringValue("tpl-agent"), Name: types.StringValue("agent"), Image: types.StringValue("agent:1"),
		Labels:    types.MapNull(types.StringType),
		BuildID:   types.StringValue("build-1"),
		Status:    types.StringValue(status),
		CreatedAt: timeStringOrNull(created),
		Platform:  types.StringValue(testplatName),
		Timeouts: timeouts.Value{Object: types.ObjectNull(map[string]attr.Type{
			"create": types.StringType, "update": types.StringType, "delete": types.StringType,
		})},
	}
	if expires.IsZero() {
		templateSetRetentionFields(&m, retentionFieldsOf(retention.Deadline{}, false, rs.now(), rs.warnBefore))
		return m
	}
	d := retention.Deadline{At: expires, Rule: "unused_template", Action: retention.ActionDeactivate, Enforced: true}
	templateSetRetentionFields(&m, retentionFieldsOf(d, true, rs.now(), rs.warnBefore))
	return m
}

// templateDeadlineModifyPlan runs ModifyPlan for an update (state set) or
// a create (state nil) of planned, returning the plan and diagnostics.
func templateDeadlineModifyPlan(t *testing.T, r *templateResource, planned templateModel, state *templateModel) (templateModel, resource.ModifyPlanResponse) {
	t.Helper()
	req := resource.ModifyPlanRequest{
		Config: tfsdk.Config(templateTestTFValue(t, r, planned)),
		Plan:   tfsdk.Plan(templateTestTFValue(t, r, planned)),
	}
	if state != nil {
		req.State = templateTestTFValue(t, r, *state)
	} else {
		req.State = tfsdk.State{Schema: req.Plan.Schema, Raw: tftypes.NewValue(req.Plan.Schema.Type().TerraformType(t.Context()), nil)}
	}
	resp := resource.ModifyPlanResponse{Plan: req.Plan}
	r.ModifyPlan(t.Context(), req, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	var got templateModel
	if diags := resp.Plan.Get(t.Context(), &got); diags.HasError() {
		t.Fatal(diags)
	}
	return got, resp
}

// templateDeadlineWarnings renders the warnings as "summary: detail" lines.
func templateDeadlineWarnings(diags diag.Diagnostics) []string {
	var out []string
	for _, d := range diags.Warnings() {
		out = append(out, d.Summary()+": "+d.Detail())
	}
	return out
}

// TestTemplateModifyPlanRetention: plan warns before a template's deadline
// and flags one past it, keeps every retention attribute from state (no
// diff by itself), plans an in-place activation of a template the platform
// deactivated where it offers activation and nothing elsewhere, and warns
// on a create whose deadline would fall within warn_before.
func TestTemplateModifyPlanRetention(t *testing.T) {
	now := time.Date(2026, 5, 20, 12, 0, 0, 0, time.UTC)
	clock := clock.NewFake(now)
	rs := templateDeadlineSettings(t, clock, nil)
	rows := append(testplatRetention(), templateDeadlineRule())
	activating, inert := newTemplateDeadlineFake(testplatName, true, clock), newTemplateDeadlineFake(testplatName, false, clock)
	withActivation := &templateResource{platform: activating, retention: rs,
		defs: []platform.Definition{templateDeadlineDefinition(activating, rows)}}
	withoutActivation := &templateResource{platform: inert, retention: rs,
		defs: []platform.Definition{templateDeadlineDefinition(inert, rows)}}

	cases := []struct {
		name         string
		r            *templateResource
		state        templateModel
		wantStatus   string
		wantKept     bool // retention attributes and last_used_at planned as in state
		wantWarnings []string
	}{
		{"far from the deadline: no warning", withActivation,
			templateDeadlineState("ready", now.Add(-24*time.Hour), now.Add(13*24*time.Hour), rs), "ready", true, nil},
		{"within warn_before: a warning naming rule, action and date", withActivation,
			templateDeadlineState("ready", now.Add(-12*24*time.Hour), now.Add(48*time.Hour), rs), "ready", true,
			[]string{"Template retention deadline in 2d: This template expires in 2d: on testplat the unused_template rule will deactivate it at 2026-05-22T12:00:00Z. testplat acts on this deadline by itself. A box started from the template moves the deadline (where the rule counts from the last use); so does the provider's retention.unused_template override"}},
		{"past the deadline: flagged", withActivation,
			templateDeadlineState("ready", now.Add(-15*24*time.Hour), now.Add(-time.Hour), rs), "ready", true,
			[]string{"Template past its retention deadline: This template expired 1h ago: on testplat the unused_template rule was to deactivate it at 2026-05-20T11:00:00Z. testplat acts on this deadline by itself."}},
		{"inactive where the platform activates: an update to ready", withActivation,
			templateDeadlineState(platform.TemplateInactive, now.Add(-20*24*time.Hour), time.Time{}, rs), "ready", false,
			[]string{`Template deactivated by Testplat: Testplat deactivated the template "tpl-agent" because no box started from it for a while (its unused_template rule deactivates a template no box started from for 14d): its status is "inactive", and no box starts from it until it is activated again. It was built at 2026-04-30T12:00:00Z and the platform reports no use since.`,
				`Apply activates it again in place (status "inactive" → "ready")`}},
		{"inactive where the platform cannot activate: nothing planned", withoutActivation,
			templateDeadlineState(platform.TemplateInactive, now.Add(-20*24*time.Hour), time.Time{}, rs), platform.TemplateInactive, true,
			[]string{`Template inactive on Testplat: Testplat reports the template "tpl-agent" as "inactive"`, "the plan changes nothing"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			planned := tc.state
			// Computed attributes the framework plans from state (UseStateForUnknown).
			got, resp := templateDeadlineModifyPlan(t, tc.r, planned, &tc.state)
			if len(resp.RequiresReplace) != 0 {
				t.Errorf("RequiresReplace = %v, want none", resp.RequiresReplace)
			}
			if got.Status.ValueString() != tc.wantStatus || got.Status.IsUnknown() {
				t.Errorf("status planned %s, want %q", got.Status, tc.wantStatus)
			}
			kept := got.ExpiresAt.Equal(tc.state.ExpiresAt) &&
				got.RetentionRule.Equal(tc.state.RetentionRule) && got.RetentionAction.Equal(tc.state.RetentionAction) &&
				got.LastUsedAt.Equal(tc.state.LastUsedAt)
			if kept != tc.wantKept {
				t.Errorf("retention kept from state = %v, want %v: planned %s %s %s %s", kept, tc.wantKept,
					got.ExpiresAt, got.RetentionRule, got.RetentionAction, got.LastUsedAt)
			}
			if !tc.wantKept && (!got.ExpiresAt.IsUnknown() || !got.RetentionRule.IsUnknown() || !got.LastUsedAt.IsUnknown()) {
				t.Errorf("an activation leaves the deadline and last use to the apply: planned %s %s %s", got.ExpiresAt, got.RetentionRule, got.LastUsedAt)
			}
			if !got.BuildID.Equal(tc.state.BuildID) || !got.CreatedAt.Equal(tc.state.CreatedAt) || !got.Platform.Equal(tc.state.Platform) {
				t.Errorf("build_id, created_at or platform changed: %s %s %s", got.BuildID, got.CreatedAt, got.Platform)
			}
			warnings := strings.Join(templateDeadlineWarnings(resp.Diagnostics), "\n")
			if len(tc.wantWarnings) == 0 && warnings != "" {
				t.Errorf("unexpected warnings:\n%s", warnings)
			}
			for _, w := range tc.wantWarnings {
				if !strings.Contains(warnings, w) {
					t.Errorf("warnings lack %q:\n%s", w, warnings)
				}
			}
		})
	}

	t.Run("a rebuild of an inactive template rebuilds, no activation", func(t *testing.T) {
		state := templateDeadlineState(platform.TemplateInactive, now.Add(-20*24*time.Hour), time.Time{}, rs)
		planned := state
		planned.StartCmd = types.StringValue("/agent")
		got, resp := templateDeadlineModifyPlan(t, withActivation, planned, &state)
		if !got.Status.IsUnknown() || !got.BuildID.IsUnknown() || !got.ExpiresAt.IsUnknown() || !got.LastUsedAt.IsUnknown() {
			t.Errorf("a rebuild plans status, build_id, expires_at, last_used_at unknown: %s %s %s %s", got.Status, got.BuildID, got.ExpiresAt, got.LastUsedAt)
		}
		if w := templateDeadlineWarnings(resp.Diagnostics); len(w) != 0 {
			t.Errorf("warnings %v, want none", w)
		}
	})

	t.Run("create: the deadline it would get, warned when within warn_before", func(t *testing.T) {
		planned := templateDeadlineState("ready", time.Time{}, time.Time{}, rs)
		planned.ID, planned.BuildID, planned.Status, planned.CreatedAt = types.StringUnknown(), types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
		planned.Platform, planned.LastUsedAt = types.StringUnknown(), types.StringUnknown()
		templateSetRetentionFields(&planned, retentionFields{ExpiresAt: types.StringUnknown(), Status: types.StringUnknown(),
			Rule: types.StringUnknown(), Action: types.StringUnknown()})
		got, resp := templateDeadlineModifyPlan(t, withActivation, planned, nil)
		if got.Platform.ValueString() != testplatName || !got.ExpiresAt.IsUnknown() {
			t.Errorf("planned platform %s, expires_at %s; want testplat, unknown", got.Platform, got.ExpiresAt)
		}
		if w := templateDeadlineWarnings(resp.Diagnostics); len(w) != 0 {
			t.Errorf("a 14d deadline warned with a 72h warn_before: %v", w)
		}
		short := &templateResource{platform: withActivation.platform,
			retention: templateDeadlineSettings(t, clock, map[string]time.Duration{"unused_template": 24 * time.Hour})}
		_, resp = templateDeadlineModifyPlan(t, short, planned, nil)
		warnings := strings.Join(templateDeadlineWarnings(resp.Diagnostics), "\n")
		if !strings.Contains(warnings, "Once applied, this template expires in 1d: on testplat the unused_template rule will deactivate it at 2026-05-21T12:00:00Z") {
			t.Errorf("warnings = %q", warnings)
		}
	})

	t.Run("a platform without a template rule: null, and no warning", func(t *testing.T) {
		none := &templateResource{platform: newTemplateDeadlineFake("norule", false, clock), retention: rs}
		planned := templateDeadlineState("ready", time.Time{}, time.Time{}, rs)
		planned.ID, planned.BuildID, planned.Status, planned.CreatedAt = types.StringUnknown(), types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
		planned.Platform, planned.LastUsedAt = types.StringUnknown(), types.StringUnknown()
		templateSetRetentionFields(&planned, retentionFields{ExpiresAt: types.StringUnknown(), Status: types.StringUnknown(),
			Rule: types.StringUnknown(), Action: types.StringUnknown()})
		got, resp := templateDeadlineModifyPlan(t, none, planned, nil)
		if !got.ExpiresAt.IsNull() || !got.RetentionRule.IsNull() || !got.RetentionAction.IsNull() {
			t.Errorf("planned %s %s %s, want all null", got.ExpiresAt, got.RetentionRule, got.RetentionAction)
		}
		if got.Platform.ValueString() != "norule" || len(resp.Diagnostics) != 0 {
			t.Errorf("platform %s, diagnostics %v", got.Platform, resp.Diagnostics)
		}
	})
}

// TestTemplateAfterPlatformRetention: the retention attributes follow the
// template's state and last use (else its creation), judged on the clock;
// a template that is not ready has no deadline; a platform without a
// template rule records none.
func TestTemplateAfterPlatformRetention(t *testing.T) {
	created := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	clock := clock.NewFake(created)
	rs := templateDeadlineSettings(t, clock, nil)
	at := func(d time.Duration) string { return created.Add(d).Format(time.RFC3339) }
	cases := []struct {
		name                                       string
		platformName, status                       string
		lastUsed                                   time.Time
		now                                        time.Duration
		expires, rstatus, rule, action, lastUsedAt string
	}{
		{"never used: from creation", testplatName, "ready", time.Time{}, time.Hour, at(templateDeadlineWindow), "ok", "unused_template", "deactivate", ""},
		{"used: from the last use", testplatName, "ready", created.Add(5 * 24 * time.Hour), 6 * 24 * time.Hour,
			at(19 * 24 * time.Hour), "ok", "unused_template", "deactivate", at(5 * 24 * time.Hour)},
		{"within warn_before", testplatName, "ready", time.Time{}, 12 * 24 * time.Hour, at(templateDeadlineWindow), "expiring", "unused_template", "deactivate", ""},
		{"past it", testplatName, "ready", time.Time{}, 15 * 24 * time.Hour, at(templateDeadlineWindow), "expired", "unused_template", "deactivate", ""},
		{"inactive: no rule applies", testplatName, platform.TemplateInactive, time.Time{}, 15 * 24 * time.Hour, "", "ok", "", "", ""},
		{"no template rule", "norule", "ready", created.Add(time.Hour), 15 * 24 * time.Hour, "", "", "", "", at(time.Hour)},
	}
	str := func(v types.String) string {
		if v.IsNull() {
			return ""
		}
		return v.ValueString()
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clock.Set(created.Add(tc.now))
			tpl := &platform.Template{ID: "tpl-agent", Status: tc.status, CreatedAt: created, LastUsedAt: tc.lastUsed}
			var m templateModel
			m.applyBuild(tpl)
			templateAfterPlatform(&m, tpl, tc.platformName, rs)
			// The judgement is not stored (state_upgrade.go): it is what a
			// plan warns on, computed from the same record.
			judged := templateRetentionFields(m, tc.platformName, rs).Status
			got := []string{str(m.ExpiresAt), str(judged), str(m.RetentionRule), str(m.RetentionAction), str(m.LastUsedAt), str(m.Platform)}
			want := []string{tc.expires, tc.rstatus, tc.rule, tc.action, tc.lastUsedAt, tc.platformName}
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}

// templateDeadlineConfig is an adopted template on the platform block
// given, with the start_cmd given ("" for none).
func templateDeadlineConfig(block, startCmd string) string {
	cmd := ""
	if startCmd != "" {
		cmd = fmt.Sprintf("  start_cmd = %q\n", startCmd)
	}
	return fmt.Sprintf(`
provider "sbx" {
  %s {}
}

resource "sbx_template" "t" {
  name  = "agent"
  image = "agent:1"
%s}
`, block, cmd)
}

const templateDeadlineAddr = "sbx_template.t"

// TestAccTemplate_deadlineAndActivation drives a template through its
// deadline with the terraform CLI on a platform with a template rule and
// activation: created with a deadline 14 days out; a box started from it
// moves the deadline (a refresh, no plan); deactivated by the platform,
// the plan is an in-place update to ready, the apply activates it once,
// and the next plan is empty; a rebuild in place still works.
func TestAccTemplate_deadlineAndActivation(t *testing.T) {
	acctest.RequireTerraform(t)
	t0 := time.Now().UTC().Truncate(time.Second)
	clock := clock.NewFake(t0)
	fake := newTemplateDeadlineFake(testplatName, true, clock)
	rows := append(testplatRetention(), templateDeadlineRule())
	factories := testAccFactories(Options{Clock: clock, Platforms: []platform.Definition{templateDeadlineDefinition(fake, rows)}})
	at := func(d time.Duration) string { return t0.Add(d).Format(time.RFC3339) }
	day := 24 * time.Hour
	const null = "<null>"
	// expect checks attribute, value pairs (null: the attribute is null).
	expect := func(kv ...string) []statecheck.StateCheck {
		var out []statecheck.StateCheck
		for i := 0; i+1 < len(kv); i += 2 {
			var check knownvalue.Check = knownvalue.StringExact(kv[i+1])
			if kv[i+1] == null {
				check = knownvalue.Null()
			}
			out = append(out, statecheck.ExpectKnownValue(templateDeadlineAddr, tfjsonpath.New(kv[i]), check))
		}
		return out
	}
	config := templateDeadlineConfig(testplatName, "")
	tfresource.Test(t, tfresource.TestCase{
		ProtoV6ProviderFactories: factories,
		Steps: []tfresource.TestStep{
			{
				Config: config,
				ConfigPlanChecks: tfresource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: expect("platform", testplatName, "status", "ready", "last_used_at", null,
					"expires_at", at(14*day), "retention_rule", "unused_template", "retention_action", "deactivate"),
			},
			{
				// A box started from it on day 10: the refresh moves the
				// deadline, the plan stays empty.
				PreConfig: func() {
					clock.Advance(10 * day)
					fake.set(func(t *platform.Template) { t.LastUsedAt = clock.Now().UTC() })
				},
				Config: config,
				ConfigPlanChecks: tfresource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: expect("last_used_at", at(10*day), "expires_at", at(24*day)),
			},
			{
				// Day 22: within warn_before (72h), still an empty plan
				// (the plan warns: TestTemplateModifyPlanRetention) and
				// the state unchanged.
				PreConfig: func() { clock.Advance(12 * day) },
				Config:    config,
				ConfigPlanChecks: tfresource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: expect("expires_at", at(24*day), "retention_rule", "unused_template"),
			},
			{
				// Day 25: the platform deactivated it. The plan activates
				// it in place; the apply calls Activate once.
				PreConfig: func() {
					clock.Advance(3 * day)
					fake.set(func(t *platform.Template) { t.Status = platform.TemplateInactive })
				},
				Config: config,
				ConfigPlanChecks: tfresource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(templateDeadlineAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(templateDeadlineAddr, tfjsonpath.New("status"), knownvalue.StringExact("ready")),
						plancheck.ExpectKnownValue(templateDeadlineAddr, tfjsonpath.New("id"), knownvalue.StringExact("tpl-agent")),
						plancheck.ExpectKnownValue(templateDeadlineAddr, tfjsonpath.New("build_id"), knownvalue.StringExact("build-1")),
						plancheck.ExpectUnknownValue(templateDeadlineAddr, tfjsonpath.New("expires_at")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: expect("status", "ready", "last_used_at", at(25*day), "expires_at", at(39*day),
					"build_id", "build-1"),
				Check: func(*terraform.State) error {
					if a, r := fake.counts(); a != 1 || r != 0 {
						return fmt.Errorf("%d activations, %d rebuilds; want 1 activation, no rebuild", a, r)
					}
					return nil
				},
			},
			{
				// Nothing changed: no second activation.
				Config: config,
				ConfigPlanChecks: tfresource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(*terraform.State) error {
					if a, _ := fake.counts(); a != 1 {
						return fmt.Errorf("%d activations, want 1", a)
					}
					return nil
				},
			},
			{
				// A rebuild in place still works, and sets the deadline
				// from what the platform reports after it.
				Config: templateDeadlineConfig(testplatName, "/agent"),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(templateDeadlineAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectUnknownValue(templateDeadlineAddr, tfjsonpath.New("build_id")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: expect("status", "ready", "build_id", "build-2", "retention_rule", "unused_template"),
				Check: func(*terraform.State) error {
					if a, r := fake.counts(); a != 1 || r != 1 {
						return fmt.Errorf("%d activations, %d rebuilds; want 1 and 1", a, r)
					}
					return nil
				},
			},
		},
	})
}

// TestAccTemplate_noTemplateRule: on a platform with no template rule and
// no activation, the retention attributes are null, plans are empty, and a
// template the platform reports inactive plans nothing.
func TestAccTemplate_noTemplateRule(t *testing.T) {
	acctest.RequireTerraform(t)
	clock := clock.NewFake(time.Now().UTC().Truncate(time.Second))
	fake := newTemplateDeadlineFake("norule", false, clock)
	factories := testAccFactories(Options{Clock: clock, Platforms: []platform.Definition{templateDeadlineDefinition(fake, nil)}})
	nulls := func(status string) []statecheck.StateCheck {
		out := []statecheck.StateCheck{
			statecheck.ExpectKnownValue(templateDeadlineAddr, tfjsonpath.New("platform"), knownvalue.StringExact("norule")),
			statecheck.ExpectKnownValue(templateDeadlineAddr, tfjsonpath.New("status"), knownvalue.StringExact(status)),
		}
		for _, a := range []string{"last_used_at", "expires_at", "retention_rule", "retention_action"} {
			out = append(out, statecheck.ExpectKnownValue(templateDeadlineAddr, tfjsonpath.New(a), knownvalue.Null()))
		}
		return out
	}
	config := templateDeadlineConfig("norule", "")
	tfresource.Test(t, tfresource.TestCase{
		ProtoV6ProviderFactories: factories,
		Steps: []tfresource.TestStep{
			{
				Config: config,
				ConfigPlanChecks: tfresource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectKnownValue(templateDeadlineAddr, tfjsonpath.New("expires_at"), knownvalue.Null()),
						plancheck.ExpectKnownValue(templateDeadlineAddr, tfjsonpath.New("retention_rule"), knownvalue.Null()),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: nulls("ready"),
			},
			{
				PreConfig: func() {
					clock.Advance(30 * 24 * time.Hour)
					fake.set(func(t *platform.Template) { t.Status = platform.TemplateInactive })
				},
				Config: config,
				ConfigPlanChecks: tfresource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: nulls(platform.TemplateInactive),
			},
		},
	})
}

// TestTemplateSchemaRetention: the retention attributes are computed,
// keep their state across plans (UseStateForUnknown), and name the
// registered platforms' template rules; status documents inactive.
func TestTemplateSchemaRetention(t *testing.T) {
	fake := newTemplateDeadlineFake(testplatName, true, clock.NewFake(time.Now()))
	r := newTemplateResource([]platform.Definition{templateDeadlineDefinition(fake, append(testplatRetention(), templateDeadlineRule()))})
	var resp resource.SchemaResponse
	r.Schema(t.Context(), resource.SchemaRequest{}, &resp)
	for _, name := range []string{"platform", "last_used_at", "expires_at", "retention_rule", "retention_action", "status", "build_id", "created_at"} {
		a, ok := resp.Schema.Attributes[name].(schema.StringAttribute)
		if !ok || !a.Computed || a.Optional || len(a.PlanModifiers) != 1 ||
			a.PlanModifiers[0].Description(t.Context()) != stringplanmodifier.UseStateForUnknown().Description(t.Context()) {
			t.Errorf("%s = %+v, want computed, kept from state", name, resp.Schema.Attributes[name])
		}
	}
	rule := "Testplat's `unused_template` rule (deactivate once no box started from it for 14d)"
	for _, name := range []string{"expires_at", "status"} {
		if d := resp.Schema.Attributes[name].GetMarkdownDescription(); !strings.Contains(d, rule) {
			t.Errorf("%s description lacks %q: %s", name, rule, d)
		}
	}
	if d := resp.Schema.Attributes["status"].GetMarkdownDescription(); !strings.Contains(d, "`inactive`") ||
		!strings.Contains(d, "`status` planned `ready`") || !strings.Contains(d, "elsewhere the plan changes nothing") {
		t.Errorf("status description = %s", d)
	}
	var without resource.SchemaResponse
	newTemplateResource([]platform.Definition{templateDeadlineDefinition(fake, testplatRetention())}).Schema(t.Context(), resource.SchemaRequest{}, &without)
	if d := without.Schema.Attributes["expires_at"].GetMarkdownDescription(); !strings.Contains(d, "no registered platform has one yet") {
		t.Errorf("expires_at without template rules = %s", d)
	}
}

// pendingActivator activates nothing: the template it returns is still
// not ready.
type pendingActivator struct{ *templateDeadlineFake }

func (p pendingActivator) Extensions() platform.Extensions {
	return platform.Extensions{TemplateActivation: p}
}

func (p pendingActivator) Activate(context.Context, string) (*platform.Template, error) {
	return &platform.Template{ID: "tpl-agent", Status: "pending"}, nil
}

// TestTemplateActivateNotReady: an activation the platform answers with
// a template that is not ready is an error saying so, not a state that
// contradicts the plan.
func TestTemplateActivateNotReady(t *testing.T) {
	clock := clock.NewFake(time.Date(2026, 5, 20, 0, 0, 0, 0, time.UTC))
	rs := templateDeadlineSettings(t, clock, nil)
	plat := pendingActivator{newTemplateDeadlineFake(testplatName, true, clock)}
	state := templateDeadlineState(platform.TemplateInactive, clock.Now().Add(-20*24*time.Hour), time.Time{}, rs)
	plan := state
	plan.Status = types.StringValue(retention.TemplateReady)
	var diags diag.Diagnostics
	templateActivate(t.Context(), plat, nil, &plan, state, rs, &diags)
	if !diags.HasError() || !strings.Contains(diags.Errors()[0].Detail(), `reports status "pending", want "ready"`) {
		t.Errorf("diagnostics = %v", diags)
	}
}
