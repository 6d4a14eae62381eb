package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestKeepStateForUnknownIsUseStateForUnknown holds the one-pass keeping
// to the framework's modifier it replaces: for every combination of an
// existing or absent object, a planned, prior and configured value, both
// plan the same value.
func TestKeepStateForUnknownIsUseStateForUnknown(t *testing.T) {
	ctx := context.Background()
	schemaType := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"a": tftypes.String}}
	object := func(v tftypes.Value) tftypes.Value {
		return tftypes.NewValue(schemaType, map[string]tftypes.Value{"a": v})
	}
	values := map[string]types.String{
		"unknown": types.StringUnknown(), "null": types.StringNull(), "known": types.StringValue("v"),
	}
	raw := map[string]tftypes.Value{
		"unknown": tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
		"null":    tftypes.NewValue(tftypes.String, nil),
		"known":   tftypes.NewValue(tftypes.String, "v"),
	}
	for _, exists := range []bool{true, false} {
		for planned, plan := range values {
			for prior, state := range map[string]types.String{"null": types.StringNull(), "known": types.StringValue("old")} {
				for configured, config := range raw {
					name := fmt.Sprintf("exists=%t/plan=%s/state=%s/config=%s", exists, planned, prior, configured)
					stateRaw := tftypes.NewValue(schemaType, nil)
					if exists {
						stateRaw = object(tftypes.NewValue(tftypes.String, state.ValueStringPointer()))
					}
					req := planmodifier.StringRequest{
						Path: path.Root("a"), PlanValue: plan, StateValue: state, ConfigValue: values[configured],
						State: tfsdk.State{Raw: stateRaw},
					}
					want := planmodifier.StringResponse{PlanValue: plan}
					stringplanmodifier.UseStateForUnknown().PlanModifyString(ctx, req, &want)

					got := plan
					if exists { // the callers' condition: the object is in state
						keepStateForUnknown(object(config), keptString{name: "a", planned: &got, prior: state})
					}
					if !got.Equal(want.PlanValue) {
						t.Errorf("%s: planned %s, UseStateForUnknown plans %s", name, got, want.PlanValue)
					}
				}
			}
		}
	}
}

// TestSandboxModifyPlanKeepsState pins sbx_sandbox's one-pass keeping in
// ModifyPlan: an unknown id, name, region, created_at and platform take
// the state's value on an update; nothing is kept on a create, nor for a
// replacement (Terraform plans the new object of a replacement again with
// no prior state: the create case), nor where the configuration's value
// is unknown; a configured value is never overwritten.
func TestSandboxModifyPlanKeepsState(t *testing.T) {
	ctx := context.Background()
	unknownAll := func(m sandboxModel) sandboxModel {
		m.ID, m.Name, m.Region, m.CreatedAt, m.Platform = types.StringUnknown(), types.StringUnknown(),
			types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
		return m
	}
	// A box on a platform without regions: its region is null in state,
	// and null is what UseStateForUnknown kept too.
	prior := retentionTestPausedState()
	prior.Region = types.StringNull()
	tests := []struct {
		name string
		// state nil: no prior state (a create, or the new object of a
		// replacement).
		state *sandboxModel
		plan  sandboxModel
		// configName is the configuration's name: null, unknown or a value.
		configName types.String
		want       func(sandboxModel) []string // the wrong values, if any
	}{
		{"update keeps the state's values", &prior, unknownAll(prior), types.StringNull(),
			func(m sandboxModel) []string {
				return differ(m, map[string]types.String{"id": prior.ID, "name": prior.Name, "region": prior.Region,
					"created_at": prior.CreatedAt, "platform": prior.Platform})
			}},
		{"update keeps nothing whose configured value is unknown", &prior, unknownAll(prior), types.StringUnknown(),
			func(m sandboxModel) []string {
				return differ(m, map[string]types.String{"id": prior.ID, "name": types.StringUnknown(), "created_at": prior.CreatedAt})
			}},
		{"update never overwrites a configured value", &prior,
			func() sandboxModel { m := unknownAll(prior); m.Name = types.StringValue("renamed"); return m }(), types.StringValue("renamed"),
			func(m sandboxModel) []string {
				return differ(m, map[string]types.String{"id": prior.ID, "name": types.StringValue("renamed")})
			}},
		{"create keeps nothing", nil, unknownAll(prior), types.StringNull(),
			func(m sandboxModel) []string {
				return differ(m, map[string]types.String{"id": types.StringUnknown(), "name": types.StringUnknown(),
					"created_at": types.StringUnknown()})
			}},
		{"the new object of a replacement keeps nothing", nil,
			func() sandboxModel { m := unknownAll(prior); m.TemplateID = types.StringValue("tpl2"); return m }(), types.StringNull(),
			func(m sandboxModel) []string {
				return differ(m, map[string]types.String{"id": types.StringUnknown(), "name": types.StringUnknown(),
					"created_at": types.StringUnknown()})
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, _ := retentionTestResource(t, nil, nil)
			st, pl := sandboxTestSchemaOf(t, r)
			sandboxTestMustSet(t, pl.Set(ctx, tt.plan))
			if tt.state != nil {
				sandboxTestMustSet(t, st.Set(ctx, *tt.state))
			}
			// The configuration: what the user wrote, computed values null.
			cfgModel := tt.plan
			cfgModel.ID, cfgModel.Region, cfgModel.CreatedAt, cfgModel.Platform = types.StringNull(), types.StringNull(),
				types.StringNull(), types.StringNull()
			cfgModel.Status, cfgModel.StartedAt = types.StringNull(), types.StringNull()
			cfgModel.Name = tt.configName
			cfgState, _ := sandboxTestSchemaOf(t, r)
			sandboxTestMustSet(t, cfgState.Set(ctx, cfgModel))
			config := tfsdk.Config(cfgState)

			resp := resource.ModifyPlanResponse{Plan: pl}
			r.ModifyPlan(ctx, resource.ModifyPlanRequest{Config: config, Plan: pl, State: st}, &resp)
			if resp.Diagnostics.HasError() {
				t.Fatal(resp.Diagnostics)
			}
			var got sandboxModel
			sandboxTestMustSet(t, resp.Plan.Get(ctx, &got))
			for _, wrong := range tt.want(got) {
				t.Error(wrong)
			}
		})
	}
}

// differ lists the attributes of m whose planned value is not want's.
func differ(m sandboxModel, want map[string]types.String) []string {
	got := map[string]types.String{"id": m.ID, "name": m.Name, "region": m.Region, "created_at": m.CreatedAt, "platform": m.Platform}
	var out []string
	for name, w := range want {
		if !got[name].Equal(w) {
			out = append(out, fmt.Sprintf("%s planned %s, want %s", name, got[name], w))
		}
	}
	return out
}
