package provider

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/listing"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// snapshotFilterAttributes are the filters sbx_snapshot and sbx_snapshots
// share. On sbx_snapshot the ones that are also results (name, labels,
// sandbox_id, volume_id) are computed too, filled from the snapshot found.
func snapshotFilterAttributes(alsoResults bool) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"name": schema.StringAttribute{
			MarkdownDescription: "Only snapshots with exactly this name." + dsResultNote(alsoResults, "The snapshot's name."),
			Optional:            true,
			Computed:            alsoResults,
		},
		"name_regex": schema.StringAttribute{
			MarkdownDescription: "Only snapshots whose name matches this Go (RE2) regular expression, e.g. `^nightly-`. " +
				"An invalid expression is an error at plan time.",
			Optional:   true,
			Validators: []validator.String{goRegexpValidator{}},
		},
		"labels": schema.MapAttribute{
			MarkdownDescription: "Only snapshots carrying every one of these labels (other labels may be present too)." +
				dsResultNote(alsoResults, "The snapshot's labels (without the provider's reserved `"+platform.LabelPrefix+"` keys)."),
			ElementType: types.StringType,
			Optional:    true,
			Computed:    alsoResults,
			Validators:  []validator.Map{labelKeysValidator{}},
		},
		"sandbox_id": schema.StringAttribute{
			MarkdownDescription: "Only snapshots taken of this sandbox." + dsResultNote(alsoResults, "The sandbox the snapshot was taken of, if any."),
			Optional:            true,
			Validators:          []validator.String{objectIDValidator("sandbox")},
			Computed:            alsoResults,
		},
		"volume_id": schema.StringAttribute{
			MarkdownDescription: "Only snapshots taken of this volume." + dsResultNote(alsoResults, "The volume the snapshot was taken of, if any."),
			Optional:            true,
			Validators:          []validator.String{objectIDValidator("volume")},
			Computed:            alsoResults,
		},
		"include_expired": schema.BoolAttribute{
			MarkdownDescription: "Also consider snapshots whose `expires_at` has already passed (the platform may delete them at any moment). Defaults to `false`.",
			Optional:            true,
		},
	}
}

func dsResultNote(alsoResult bool, s string) string {
	if !alsoResult {
		return ""
	}
	return " When not set: " + s
}

// snapshotNoCreatedAt and snapshotNoSize pick the platforms that do not
// report when a snapshot was made, or its size.
func snapshotNoCreatedAt(c platform.Capabilities) bool { return !c.SnapshotCreatedAt }
func snapshotNoSize(c platform.Capabilities) bool      { return !c.SnapshotSize }

// snapshotResultAttributes are the read-only facts about one snapshot, as
// the items of sbx_snapshots.snapshots, documented for the platforms defs.
func snapshotResultAttributes(defs []platform.Definition) map[string]schema.Attribute {
	str := func(d string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: d, Computed: true}
	}
	return map[string]schema.Attribute{
		"id":                 str("The snapshot's id; use it as `from_snapshot_id` or to import it."),
		"name":               str("The snapshot's name."),
		"kind":               str("What the snapshot holds: `filesystem`, `memory` or `volume`."),
		"sandbox_id":         str("The sandbox the snapshot was taken of, if any."),
		"volume_id":          str("The volume the snapshot was taken of, if any."),
		"parent_snapshot_id": str("The snapshot the source sandbox had been restored from, if any (lineage)."),
		"size_bytes": schema.Int64Attribute{MarkdownDescription: "Size of the snapshot in bytes, as the platform reports it; " +
			"null where the platform does not report sizes" + platformsAside(defs, snapshotNoSize) + ".", Computed: true},
		"created_at": str("When the snapshot was taken (RFC 3339); null where the platform does not report it" +
			platformsAside(defs, snapshotNoCreatedAt) + "."),
		"expires_at": str("When the platform deletes the snapshot (RFC 3339); null when it never does."),
		"labels": schema.MapAttribute{
			MarkdownDescription: "The snapshot's labels (without the provider's reserved `" + platform.LabelPrefix + "` keys).",
			ElementType:         types.StringType,
			Computed:            true,
		},
	}
}

// snapshotResultAttrTypes is the object type of one item of sbx_snapshots.snapshots.
var snapshotResultAttrTypes = map[string]attr.Type{
	"id":                 types.StringType,
	"name":               types.StringType,
	"kind":               types.StringType,
	"sandbox_id":         types.StringType,
	"volume_id":          types.StringType,
	"parent_snapshot_id": types.StringType,
	"size_bytes":         types.Int64Type,
	"created_at":         types.StringType,
	"expires_at":         types.StringType,
	"labels":             types.MapType{ElemType: types.StringType},
}

// snapshotResultObject renders one snapshot as an item of sbx_snapshots.snapshots.
func snapshotResultObject(caps platform.Capabilities, s platform.Snapshot) (types.Object, diag.Diagnostics) {
	return types.ObjectValue(snapshotResultAttrTypes, map[string]attr.Value{
		"id":                 types.StringValue(s.ID),
		"name":               stringOrNull(s.Name),
		"kind":               stringOrNull(string(s.Kind)),
		"sandbox_id":         stringOrNull(s.SandboxID),
		"volume_id":          stringOrNull(s.VolumeID),
		"parent_snapshot_id": stringOrNull(s.ParentSnapshotID),
		"size_bytes":         snapshotSizeOrNull(caps, s),
		"created_at":         timeStringOrNull(s.CreatedAt),
		"expires_at":         timeStringOrNull(s.ExpiresAt),
		"labels":             dsUserLabels(s.Labels),
	})
}

// snapshotFilterModel holds the filters as the configuration gives them.
type snapshotFilterModel struct {
	Name           types.String `tfsdk:"name"`
	NameRegex      types.String `tfsdk:"name_regex"`
	Labels         types.Map    `tfsdk:"labels"`
	SandboxID      types.String `tfsdk:"sandbox_id"`
	VolumeID       types.String `tfsdk:"volume_id"`
	IncludeExpired types.Bool   `tfsdk:"include_expired"`
}

// query turns the configured filters into a snapshotQuery. The regexp was
// validated at plan time; compiling it again here cannot fail then, but an
// error is still reported rather than ignored.
func (m snapshotFilterModel) query(ctx context.Context, diags *diag.Diagnostics) snapshotQuery {
	q := snapshotQuery{
		Name:           m.Name.ValueString(),
		Labels:         mapFromTF(ctx, m.Labels, diags),
		SandboxID:      m.SandboxID.ValueString(),
		VolumeID:       m.VolumeID.ValueString(),
		IncludeExpired: m.IncludeExpired.ValueBool(),
	}
	if expr := m.NameRegex.ValueString(); expr != "" {
		re, err := regexp.Compile(expr)
		if err != nil {
			diags.AddError("Invalid regular expression", "name_regex: "+err.Error())
			return q
		}
		q.NameRegex = re
	}
	return q
}

// listSnapshots reads every matching snapshot from the platform (its List
// reads all pages) and selects those matching q at the given time (the
// provider's clock): newest first where the platform reports when a
// snapshot was made, else in the platform's listing order, since there is
// no time to order by.
func listSnapshots(ctx context.Context, p platform.Platform, q snapshotQuery, at time.Time, diags *diag.Diagnostics) []platform.Snapshot {
	if (q.Name != "" || q.NameRegex != nil) && !p.Capabilities().SnapshotNames {
		attr := "name"
		if q.Name == "" {
			attr = "name_regex"
		}
		diags.AddAttributeError(path.Root(attr), attr+" is not supported on "+p.Name(),
			fmt.Sprintf("%s snapshots have no name, so no snapshot can match %s. Select snapshots by their source "+
				"(volume_id or sandbox_id) instead.", p.Name(), attr))
		return nil
	}
	if (q.SandboxID != "" || q.VolumeID != "") && !p.Capabilities().SnapshotListsBySource {
		attr, value := "sandbox_id", q.SandboxID
		if q.VolumeID != "" {
			attr, value = "volume_id", q.VolumeID
		}
		diags.AddAttributeError(path.Root(attr), attr+" is not supported on "+p.Name(),
			fmt.Sprintf("%s = %q: %s does not record which sandbox or volume a snapshot was taken of, so it cannot "+
				"select a source's snapshots. Find the snapshot by name or name_regex instead (a snapshot taken by "+
				"this provider carries the name its sbx_snapshot gave it).", attr, value, p.Name()))
		return nil
	}
	all, err := listing.Twice(ctx, func(ctx context.Context) ([]platform.Snapshot, error) {
		return p.Snapshots().List(ctx, q.platformFilter())
	}, func(s platform.Snapshot) string { return s.ID })
	if err != nil {
		addPlatformError(diags, "list", "snapshots", "", err)
		return nil
	}
	if !p.Capabilities().SnapshotCreatedAt {
		out := make([]platform.Snapshot, 0, len(all))
		for _, s := range all {
			if q.matches(s, at) {
				out = append(out, s)
			}
		}
		return out
	}
	return selectSnapshots(all, q, at)
}

// snapshotSizeOrNull is a snapshot's size_bytes: null where the platform
// does not report sizes, so a 0 is never mistaken for an empty snapshot.
func snapshotSizeOrNull(caps platform.Capabilities, s platform.Snapshot) types.Int64 {
	if !caps.SnapshotSize {
		return types.Int64Null()
	}
	return types.Int64Value(s.SizeBytes)
}
