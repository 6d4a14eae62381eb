package provider

import (
	"context"
	"fmt"
	"math"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// wholeNumberType is the type of every Int64 attribute a configuration
// sets. Terraform's numbers take fractions, and the framework's Int64Type
// fails to read one (size_gb = 1.5) before any validator runs, reporting
// "Configuration Read Error ... always an error in the provider". This
// type reads a fraction (or a number past int64) as a notWholeNumber,
// whose validation says what is wrong with the attribute; a whole number
// reads as the framework's own Int64Value, so the models keep types.Int64
// and Terraform sees the same schema (a number): no state upgrade, no
// change to plans.
type wholeNumberType struct {
	basetypes.Int64Type
}

// wholeNumber is wholeNumberType as a schema's CustomType or ElementType.
var wholeNumber = wholeNumberType{}

var (
	_ basetypes.Int64Typable = wholeNumberType{}
	//nolint:staticcheck // xattr.TypeWithValidate is deprecated, but ListType.Validate only calls its elements' Validate.
	_ xattr.TypeWithValidate = wholeNumberType{}
)

// Equal is true of the framework's Int64Type too: the values this type
// reads are Int64Values, whose type is Int64Type, and the framework checks
// a list's elements (success_exit_codes) against the list's element type.
func (t wholeNumberType) Equal(o attr.Type) bool {
	switch o.(type) {
	case wholeNumberType, basetypes.Int64Type:
		return true
	}
	return false
}

func (t wholeNumberType) String() string { return "provider.wholeNumberType" }

// ValueFromTerraform reads a whole number as an Int64Value, and any other
// number as a notWholeNumber for validation to refuse.
func (t wholeNumberType) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	v, err := t.Int64Type.ValueFromTerraform(ctx, in)
	if err == nil {
		return v, nil
	}
	f, ok := numberOf(in)
	if !ok {
		return nil, err
	}
	return notWholeNumber{number: f}, nil
}

// Validate refuses a number that is not a whole int64. The framework calls
// it for the elements of a list of whole numbers; an attribute's own value
// is refused by notWholeNumber.ValidateAttribute.
func (t wholeNumberType) Validate(_ context.Context, in tftypes.Value, p path.Path) diag.Diagnostics {
	var diags diag.Diagnostics
	if in.Type() == nil || !in.Type().Equal(tftypes.Number) || !in.IsKnown() || in.IsNull() {
		return diags
	}
	if f, ok := numberOf(in); ok && !isWholeInt64(f) {
		diags.Append(notWholeNumberError(p, f))
	}
	return diags
}

// numberOf is in's number, when in is a known number.
func numberOf(in tftypes.Value) (*big.Float, bool) {
	if !in.IsKnown() || in.IsNull() {
		return nil, false
	}
	var f *big.Float
	if err := in.As(&f); err != nil || f == nil {
		return nil, false
	}
	return f, true
}

func isWholeInt64(f *big.Float) bool {
	if !f.IsInt() {
		return false
	}
	_, accuracy := f.Int64()
	return accuracy == big.Exact
}

// notWholeNumberError names the attribute, its value and what is allowed:
// a fraction is told the whole numbers either side of it.
func notWholeNumberError(p path.Path, f *big.Float) diag.Diagnostic {
	value := f.Text('g', -1)
	if !f.IsInt() {
		// Int truncates towards zero: below a positive fraction, above a
		// negative one.
		floor, _ := f.Int(nil)
		if f.Sign() < 0 {
			floor.Sub(floor, big.NewInt(1))
		}
		ceil := new(big.Int).Add(floor, big.NewInt(1))
		return diag.NewAttributeErrorDiagnostic(p, "Not a whole number",
			fmt.Sprintf("%s = %s is not a whole number: %s takes whole numbers only. Round it down to %s or up to %s.",
				p, value, p, floor, ceil))
	}
	return diag.NewAttributeErrorDiagnostic(p, "Number out of range",
		fmt.Sprintf("%s = %s is outside the whole numbers %s takes, from %d to %d.",
			p, value, p, int64(math.MinInt64), int64(math.MaxInt64)))
}

// notWholeNumber is a number an Int64 attribute cannot hold. It lives
// only between reading a configuration and validating it: its validation
// always fails, so no validator, plan or model ever sees it.
type notWholeNumber struct {
	number *big.Float
}

var (
	_ attr.Value                  = notWholeNumber{}
	_ xattr.ValidateableAttribute = notWholeNumber{}
)

func (v notWholeNumber) ValidateAttribute(_ context.Context, req xattr.ValidateAttributeRequest, resp *xattr.ValidateAttributeResponse) {
	resp.Diagnostics.Append(notWholeNumberError(req.Path, v.number))
}

func (v notWholeNumber) Type(context.Context) attr.Type { return wholeNumber }

func (v notWholeNumber) ToTerraformValue(context.Context) (tftypes.Value, error) {
	return tftypes.NewValue(tftypes.Number, v.number), nil
}

func (v notWholeNumber) Equal(o attr.Value) bool {
	other, ok := o.(notWholeNumber)
	return ok && v.number.Cmp(other.number) == 0
}

func (v notWholeNumber) IsNull() bool    { return false }
func (v notWholeNumber) IsUnknown() bool { return false }
func (v notWholeNumber) String() string  { return v.number.Text('g', -1) }
