package provider

import (
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/duration"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// The sandbox lifecycle attributes, in the order errors report them.
var (
	pathSandboxTimeout          = path.Root("timeout")
	pathSandboxOnTimeout        = path.Root("on_timeout")
	pathSandboxIdleTimeout      = path.Root("idle_timeout")
	pathSandboxAutoArchiveAfter = path.Root("auto_archive_after")
	pathSandboxAutoDeleteAfter  = path.Root("auto_delete_after")
)

// sandboxLifecycleAttributes are the deadlines a user sets on a box,
// documented for the platforms defs: what each accepts, its limits, and how
// it honours them (its rows' Doc says, for instance, that a deadline is
// tracked but not enforced). Platform limits are checked in ModifyPlan,
// where the platform is known.
func sandboxLifecycleAttributes(defs []platform.Definition) map[string]schema.Attribute {
	duration := func(desc, key string) schema.StringAttribute {
		return schema.StringAttribute{
			MarkdownDescription: withPlatformNotes(desc+" A positive duration such as `1h`, `90m` or `7d`.", defs, key),
			Optional:            true,
			Validators:          []validator.String{positiveDurationValidator{}},
		}
	}
	actions := []string{string(platform.OnTimeoutKill), string(platform.OnTimeoutPause), string(platform.OnTimeoutStop)}
	return map[string]schema.Attribute{
		"timeout": duration("How long the box may run (counted from its last start or resume) before `on_timeout` "+
			"happens. A value longer than the platform allows is a plan-time error.", platform.AttrSandboxTimeout),
		"on_timeout": schema.StringAttribute{
			MarkdownDescription: withPlatformNotes("What happens when `timeout` runs out: `kill` (the default), `pause` "+
				"or `stop`. Needs `timeout`. A value the platform does not offer is a plan-time error listing the ones it does.",
				defs, platform.AttrSandboxOnTimeout),
			Optional: true,
			Validators: []validator.String{
				stringvalidator.OneOf(actions...),
				stringvalidator.AlsoRequires(path.MatchRoot("timeout")),
			},
		},
		"idle_timeout": duration("How long the box may sit without activity before the platform stops it.",
			platform.AttrSandboxIdleTimeout),
		"auto_archive_after": duration("How long a stopped box stays stopped before the platform archives it.",
			platform.AttrSandboxAutoArchiveAfter),
		"auto_delete_after": duration("How long a stopped box stays stopped before it is deleted. Off by default.",
			platform.AttrSandboxAutoDeleteAfter),
	}
}

// sandboxLifecycleFromModel turns the planned lifecycle settings into what
// the platform is asked for. Values were validated at plan time.
func sandboxLifecycleFromModel(m sandboxModel) platform.Lifecycle {
	return platform.Lifecycle{
		Timeout:          durationFromTF(m.Timeout),
		OnTimeout:        platform.OnTimeoutAction(m.OnTimeout.ValueString()),
		IdleTimeout:      durationFromTF(m.IdleTimeout),
		AutoArchiveAfter: durationFromTF(m.AutoArchiveAfter),
		AutoDeleteAfter:  durationFromTF(m.AutoDeleteAfter),
	}
}

// sandboxLifecycleToModel fills the lifecycle settings a platform reports
// (after an import); unset ones stay null.
func sandboxLifecycleToModel(m *sandboxModel, lc platform.Lifecycle) {
	str := func(d time.Duration) types.String {
		if d <= 0 {
			return types.StringNull()
		}
		return types.StringValue(duration.Format(d))
	}
	m.Timeout = str(lc.Timeout)
	m.OnTimeout = stringOrNull(string(lc.OnTimeout))
	m.IdleTimeout = str(lc.IdleTimeout)
	m.AutoArchiveAfter = str(lc.AutoArchiveAfter)
	m.AutoDeleteAfter = str(lc.AutoDeleteAfter)
}

// sandboxLifecycleUnknown reports whether any lifecycle setting is unknown
// at plan time (it comes from a resource created in the same apply).
func sandboxLifecycleUnknown(m sandboxModel) bool {
	return m.Timeout.IsUnknown() || m.OnTimeout.IsUnknown() || m.IdleTimeout.IsUnknown() ||
		m.AutoArchiveAfter.IsUnknown() || m.AutoDeleteAfter.IsUnknown()
}
