package provider

import (
	"context"
	"reflect"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// A model is a struct whose fields are framework values (types.String,
// types.List, timeouts.Value, ...) tagged `tfsdk:"name"`, one per
// attribute of its schema. The framework's Get and Set convert models by
// reflection, working the struct's layout out again on every call and
// compiling a regular expression per field: at 300 boxes that was a tenth
// of a no-op plan's provider CPU. getModel and setModel do the same
// conversion with the layout worked out once per model type. Whatever they
// do not handle (a null or unknown object, a field the value does not fit,
// a struct with plain Go fields, a value that validates itself) is left to
// the framework, which reports mistakes as it always has.

// getPlan, getState and getConfig read a whole object into a model.
func getPlan[M any](ctx context.Context, p tfsdk.Plan, m *M) diag.Diagnostics {
	return getModel(ctx, p.Raw, p.Schema, p.Get, m)
}

func getState[M any](ctx context.Context, s tfsdk.State, m *M) diag.Diagnostics {
	return getModel(ctx, s.Raw, s.Schema, s.Get, m)
}

func getConfig[M any](ctx context.Context, c tfsdk.Config, m *M) diag.Diagnostics {
	return getModel(ctx, c.Raw, c.Schema, c.Get, m)
}

// setPlan and setState write a model, or a pointer to one, as the whole
// object.
func setPlan(ctx context.Context, p *tfsdk.Plan, model any) diag.Diagnostics {
	return setModel(ctx, &p.Raw, p.Schema, p.Set, model)
}

func setState(ctx context.Context, s *tfsdk.State, model any) diag.Diagnostics {
	return setModel(ctx, &s.Raw, s.Schema, s.Set, model)
}

// typedSchema is what a model's layout needs of a schema: its object type.
type typedSchema interface {
	Type() attr.Type
}

// getModel reads raw into model; model is written only when every field
// was read.
func getModel[M any](ctx context.Context, raw tftypes.Value, s typedSchema, frameworkGet func(context.Context, any) diag.Diagnostics, model *M) diag.Diagnostics {
	layout := layoutOf(ctx, reflect.TypeFor[M](), s)
	if layout == nil || raw.IsNull() || !raw.IsKnown() {
		return frameworkGet(ctx, model)
	}
	var values map[string]tftypes.Value
	if err := raw.As(&values); err != nil || len(values) != len(layout.fields) {
		return frameworkGet(ctx, model)
	}
	var read M
	fields := reflect.ValueOf(&read).Elem()
	for _, f := range layout.fields {
		tv, ok := values[f.name]
		if !ok {
			return frameworkGet(ctx, model)
		}
		value, err := f.attrType.ValueFromTerraform(ctx, tv)
		if err != nil {
			return frameworkGet(ctx, model)
		}
		rv := reflect.ValueOf(value)
		if rv.Type() != f.typ {
			return frameworkGet(ctx, model)
		}
		fields.Field(f.index).Set(rv)
	}
	*model = read
	return nil
}

// setModel writes model (a struct or a pointer to one) into *raw; *raw is
// written only when every field was converted.
func setModel(ctx context.Context, raw *tftypes.Value, s typedSchema, frameworkSet func(context.Context, any) diag.Diagnostics, model any) diag.Diagnostics {
	rv := reflect.ValueOf(model)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	var layout *modelLayout
	if rv.Kind() == reflect.Struct {
		layout = layoutOf(ctx, rv.Type(), s)
	}
	if layout == nil {
		return frameworkSet(ctx, model)
	}
	values := make(map[string]tftypes.Value, len(layout.fields))
	for _, f := range layout.fields {
		value, ok := rv.Field(f.index).Interface().(attr.Value)
		if !ok {
			return frameworkSet(ctx, model)
		}
		if _, ok := value.(xattr.ValidateableAttribute); ok || !f.attrType.Equal(value.Type(ctx)) {
			return frameworkSet(ctx, model)
		}
		tv, err := value.ToTerraformValue(ctx)
		if err != nil {
			return frameworkSet(ctx, model)
		}
		// The framework's Set runs the type's own check of the value
		// (an Int64 that fits, a list's elements); so does this.
		if f.validator != nil && f.validator.Validate(ctx, tv, path.Root(f.name)).HasError() {
			return frameworkSet(ctx, model)
		}
		values[f.name] = tv
	}
	*raw = tftypes.NewValue(layout.tfType, values)
	return nil
}

// modelLayout is a model type's fields, each with its attribute's type.
type modelLayout struct {
	fields []modelField
	// tfType is the schema's object type in Terraform's terms.
	tfType tftypes.Type
}

// modelField is one tagged field of a model.
type modelField struct {
	name     string
	index    int
	typ      reflect.Type
	attrType attr.Type
	// validator is attrType when it checks values itself.
	validator xattr.TypeWithValidate //nolint:staticcheck // deprecated, but types still check values this way.
}

// layouts caches layoutOf per model type. A model is read and written
// against one schema only; a mismatch would fail the field type checks
// and fall back to the framework.
var layouts sync.Map // reflect.Type -> *modelLayout (nil: not a model)

// layoutOf is t's layout against s, or nil when t is not a model of s.
func layoutOf(ctx context.Context, t reflect.Type, s typedSchema) *modelLayout {
	if cached, ok := layouts.Load(t); ok {
		layout, _ := cached.(*modelLayout)
		return layout
	}
	if s == nil {
		return nil
	}
	layout := computeLayout(ctx, t, s)
	layouts.Store(t, layout)
	return layout
}

var attrValueType = reflect.TypeFor[attr.Value]()

func computeLayout(ctx context.Context, t reflect.Type, s typedSchema) *modelLayout {
	schemaType := s.Type()
	obj, ok := schemaType.(attr.TypeWithAttributeTypes)
	if !ok || t.Kind() != reflect.Struct {
		return nil
	}
	attrTypes := obj.AttributeTypes()
	layout := &modelLayout{tfType: schemaType.TerraformType(ctx)}
	for i := range t.NumField() {
		f := t.Field(i)
		name := f.Tag.Get("tfsdk")
		if name == "-" {
			continue
		}
		at, ok := attrTypes[name]
		if !ok || !f.IsExported() || f.Type.Kind() == reflect.Interface || !f.Type.Implements(attrValueType) {
			return nil
		}
		field := modelField{name: name, index: i, typ: f.Type, attrType: at}
		//nolint:staticcheck // xattr.TypeWithValidate is deprecated, but types still check values this way.
		if v, ok := at.(xattr.TypeWithValidate); ok {
			field.validator = v
		}
		layout.fields = append(layout.fields, field)
	}
	if len(layout.fields) != len(attrTypes) {
		return nil
	}
	return layout
}
