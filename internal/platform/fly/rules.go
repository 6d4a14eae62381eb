package fly

import (
	"context"
	"fmt"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// sandboxRules judges a planned machine against Fly's rules that span
// objects: a machine mounts one volume (also the row's Max 1), of its own
// region, (a volume another machine mounts is refused at apply: a
// replacement's old machine still mounts it at plan time).
type sandboxRules struct{ p *Platform }

// CheckSandbox implements platform.SandboxRules; the machine's region is
// the planned one, else the provider's; the volume's is read from Fly.
func (r sandboxRules) CheckSandbox(ctx context.Context, plan platform.SandboxPlan) []platform.Problem {
	var out []platform.Problem
	mounts := plan.Spec.VolumeMounts
	if len(mounts) > 1 {
		out = append(out, platform.Problem{Attribute: "volume_mount", Index: 1, Summary: "Too many volume mounts for Fly",
			Detail: fmt.Sprintf("A Fly machine mounts one volume; this sandbox mounts %d. Keep one volume_mount.", len(mounts))})
	}
	out = append(out, guestProblems(plan.Spec.CPUCount, plan.Spec.MemoryMB)...)
	region := plan.Spec.Region
	if region == "" {
		region = r.p.region
	}
	for i, m := range mounts {
		if m.VolumeID == "" {
			continue
		}
		vol, err := (&volumes{p: r.p}).get(ctx, m.VolumeID)
		if err != nil {
			continue // an unreadable volume is judged at apply
		}
		if region != "" && vol.Region != region {
			out = append(out, platform.Problem{Attribute: "volume_mount", Index: i, Field: "volume_id",
				Summary: "Volume in another Fly region",
				Detail: fmt.Sprintf("Volume %s is in region %s and the sandbox in %s: a Fly machine mounts only volumes of its region. "+
					"Set the sandbox's region = %q, or make the volume in %q.", m.VolumeID, vol.Region, region, vol.Region, region)})
		}
	}
	return out
}

// guestProblems judges a planned size against the shared-CPU guests Fly
// sells (Fly docs machines/guides-examples/machine-sizing; fly-go
// machine_types.go): 1, 2, 4, 8 or 16 CPUs, with 256 to 2048 MB per CPU. A
// zero is unset or unknown: the memory is judged only with a known CPU count.
func guestProblems(cpus, memoryMB int64) []platform.Problem {
	var out []platform.Problem
	switch cpus {
	case 0, 1, 2, 4, 8, 16:
	default:
		return append(out, platform.Problem{Attribute: "cpu_count", Index: -1, Summary: "CPU count Fly does not sell",
			Detail: fmt.Sprintf("cpu_count = %d: Fly machines have 1, 2, 4, 8 or 16 shared CPUs.", cpus)})
	}
	if cpus == 0 || memoryMB == 0 {
		return out
	}
	if lo, hi := 256*cpus, 2048*cpus; memoryMB < lo || memoryMB > hi {
		out = append(out, platform.Problem{Attribute: "memory_mb", Index: -1, Summary: "Memory size Fly does not sell for the CPU count",
			Detail: fmt.Sprintf("memory_mb = %d with cpu_count = %d: Fly gives %d shared CPU(s) %d to %d MB (256 to 2048 MB per CPU). "+
				"Set memory_mb in that range, or change cpu_count.", memoryMB, cpus, cpus, lo, hi)})
	}
	return out
}
