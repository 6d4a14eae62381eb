package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// readOrForget fetches the object a resource's state names, for Read.
//
// When the platform no longer has it, gone says why (each resource words that
// itself: a sandbox or snapshot may have expired rather than been deleted),
// given the platform's own reason where its not-found error carries one
// (goneReason: a box whose command ended, or that timed out), and
// the resource leaves the state, so the next plan creates it again instead of
// failing on an object nobody can refresh. Any other failure is a read error.
// In both cases ok is false and Read must return without setting state.
func readOrForget[T any](ctx context.Context, resp *resource.ReadResponse, kind, id string,
	get func(context.Context, string) (T, error), gone func(diags *diag.Diagnostics, reason string),
) (obj T, ok bool) {
	obj, err := get(ctx, id)
	if platform.IsNotFound(err) {
		gone(&resp.Diagnostics, goneReason(err))
		resp.State.RemoveResource(ctx)
		return obj, false
	}
	if err != nil {
		addPlatformError(&resp.Diagnostics, "read", kind, id, err)
		return obj, false
	}
	return obj, true
}

// readAfterImport reports whether this Read is the first one after
// ImportState, which must fill the arguments an import cannot know.
func readAfterImport(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) bool {
	importing, diags := req.Private.GetKey(ctx, privateKeyImporting)
	resp.Diagnostics.Append(diags...)
	return len(importing) > 0
}

// endImport drops the import marker once the imported state is written, so
// every later Read leaves the user's arguments as they wrote them.
func endImport(ctx context.Context, resp *resource.ReadResponse) {
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateKeyImporting, nil)...)
}
