package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// volumeCheckRules asks a platform that offers them (Extensions.VolumeRules)
// to judge the planned volume against its own rules, and reports each
// problem as a plan-time error on the attribute it names. Values not known
// yet reach the rules as zero.
func volumeCheckRules(ctx context.Context, plat platform.Platform, plan volumeModel, diags *diag.Diagnostics) {
	rules := plat.Extensions().VolumeRules
	if rules == nil {
		return
	}
	// ValueString and ValueInt64 of an unknown value are zero already.
	spec := platform.VolumeSpec{
		Name:                  plan.Name.ValueString(),
		SizeGB:                plan.SizeGB.ValueInt64(),
		SnapshotRetentionDays: plan.SnapshotRetention.ValueInt64(),
		Region:                plan.Region.ValueString(),
		FromSnapshotID:        plan.FromSnapshotID.ValueString(),
	}
	for _, p := range rules.CheckVolume(ctx, spec) {
		at := path.Root(p.Attribute)
		if p.Index >= 0 {
			at = at.AtListIndex(p.Index)
		}
		if p.Field != "" {
			at = at.AtName(p.Field)
		}
		diags.AddAttributeError(at, p.Summary, p.Detail)
	}
}
