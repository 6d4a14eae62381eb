package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestExactlyOneOfRootIsExactlyOneOf: the fast path never changes what
// the framework's ExactlyOneOf says about a sandbox's source, for every
// mix of a set, null and unknown template_id and from_snapshot_id.
func TestExactlyOneOfRootIsExactlyOneOf(t *testing.T) {
	ctx := context.Background()
	r, _ := retentionTestResource(t, nil, nil)
	values := map[string]types.String{
		"null": types.StringNull(), "unknown": types.StringUnknown(), "set": types.StringValue("x"),
	}
	fast := newExactlyOneOfRoot("template_id", "from_snapshot_id")
	full := resourcevalidator.ExactlyOneOf(path.MatchRoot("template_id"), path.MatchRoot("from_snapshot_id"))
	for tn, tv := range values {
		for sn, sv := range values {
			m := sandboxTestModel()
			m.Timeouts = sandboxTestTimeouts()
			m.TemplateID, m.FromSnapshotID = tv, sv
			st, _ := sandboxTestSchemaOf(t, r)
			sandboxTestMustSet(t, st.Set(ctx, m))
			req := resource.ValidateConfigRequest{Config: tfsdk.Config(st)}
			var got, want resource.ValidateConfigResponse
			fast.ValidateResource(ctx, req, &got)
			full.ValidateResource(ctx, req, &want)
			if !got.Diagnostics.Equal(want.Diagnostics) {
				t.Errorf("template_id %s, from_snapshot_id %s: got %v, ExactlyOneOf says %v", tn, sn, got.Diagnostics, want.Diagnostics)
			}
		}
	}
	if fast.Description(ctx) != full.Description(ctx) {
		t.Errorf("description %q, ExactlyOneOf's %q", fast.Description(ctx), full.Description(ctx))
	}
}
