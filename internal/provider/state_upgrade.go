package provider

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// The schema versions of the resources whose state changed shape. Each
// version's upgrade is written out below, so a state saved by any earlier
// release reads with the current schema.
//
// Version 1 dropped what a refresh wrote into every object but no plan or
// configuration reads (what each one gave is computed where it is needed):
//   - sbx_sandbox: platform_status (the platform's own word for the status;
//     the sbx_sandboxes data source reports it) and retention_status;
//   - sbx_snapshot, sbx_template: retention_status.
//
// retention_status was the deadline judged at the last refresh, stale by
// the next day; plans judge expires_at at plan time (and warn), the drift
// command at its own --now, and the sbx_sandboxes data source when read.
const (
	sandboxSchemaVersion  = 1
	snapshotSchemaVersion = 1
	templateSchemaVersion = 1
)

// sandboxStateUpgraders upgrade a state of each earlier sbx_sandbox schema.
func sandboxStateUpgraders() map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{0: droppedAttributesUpgrader("platform_status", "retention_status")}
}

// snapshotStateUpgraders upgrade a state of each earlier sbx_snapshot schema.
func snapshotStateUpgraders() map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{0: droppedAttributesUpgrader("retention_status")}
}

// templateStateUpgraders upgrade a state of each earlier sbx_template schema.
func templateStateUpgraders() map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{0: droppedAttributesUpgrader("retention_status")}
}

// droppedAttributesUpgrader upgrades a state whose schema differed from the
// next version only by the top-level attributes named: they are removed,
// and everything else is kept as saved. The framework then reads the result
// with the current schema, strictly: an attribute the state holds and the
// schema lacks, other than those named, fails the upgrade rather than being
// lost without a word.
func droppedAttributesUpgrader(names ...string) resource.StateUpgrader {
	return resource.StateUpgrader{
		StateUpgrader: func(_ context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
			if req.RawState == nil || req.RawState.JSON == nil {
				resp.Diagnostics.AddError("Unable to upgrade the saved state",
					"The saved state holds no JSON object to upgrade (a state saved by Terraform 0.11 or earlier "+
						"must be refreshed with the release that saved it first).")
				return
			}
			var attrs map[string]json.RawMessage
			if err := json.Unmarshal(req.RawState.JSON, &attrs); err != nil {
				resp.Diagnostics.AddError("Unable to upgrade the saved state",
					"The saved state is not a JSON object: "+err.Error())
				return
			}
			for _, name := range names {
				delete(attrs, name)
			}
			out, err := json.Marshal(attrs)
			if err != nil {
				resp.Diagnostics.AddError("Unable to upgrade the saved state", err.Error())
				return
			}
			resp.DynamicValue = &tfprotov6.DynamicValue{JSON: out}
		},
	}
}
