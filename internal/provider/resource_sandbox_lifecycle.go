package provider

import (
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

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

// sandboxNotEnforcedNote is the same sentence on every lifecycle attribute:
// where the platform does not act on deadlines, they are still tracked.
const sandboxNotEnforcedNote = " On Docker, which enforces no deadlines, the deadline is tracked — " +
	"`expires_at`, `retention_status`, plan warnings and the drift detector — but not enforced: nothing stops the box."

// sandboxLifecycleAttributes are the deadlines a user sets on a box.
// Platform limits are checked in ModifyPlan, where the platform is known.
func sandboxLifecycleAttributes() map[string]schema.Attribute {
	// duration is a lifecycle setting; tracked says Docker keeps its
	// deadline (it enforces none).
	duration := func(desc string, tracked bool) schema.StringAttribute {
		desc += " A positive duration such as `1h`, `90m` or `7d`."
		if tracked {
			desc += sandboxNotEnforcedNote
		}
		return schema.StringAttribute{
			MarkdownDescription: desc,
			Optional:            true,
			Validators:          []validator.String{positiveDurationValidator{}},
		}
	}
	actions := []string{string(platform.OnTimeoutKill), string(platform.OnTimeoutPause), string(platform.OnTimeoutStop)}
	return map[string]schema.Attribute{
		"timeout": duration("How long the box may run (counted from its last start or resume) before `on_timeout` "+
			"happens. Platforms cap it (E2B: 1h on the base tier, 24h on Pro); a longer value is a plan-time error. When "+
			"omitted: on E2B the provider sends 300s (E2B's own API default, 15s, is too short for an agent; 300s is what "+
			"its SDKs send); on Docker there is no timeout. Changed in place on Docker and E2B.", true),
		"on_timeout": schema.StringAttribute{
			MarkdownDescription: "What happens when `timeout` runs out: `kill` (the default), `pause` or `stop` " +
				"(Docker offers all three, E2B `kill` and `pause`). Needs `timeout`. A value the platform does not offer " +
				"is a plan-time error listing the ones it does. Changed in place on Docker; on E2B it is fixed at create, " +
				"so a change replaces the sandbox." + sandboxNotEnforcedNote,
			Optional: true,
			Validators: []validator.String{
				stringvalidator.OneOf(actions...),
				stringvalidator.AlsoRequires(path.MatchRoot("timeout")),
			},
		},
		"idle_timeout": duration("How long the box may sit without activity before the platform stops it. A plan-time error on "+
			"Docker, which reports no activity inside a box (no idle deadline could be tracked), and on E2B, which has "+
			"no idle timeout.", false),
		"auto_archive_after": duration("How long a stopped box stays stopped before the platform archives it. A "+
			"plan-time error on Docker and E2B, neither of which has an archived state.", false),
		"auto_delete_after": duration("How long a stopped box stays stopped before it is deleted. Off by default. "+
			"Changed in place on Docker. A plan-time error on E2B, which deletes no stopped sandboxes by itself.", true),
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
		return types.StringValue(d.String())
	}
	m.Timeout = str(lc.Timeout)
	m.OnTimeout = stringOrNull(string(lc.OnTimeout))
	m.IdleTimeout = str(lc.IdleTimeout)
	m.AutoArchiveAfter = str(lc.AutoArchiveAfter)
	m.AutoDeleteAfter = str(lc.AutoDeleteAfter)
}

// sandboxLifecycleChanged reports whether any lifecycle setting differs.
func sandboxLifecycleChanged(plan, state sandboxModel) bool {
	return !plan.Timeout.Equal(state.Timeout) || !plan.OnTimeout.Equal(state.OnTimeout) ||
		!plan.IdleTimeout.Equal(state.IdleTimeout) || !plan.AutoArchiveAfter.Equal(state.AutoArchiveAfter) ||
		!plan.AutoDeleteAfter.Equal(state.AutoDeleteAfter)
}

// sandboxLifecycleUnknown reports whether any lifecycle setting is unknown
// at plan time (it comes from a resource created in the same apply).
func sandboxLifecycleUnknown(m sandboxModel) bool {
	return m.Timeout.IsUnknown() || m.OnTimeout.IsUnknown() || m.IdleTimeout.IsUnknown() ||
		m.AutoArchiveAfter.IsUnknown() || m.AutoDeleteAfter.IsUnknown()
}
