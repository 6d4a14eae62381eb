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
