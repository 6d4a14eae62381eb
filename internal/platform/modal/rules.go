package modal

import (
	"context"
	"fmt"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// sandboxRules judges a planned box against what Modal's restore from a
// memory snapshot can do (Extensions.SandboxRules).
type sandboxRules struct{ p *Platform }

// CheckSandbox implements platform.SandboxRules: a box restored from a
// memory snapshot mounts no volume, since the SDK's restore takes none
// (Modal's SandboxRestore has volume mounts; the SDK does not pass them).
func (r sandboxRules) CheckSandbox(_ context.Context, plan platform.SandboxPlan) []platform.Problem {
	id := plan.Spec.FromSnapshotID
	if id == "" || isImageID(id) || len(plan.Spec.VolumeMounts) == 0 {
		return nil
	}
	return []platform.Problem{{Attribute: "volume_mount", Index: 0, Summary: "Volume mount on a sandbox restored from a memory snapshot",
		Detail: fmt.Sprintf("from_snapshot_id = %q is a Modal memory snapshot, and the SDK's restore cannot re-mount volumes. "+
			"Remove the volume_mount blocks, or start the sandbox from a filesystem snapshot (an im-… id) or a template.", id)}}
}

// snapshotRules judges a planned snapshot against its source box
// (Extensions.SnapshotRules).
type snapshotRules struct{ p *Platform }

// CheckSnapshot implements platform.SnapshotRules: a memory snapshot needs
// a box made with memory snapshots on, which its tags record. A box that
// cannot be read, or records nothing (made outside the provider), is
// judged by Modal at apply.
func (r snapshotRules) CheckSnapshot(ctx context.Context, spec platform.SnapshotSpec) []platform.Problem {
	if !spec.IncludeMemory || spec.SandboxID == "" {
		return nil
	}
	tags, err := (&snapshots{p: r.p}).tagsOf(ctx, spec.SandboxID)
	if err != nil || tags[tagMemorySnapshots] != "false" {
		return nil
	}
	return []platform.Problem{{Attribute: "include_memory", Index: -1, Summary: "Memory snapshots are off for this sandbox",
		Detail: fmt.Sprintf("Sandbox %s was made without memory snapshots, and Modal takes a memory snapshot only of a sandbox "+
			"made with them. Set the sandbox's memory_snapshots = true (this replaces it), or take a filesystem snapshot "+
			"(include_memory = false).", spec.SandboxID)}}
}
