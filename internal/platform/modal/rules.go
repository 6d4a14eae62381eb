package modal

import (
	"context"
	"fmt"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// sandboxRules judges a planned box against what Modal's restore from a
// memory snapshot can do (Extensions.SandboxRules).
type sandboxRules struct{ p *Platform }

// CheckSandbox implements platform.SandboxRules: a name Modal refuses is
// an error at plan time rather than at apply; and a box restored from a
// memory snapshot is the snapshot's box, so the SDK's restore takes
// nothing of the configuration but its name: no volume mounts (Modal's
// SandboxRestore has them; the SDK does not pass them), no size, env,
// deadlines, network or memory snapshot setting. Each one set is a
// plan-time error rather than a setting silently dropped.
func (r sandboxRules) CheckSandbox(_ context.Context, plan platform.SandboxPlan) []platform.Problem {
	spec := plan.Spec
	var problems []platform.Problem
	if spec.Name != "" {
		if p := nameProblem(spec.Name); p != "" {
			problems = append(problems, platform.Problem{Attribute: "name", Index: -1, Summary: "Invalid Modal sandbox name",
				Detail: fmt.Sprintf("name = %q %s.", spec.Name, p)})
		}
	}
	id := spec.FromSnapshotID
	if id == "" || isImageID(id) {
		return problems
	}
	refuse := func(attr, what string, set bool) {
		if !set {
			return
		}
		problems = append(problems, platform.Problem{Attribute: attr, Index: -1,
			Summary: fmt.Sprintf("%s on a sandbox restored from a memory snapshot", attr),
			Detail: fmt.Sprintf("from_snapshot_id = %q is a Modal memory snapshot: the restored sandbox is the one the snapshot "+
				"was taken of, with its %s, and the SDK's restore takes no %s. Remove %s, or start the sandbox from a "+
				"filesystem snapshot (an im-… id) or a template.", id, what, attr, attr)})
	}
	if len(spec.VolumeMounts) > 0 {
		problems = append(problems, platform.Problem{Attribute: "volume_mount", Index: 0, Summary: "Volume mount on a sandbox restored from a memory snapshot",
			Detail: fmt.Sprintf("from_snapshot_id = %q is a Modal memory snapshot, and the SDK's restore cannot re-mount volumes. "+
				"Remove the volume_mount blocks, or start the sandbox from a filesystem snapshot (an im-… id) or a template.", id)})
	}
	refuse("cpu_count", "size", spec.CPUCount > 0)
	refuse("memory_mb", "size", spec.MemoryMB > 0)
	refuse("env", "environment", len(spec.Env) > 0)
	refuse("timeout", "timeout", spec.Lifecycle.Timeout > 0)
	refuse("idle_timeout", "idle timeout", spec.Lifecycle.IdleTimeout > 0)
	refuse("network", "network rules", spec.Network != nil)
	refuse("memory_snapshots", "memory snapshot setting", spec.MemorySnapshots)
	return problems
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
