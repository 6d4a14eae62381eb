package provider

import (
	"context"
	"fmt"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// nameRegistry finds, at plan time, two resources of one configuration that
// ask for the same named object: two sbx_volume with one name would both
// "create" it and share it, and the destroy of either would delete the
// other's data. Terraform plans each resource instance on its own, so the
// provider keeps what every instance planned in this run (one Configure:
// one plan or apply of one provider configuration).
//
// An instance that is replaced is planned twice by Terraform: once with its
// prior state, then again as a create with the same configuration. That
// second plan pairs with the first instead of counting as another resource.
type nameRegistry struct {
	mu     sync.Mutex
	claims map[nameKey][]*nameClaim
}

type nameKey struct{ kind, name string }

type nameClaim struct {
	priorID string        // the object in state; "" for a create
	config  tftypes.Value // the instance's configuration, compared only when a create meets a prior claim
	paired  bool          // a replacement's create plan has been matched to it
}

func newNameRegistry() *nameRegistry {
	return &nameRegistry{claims: map[nameKey][]*nameClaim{}}
}

// claim records that a resource instance plans the object kind/name, and
// reports whether another instance of this run already planned it.
func (r *nameRegistry) claim(kind, name, priorID string, config tftypes.Value) (clash bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	key := nameKey{kind, name}
	held := r.claims[key]
	if priorID == "" {
		for _, c := range held {
			if c.priorID != "" && !c.paired && c.config.Equal(config) {
				c.paired = true // the create plan of a replacement
				return false
			}
		}
	}
	r.claims[key] = append(held, &nameClaim{priorID: priorID, config: config})
	return len(held) > 0
}

// checkUniqueName adds a plan-time error at attr when another resource of
// this configuration already plans the object of kind named name. Unknown
// names, destroys and a nil registry check nothing.
func checkUniqueName(names *nameRegistry, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse,
	resourceType, kind string, attr path.Path, name, priorID string) {
	if names == nil || name == "" || req.Plan.Raw.IsNull() {
		return
	}
	if !names.claim(kind, name, priorID, req.Config.Raw) {
		return
	}
	resp.Diagnostics.AddAttributeError(attr, "Two resources name the same "+kind,
		fmt.Sprintf("Another %s in this configuration also has %s = %q. Both would manage one %s: the second "+
			"create would take over the first's, and destroying either would delete it with the other's data. "+
			"Give each resource its own name (for example with count.index or each.key).",
			resourceType, attr, name, kind))
}

// priorID is the id of the object a plan starts from, "" on create.
func priorID(ctx context.Context, req resource.ModifyPlanRequest) string {
	if req.State.Raw.IsNull() {
		return ""
	}
	var id types.String
	_ = req.State.GetAttribute(ctx, path.Root("id"), &id) // every resource has an id
	return id.ValueString()
}

// checkExclusiveMounts adds a plan-time error on each volume_mount whose
// known volume another sbx_sandbox of this configuration also mounts, on a
// platform where a volume is mounted by one box at a time
// (Capabilities.VolumeMountsExclusive). A volume id not known yet (a volume
// of this apply) is judged at apply, by the platform.
func checkExclusiveMounts(ctx context.Context, names *nameRegistry, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse,
	platformName string, plan sandboxModel) {
	if names == nil || plan.VolumeMounts.IsNull() || plan.VolumeMounts.IsUnknown() {
		return
	}
	var decode diag.Diagnostics
	prior := priorID(ctx, req)
	for i, m := range sandboxMountsFromTF(ctx, plan.VolumeMounts, &decode) {
		if m.VolumeID.IsNull() || m.VolumeID.IsUnknown() || m.VolumeID.ValueString() == "" {
			continue
		}
		id := m.VolumeID.ValueString()
		if !names.claim("volume mount", id, prior, req.Config.Raw) {
			continue
		}
		resp.Diagnostics.AddAttributeError(path.Root("volume_mount").AtListIndex(i).AtName("volume_id"), "Two sandboxes mount one volume",
			fmt.Sprintf("Another sbx_sandbox in this configuration also mounts volume %s. %s mounts a volume on one sandbox at a time, "+
				"so the second create would fail. Give each sandbox its own sbx_volume.", id, platformName))
	}
}
