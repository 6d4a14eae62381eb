package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestObjectIDValidator: an empty or blank id is refused naming the
// attribute and what to give; any other id, a null and an unknown pass.
func TestObjectIDValidator(t *testing.T) {
	at := path.Root("volume_mount").AtListIndex(0).AtName("volume_id")
	for _, tc := range []struct {
		name  string
		value types.String
		want  string
	}{
		{name: "empty", value: types.StringValue(""),
			want: `volume_mount[0].volume_id = "": an id cannot be empty or blank; give the id of a volume, such as sbx_volume.x.id.`},
		{name: "blank", value: types.StringValue(" \t"),
			want: `volume_mount[0].volume_id = " \t": an id cannot be empty or blank; give the id of a volume, such as sbx_volume.x.id.`},
		{name: "id", value: types.StringValue("vol-1")},
		{name: "null", value: types.StringNull()},
		{name: "unknown", value: types.StringUnknown()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var resp validator.StringResponse
			objectIDValidator("volume").ValidateString(context.Background(),
				validator.StringRequest{Path: at, ConfigValue: tc.value}, &resp)
			var got string
			if resp.Diagnostics.HasError() {
				got = resp.Diagnostics[0].Detail()
				if s := resp.Diagnostics[0].Summary(); s != "Empty volume id" {
					t.Errorf("summary %q", s)
				}
			}
			if got != tc.want || len(resp.Diagnostics) > 1 {
				t.Fatalf("diagnostics %v, want %q", resp.Diagnostics, tc.want)
			}
		})
	}
}

// TestEveryObjectIDRefusesEmpty: every configurable attribute naming
// another object by id (x_id, and a data source's lookup id) refuses an
// empty id at plan time, so none passes the plan to fail the apply.
func TestEveryObjectIDRefusesEmpty(t *testing.T) {
	ctx := context.Background()
	var checked []string
	checkAttr := func(name string, a schemaAttr) {
		short := name[strings.LastIndex(name, ".")+1:]
		isID := strings.HasSuffix(short, "_id") || (short == "id" && strings.HasPrefix(name, "data."))
		if !isID || (!a.IsOptional() && !a.IsRequired()) {
			return
		}
		checked = append(checked, name)
		withValidators, ok := a.(interface{ StringValidators() []validator.String })
		if !ok {
			t.Errorf("%s: not a string attribute", name)
			return
		}
		for _, v := range withValidators.StringValidators() {
			if strings.HasPrefix(v.Description(ctx), "the id of a") {
				return
			}
		}
		t.Errorf("%s takes an empty id: give it Validators: objectIDValidator(...)", name)
	}
	forEachSchema(t, func(where string, attrs map[string]schemaAttr, blocks map[string]any) {
		for name, a := range attrs {
			checkAttr(where+"."+name, a)
		}
		for name, b := range blocks {
			if lb, ok := b.(rschema.ListNestedBlock); ok { // sbx_sandbox's volume_mount
				for an, a := range lb.NestedObject.Attributes {
					checkAttr(where+"."+name+"."+an, a)
				}
			}
		}
	})
	// The walk reaches the ids it should: a walk that saw nothing would
	// pass as well.
	for _, want := range []string{"sbx_sandbox.volume_mount.volume_id", "sbx_sandbox.template_id", "sbx_sandbox.from_snapshot_id",
		"sbx_volume.from_snapshot_id", "sbx_snapshot.sandbox_id", "data.sbx_snapshots.volume_id", "list.sbx_snapshot.sandbox_id",
		"action.sbx_sandbox_exec.sandbox_id", "data.sbx_template.id"} {
		if !strings.Contains(" "+strings.Join(checked, " ")+" ", " "+want+" ") {
			t.Errorf("the walk did not check %s; it checked %v", want, checked)
		}
	}
}

// TestValidateRefusesEmptyIDs: through the provider's server, as Terraform
// calls it, an empty id is refused in a resource, a data source, a list
// resource (terraform query) and an action, with the one error.
func TestValidateRefusesEmptyIDs(t *testing.T) {
	ctx := context.Background()
	server, schemas := testProviderServer(t)
	lists, listsOK := server.(tfprotov6.ListResourceServer)
	actions, actionsOK := server.(tfprotov6.ActionServer)
	if !listsOK || !actionsOK {
		t.Fatal("the provider's server serves no list resources or no actions")
	}
	empty := tftypes.NewValue(tftypes.String, "")
	for _, tc := range []struct {
		name   string
		schema *tfprotov6.Schema
		set    map[string]tftypes.Value
		call   func(*tfprotov6.DynamicValue) ([]*tfprotov6.Diagnostic, error)
		want   string
	}{
		{name: "resource", schema: schemas.ResourceSchemas["sbx_snapshot"], set: map[string]tftypes.Value{"sandbox_id": empty},
			call: func(c *tfprotov6.DynamicValue) ([]*tfprotov6.Diagnostic, error) {
				r, err := server.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: "sbx_snapshot", Config: c})
				return r.Diagnostics, err
			},
			want: `sandbox_id = "": an id cannot be empty or blank; give the id of a sandbox, such as sbx_sandbox.x.id.`},
		{name: "data_source", schema: schemas.DataSourceSchemas["sbx_snapshots"],
			set: map[string]tftypes.Value{"volume_id": tftypes.NewValue(tftypes.String, " ")},
			call: func(c *tfprotov6.DynamicValue) ([]*tfprotov6.Diagnostic, error) {
				r, err := server.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: "sbx_snapshots", Config: c})
				return r.Diagnostics, err
			},
			want: `volume_id = " ": an id cannot be empty or blank; give the id of a volume, such as sbx_volume.x.id.`},
		{name: "list_resource", schema: schemas.ListResourceSchemas["sbx_snapshot"], set: map[string]tftypes.Value{"sandbox_id": empty},
			call: func(c *tfprotov6.DynamicValue) ([]*tfprotov6.Diagnostic, error) {
				r, err := lists.ValidateListResourceConfig(ctx, &tfprotov6.ValidateListResourceConfigRequest{TypeName: "sbx_snapshot", Config: c})
				return r.Diagnostics, err
			},
			want: `sandbox_id = "": an id cannot be empty or blank; give the id of a sandbox, such as sbx_sandbox.x.id.`},
		{name: "action", schema: schemas.ActionSchemas["sbx_sandbox_snapshot"].Schema, set: map[string]tftypes.Value{"sandbox_id": empty},
			call: func(c *tfprotov6.DynamicValue) ([]*tfprotov6.Diagnostic, error) {
				r, err := actions.ValidateActionConfig(ctx, &tfprotov6.ValidateActionConfigRequest{ActionType: "sbx_sandbox_snapshot", Config: c})
				return r.Diagnostics, err
			},
			want: `sandbox_id = "": an id cannot be empty or blank; give the id of a sandbox, such as sbx_sandbox.x.id.`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.schema == nil {
				t.Fatal("no such schema")
			}
			diags, err := tc.call(configValue(t, tc.schema, tc.set))
			if err != nil {
				t.Fatal(err)
			}
			var errs []string
			for _, d := range diags {
				if d.Severity == tfprotov6.DiagnosticSeverityError {
					errs = append(errs, d.Detail)
				}
			}
			if len(errs) != 1 || errs[0] != tc.want {
				t.Fatalf("errors %q, want only %q", errs, tc.want)
			}
		})
	}
}
