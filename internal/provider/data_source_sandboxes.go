package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

var _ datasource.DataSourceWithConfigure = (*sandboxesDataSource)(nil)

// sandboxesDataSource lists the platform's boxes with their retention,
// newest first; made for `check` blocks that fail when a box has expired.
type sandboxesDataSource struct {
	// defs are the platforms the provider offers, whose tables document the
	// schema (nil: platforms.All()).
	defs      []platform.Definition
	platform  platform.Platform
	retention retentionSettings
}

// newSandboxesDataSource returns the sbx_sandboxes data source of a provider
// offering defs.
func newSandboxesDataSource(defs []platform.Definition) datasource.DataSource {
	return &sandboxesDataSource{defs: defs}
}

type sandboxesDataSourceModel struct {
	Labels          types.Map    `tfsdk:"labels"`
	Status          types.String `tfsdk:"status"`
	RetentionStatus types.String `tfsdk:"retention_status"`
	IDs             types.List   `tfsdk:"ids"`
	Sandboxes       types.List   `tfsdk:"sandboxes"`
}

func (d *sandboxesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_sandboxes"
}

func (d *sandboxesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defs := definitionsOr(d.defs)
	// A box's own lifecycle settings that the platform does not report
	// live in Terraform state only.
	lifecycleUnreported := platformsAside(defs, func(c platform.Capabilities) bool {
		return c.Accepts(platform.AttrSandboxTimeout) && c.Attribute(platform.AttrSandboxTimeout).Unreported
	})
	pauseKind := platformsAside(defs, func(c platform.Capabilities) bool { return c.PauseKindUnreported })
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the sandboxes (boxes) the provider manages on the platform, newest first, with each box's " +
			"retention deadline judged now: `expires_at`, `retention_status` (`ok`, `expiring` within the provider's " +
			"`retention.warn_before`, or `expired`), and the rule and action behind it. The deadline is computed from what " +
			"the platform reports about the box, with the same policy, overrides and clock as `sbx_sandbox`. Finding none is " +
			"not an error (the list is empty). Made for `check` blocks, e.g. one that fails when any box has expired. " +
			"Where the platform does not report a box's own `timeout` and other lifecycle settings" + lifecycleUnreported +
			", they live only in Terraform state, so here only the provider's `retention` overrides give its boxes a " +
			"deadline (see the retention guide). On platforms that cannot tell a paused box from a stopped one" + pauseKind +
			", a `paused` or `stopped` `status` filter matches every box the platform reports paused.",
		Attributes: map[string]schema.Attribute{
			"labels": schema.MapAttribute{
				MarkdownDescription: "Only boxes carrying every one of these labels (other labels may be present too).",
				ElementType:         types.StringType,
				Optional:            true,
				Validators:          []validator.Map{labelKeysValidator{}},
			},
			"status": schema.StringAttribute{
				MarkdownDescription: "Only boxes the platform reports in this normalized state: " + sandboxesMDList(sandboxReportedStates) + ". " +
					"Where the platform reports a paused box the same way whether its memory was kept or not" + pauseKind +
					", `paused` and `stopped` both match every box it reports paused, and those boxes list " +
					"with `status = \"paused\"`.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.OneOf(sandboxReportedStates...)},
			},
			"retention_status": schema.StringAttribute{
				MarkdownDescription: "Only boxes whose retention is in this status now: `ok` (no deadline, or one further away than " +
					"`warn_before`), `expiring` (within `warn_before`) or `expired` (the deadline has passed).",
				Optional:   true,
				Validators: []validator.String{stringvalidator.OneOf(retentionStatuses...)},
			},
			"ids": schema.ListAttribute{
				MarkdownDescription: "The ids of the matching boxes, newest first (the same order as `sandboxes`).",
				ElementType:         types.StringType,
				Computed:            true,
			},
			"sandboxes": schema.ListNestedAttribute{
				MarkdownDescription: "The matching boxes, newest first by `created_at` (ties broken by id, so the order is stable). Empty when none match.",
				Computed:            true,
				NestedObject:        schema.NestedAttributeObject{Attributes: sandboxResultAttributes(defs)},
			},
		},
	}
}

// sandboxResultAttributes are the facts about one box, as the items of
// sbx_sandboxes.sandboxes, documented for the platforms defs.
func sandboxResultAttributes(defs []platform.Definition) map[string]schema.Attribute {
	str := func(d string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: d, Computed: true}
	}
	tracked := ""
	if aside := platformsAside(defs, func(c platform.Capabilities) bool { return !c.EnforcesDeadlines }); aside != "" {
		tracked = ", or, where the platform enforces no deadlines" + aside + ", when the tracked deadline passes"
	}
	return map[string]schema.Attribute{
		"id":              str("The box's id; use it to import it as an `sbx_sandbox`."),
		"name":            str("The box's name."),
		"status":          str("The box's state, normalized: " + sandboxesMDList(sandboxReportedStates) + "."),
		"platform_status": str("The state in the platform's own words (e.g. `exited`)."),
		"template_id":     str("The template the box was made from; null when it was restored from a snapshot."),
		"labels": schema.MapAttribute{
			MarkdownDescription: "The box's labels (without the provider's reserved `" + platform.LabelPrefix + "` keys).",
			ElementType:         types.StringType,
			Computed:            true,
		},
		"created_at": str("When the box was created (RFC 3339)."),
		"started_at": str("When the box last started or resumed (RFC 3339); null when it never ran."),
		"expires_at": str("The earliest retention deadline (RFC 3339, UTC): when the platform kills, pauses, stops " +
			"or deletes the box by itself" + tracked + ". Null when no rule gives one."),
		"retention_status": str("`ok`, `expiring` (the deadline is within the provider's `retention.warn_before`) or `expired`, judged when the data source is read."),
		"retention_rule":   str("The key of the retention rule behind `expires_at` (see the retention guide); null without a deadline."),
		"retention_action": str("What happens at `expires_at`: `kill`, `pause`, `stop` or `delete`; null without a deadline."),
	}
}

// sandboxResultAttrTypes is the object type of one item of sbx_sandboxes.sandboxes.
var sandboxResultAttrTypes = map[string]attr.Type{
	"id":               types.StringType,
	"name":             types.StringType,
	"status":           types.StringType,
	"platform_status":  types.StringType,
	"template_id":      types.StringType,
	"labels":           types.MapType{ElemType: types.StringType},
	"created_at":       types.StringType,
	"started_at":       types.StringType,
	"expires_at":       types.StringType,
	"retention_status": types.StringType,
	"retention_rule":   types.StringType,
	"retention_action": types.StringType,
}

// sandboxResultObject renders one box as an item of sbx_sandboxes.sandboxes.
func sandboxResultObject(m sandboxMatch) (types.Object, diag.Diagnostics) {
	sb, r := m.Sandbox, m.Retention
	return types.ObjectValue(sandboxResultAttrTypes, map[string]attr.Value{
		"id":               types.StringValue(sb.ID),
		"name":             stringOrNull(sb.Name),
		"status":           stringOrNull(string(sb.Status)),
		"platform_status":  stringOrNull(sb.PlatformStatus),
		"template_id":      stringOrNull(sb.TemplateID),
		"labels":           dsUserLabels(sb.Labels),
		"created_at":       timeStringOrNull(sb.CreatedAt),
		"started_at":       timeStringOrNull(sb.StartedAt),
		"expires_at":       r.ExpiresAt,
		"retention_status": r.Status,
		"retention_rule":   r.Rule,
		"retention_action": r.Action,
	})
}

func (d *sandboxesDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.platform = platformFrom(req.ProviderData, &resp.Diagnostics)
	d.retention = retentionFrom(req.ProviderData)
}

func (d *sandboxesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m sandboxesDataSourceModel
	resp.Diagnostics.Append(getConfig(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	q := sandboxQuery{
		Labels:          mapFromTF(ctx, m.Labels, &resp.Diagnostics),
		Status:          platform.SandboxState(m.Status.ValueString()),
		RetentionStatus: m.RetentionStatus.ValueString(),
		// Asked before listing: the platform answers per its own capability row.
		PauseKindUnreported: d.platform.Capabilities().PauseKindUnreported,
	}
	if resp.Diagnostics.HasError() {
		return
	}
	all, err := d.platform.Sandboxes().List(ctx, q.platformFilter())
	if err != nil {
		addPlatformError(&resp.Diagnostics, "list", "sandboxes", "", err)
		return
	}
	// One instant for every box, so two boxes with the same deadline can
	// never be judged differently within one read.
	at := d.retention.now()
	name := d.platform.Name()
	matches := selectSandboxes(all, q, func(sb platform.Sandbox) retentionFields {
		dl, ok := d.retention.policy.Deadline(sandboxRetentionObject(name, sb), at)
		return retentionFieldsOf(dl, ok, at, d.retention.warnBefore)
	})

	ids := make([]attr.Value, 0, len(matches))
	objs := make([]attr.Value, 0, len(matches))
	for _, x := range matches {
		o, diags := sandboxResultObject(x)
		resp.Diagnostics.Append(diags...)
		ids = append(ids, types.StringValue(x.Sandbox.ID))
		objs = append(objs, o)
	}
	var diags diag.Diagnostics
	m.IDs, diags = types.ListValue(types.StringType, ids)
	resp.Diagnostics.Append(diags...)
	m.Sandboxes, diags = types.ListValue(types.ObjectType{AttrTypes: sandboxResultAttrTypes}, objs)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(setState(ctx, &resp.State, &m)...)
}
