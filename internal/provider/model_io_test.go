package provider

import (
	"context"
	"fmt"
	"math/big"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// valueKind says what leaves a generated object holds.
type valueKind int

const (
	leavesKnown valueKind = iota
	leavesNull
	leavesUnknown
	leavesMixed
)

// generated is a value of type t whose leaves (and, for mixed, whole
// collections) are known, null or unknown as kind says; seq varies the
// mixed choice from leaf to leaf.
func generated(t tftypes.Type, kind valueKind, seq *int) tftypes.Value {
	*seq++
	switch kind {
	case leavesNull:
		return tftypes.NewValue(t, nil)
	case leavesMixed:
		switch *seq % 5 {
		case 0:
			return tftypes.NewValue(t, nil)
		case 1:
			return tftypes.NewValue(t, tftypes.UnknownValue)
		}
	}
	switch tt := t.(type) {
	case tftypes.List:
		return tftypes.NewValue(t, []tftypes.Value{generated(tt.ElementType, kind, seq), generated(tt.ElementType, kind, seq)})
	case tftypes.Set:
		return tftypes.NewValue(t, []tftypes.Value{generated(tt.ElementType, kind, seq)})
	case tftypes.Map:
		return tftypes.NewValue(t, map[string]tftypes.Value{"a": generated(tt.ElementType, kind, seq), "b": generated(tt.ElementType, kind, seq)})
	case tftypes.Object:
		vals := map[string]tftypes.Value{}
		for name, at := range tt.AttributeTypes {
			vals[name] = generated(at, kind, seq)
		}
		return tftypes.NewValue(t, vals)
	}
	if kind == leavesUnknown {
		return tftypes.NewValue(t, tftypes.UnknownValue)
	}
	switch {
	case t.Is(tftypes.String):
		return tftypes.NewValue(t, fmt.Sprintf("v%d", *seq))
	case t.Is(tftypes.Number):
		return tftypes.NewValue(t, big.NewFloat(float64(*seq)))
	case t.Is(tftypes.Bool):
		return tftypes.NewValue(t, *seq%2 == 0)
	}
	panic(fmt.Sprintf("generated: type %s", t))
}

// TestGetModelMatchesFramework: for every resource's and data source's
// model, getModel reads exactly what the framework's Get reads, for
// objects whose leaves are known, null, unknown or a mix, and for a null
// or unknown object.
func TestGetModelMatchesFramework(t *testing.T) {
	ctx := context.Background()
	schemaOfResource := func(r resource.Resource) tfsdk.State {
		var resp resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &resp)
		return tfsdk.State{Schema: resp.Schema}
	}
	schemaOfDataSource := func(d datasource.DataSource) tfsdk.State {
		var resp datasource.SchemaResponse
		d.Schema(ctx, datasource.SchemaRequest{}, &resp)
		return tfsdk.State{Schema: resp.Schema}
	}
	models := []struct {
		name  string
		empty tfsdk.State
		check func(t *testing.T, s tfsdk.State, plain bool)
		// plain: every field is a framework value, so getModel reads it
		// itself; the snapshot data sources embed their filter, which
		// the framework reads.
		plain bool
	}{
		{"resource sbx_sandbox", schemaOfResource(&sandboxResource{}), checkGetModel[sandboxModel], true},
		{"resource sbx_volume", schemaOfResource(&volumeResource{}), checkGetModel[volumeModel], true},
		{"resource sbx_template", schemaOfResource(&templateResource{}), checkGetModel[templateModel], true},
		{"resource sbx_snapshot", schemaOfResource(&snapshotResource{}), checkGetModel[snapshotModel], true},
		{"data sbx_sandboxes", schemaOfDataSource(&sandboxesDataSource{}), checkGetModel[sandboxesDataSourceModel], true},
		{"data sbx_snapshot", schemaOfDataSource(&snapshotDataSource{}), checkGetModel[snapshotDataSourceModel], false},
		{"data sbx_snapshots", schemaOfDataSource(&snapshotsDataSource{}), checkGetModel[snapshotsDataSourceModel], false},
		{"data sbx_template", schemaOfDataSource(&templateDataSource{}), checkGetModel[templateDataSourceModel], true},
		{"data sbx_volume", schemaOfDataSource(&volumeDataSource{}), checkGetModel[volumeDataSourceModel], true},
	}
	for _, r := range models {
		typ := r.empty.Schema.Type().TerraformType(ctx)
		kinds := map[string]tftypes.Value{}
		for name, kind := range map[string]valueKind{"known": leavesKnown, "null leaves": leavesNull, "unknown leaves": leavesUnknown, "mixed": leavesMixed} {
			seq := 0
			kinds[name] = generated(typ, kind, &seq)
		}
		kinds["null object"] = tftypes.NewValue(typ, nil)
		kinds["unknown object"] = tftypes.NewValue(typ, tftypes.UnknownValue)
		for name, raw := range kinds {
			t.Run(r.name+"/"+name, func(t *testing.T) {
				r.check(t, tfsdk.State{Raw: raw, Schema: r.empty.Schema}, r.plain)
			})
		}
	}
}

func checkGetModel[M any](t *testing.T, s tfsdk.State, plain bool) {
	t.Helper()
	ctx := context.Background()
	var want, got M
	wantDiags := s.Get(ctx, &want)
	gotDiags := getState(ctx, s, &got)
	if wantDiags.HasError() != gotDiags.HasError() {
		t.Fatalf("errors: framework %v, getModel %v", wantDiags, gotDiags)
	}
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("getModel read\n%+v\nthe framework read\n%+v", got, want)
	}
	if !wantDiags.HasError() {
		framework := tfsdk.State{Schema: s.Schema}
		setDiags := framework.Set(ctx, want)
		ours := tfsdk.State{Schema: s.Schema}
		oursDiags := setState(ctx, &ours, want)
		if setDiags.HasError() != oursDiags.HasError() {
			t.Fatalf("errors writing: framework %v, setModel %v", setDiags, oursDiags)
		}
		if !framework.Raw.Equal(ours.Raw) {
			t.Fatalf("setModel wrote\n%s\nthe framework wrote\n%s", ours.Raw, framework.Raw)
		}
		pointer := tfsdk.State{Schema: s.Schema}
		if diags := setState(ctx, &pointer, &want); diags.HasError() || !pointer.Raw.Equal(framework.Raw) {
			t.Fatalf("setModel of a pointer wrote\n%s (%v)\nthe framework wrote\n%s", pointer.Raw, diags, framework.Raw)
		}
	}
	if plain != (layoutOf(context.Background(), reflect.TypeFor[M](), s.Schema) != nil) {
		t.Fatalf("%T: plain %v, but a cached layout is %v", got, plain, layoutOf(context.Background(), reflect.TypeFor[M](), s.Schema) != nil)
	}
}

// TestGetModelFallsBack: a model getModel cannot fill (a plain Go field, a
// missing attribute) is read by the framework, errors included, and the
// target is left as the framework leaves it.
func TestGetModelFallsBack(t *testing.T) {
	ctx := context.Background()
	var resp resource.SchemaResponse
	(&volumeResource{}).Schema(ctx, resource.SchemaRequest{}, &resp)
	seq := 0
	s := tfsdk.State{Raw: generated(resp.Schema.Type().TerraformType(ctx), leavesKnown, &seq), Schema: resp.Schema}

	type plainField struct {
		ID string `tfsdk:"id"`
	}
	var plain plainField
	if layoutOf(ctx, reflect.TypeFor[plainField](), s.Schema) != nil {
		t.Fatal("a struct with a plain string field got a layout")
	}
	if diags := getState(ctx, s, &plain); !diags.HasError() {
		t.Fatal("a struct missing most attributes was read without the framework's error")
	}

	type tooFew struct {
		ID volumeModel `tfsdk:"-"`
	}
	var few tooFew
	if diags := getState(ctx, s, &few); !diags.HasError() {
		t.Fatal("a struct with no attributes was read without the framework's error")
	}
}

// TestSetModelWrongValueType: a field holding a value of another type than
// its attribute's is written by the framework, which refuses it, and the
// object is left as it was.
func TestSetModelWrongValueType(t *testing.T) {
	ctx := context.Background()
	var resp resource.SchemaResponse
	(&volumeResource{}).Schema(ctx, resource.SchemaRequest{}, &resp)
	seq := 0
	raw := generated(resp.Schema.Type().TerraformType(ctx), leavesKnown, &seq)
	s := tfsdk.State{Raw: raw, Schema: resp.Schema}
	var m volumeModel
	if diags := getState(ctx, s, &m); diags.HasError() {
		t.Fatal(diags)
	}
	m.Labels = types.MapValueMust(types.Int64Type, map[string]attr.Value{"a": types.Int64Value(1)})
	diags := setState(ctx, &s, m)
	if !diags.HasError() {
		t.Fatal("a labels map of numbers was written")
	}
	if !s.Raw.Equal(raw) {
		t.Fatal("a refused write changed the object")
	}
}

// BenchmarkGetModel compares getModel with the framework's Get on a box's
// state with every attribute set.
func BenchmarkGetModel(b *testing.B) {
	ctx := context.Background()
	var resp resource.SchemaResponse
	(&sandboxResource{}).Schema(ctx, resource.SchemaRequest{}, &resp)
	seq := 0
	s := tfsdk.State{Raw: generated(resp.Schema.Type().TerraformType(ctx), leavesKnown, &seq), Schema: resp.Schema}
	b.Run("framework", func(b *testing.B) {
		for b.Loop() {
			var m sandboxModel
			_ = s.Get(ctx, &m)
		}
	})
	b.Run("getModel", func(b *testing.B) {
		for b.Loop() {
			var m sandboxModel
			_ = getState(ctx, s, &m)
		}
	})
	var m sandboxModel
	_ = getState(ctx, s, &m)
	b.Run("framework set", func(b *testing.B) {
		for b.Loop() {
			_ = s.Set(ctx, m)
		}
	})
	b.Run("setModel", func(b *testing.B) {
		for b.Loop() {
			_ = setState(ctx, &s, m)
		}
	})
}
