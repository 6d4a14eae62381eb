package provider

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
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

// sandboxLifecycleInPlace says, per lifecycle attribute, whether the
// platform changes it on a live box: none where the capability row says
// !LifecycleMutable, else those it names in LifecycleInPlace (all when it
// names none).
func sandboxLifecycleInPlace(caps platform.Capabilities) func(path.Path) bool {
	return func(p path.Path) bool {
		if !caps.LifecycleMutable {
			return false
		}
		return len(caps.LifecycleInPlace) == 0 ||
			slices.ContainsFunc(caps.LifecycleInPlace, func(a string) bool { return path.Root(a).Equal(p) })
	}
}

// sandboxLifecycleReplacePaths lists the changed lifecycle settings the
// platform cannot change in place: each replaces the box.
func sandboxLifecycleReplacePaths(caps platform.Capabilities, plan, state sandboxModel) path.Paths {
	return sandboxLifecycleFixedChanges(sandboxLifecycleInPlace(caps), plan, state)
}

// sandboxLifecycleFixedChanges lists the changed lifecycle settings that do
// not change in place (inPlace false), each of which replaces the box. An
// on_timeout left out is "kill", the default wherever a box has a timeout
// (E2B reports it as unset), so writing it out or leaving it out is no change
// of box.
func sandboxLifecycleFixedChanges(inPlace func(path.Path) bool, plan, state sandboxModel) path.Paths {
	onTimeout := func(v types.String) types.String {
		if v.IsNull() {
			return types.StringValue(string(platform.OnTimeoutKill))
		}
		return v
	}
	var out path.Paths
	for _, c := range []struct {
		p    path.Path
		a, b types.String
	}{
		{pathSandboxTimeout, plan.Timeout, state.Timeout},
		{pathSandboxOnTimeout, onTimeout(plan.OnTimeout), onTimeout(state.OnTimeout)},
		{pathSandboxIdleTimeout, plan.IdleTimeout, state.IdleTimeout},
		{pathSandboxAutoArchiveAfter, plan.AutoArchiveAfter, state.AutoArchiveAfter},
		{pathSandboxAutoDeleteAfter, plan.AutoDeleteAfter, state.AutoDeleteAfter},
	} {
		if !c.a.Equal(c.b) && !inPlace(c.p) {
			out = append(out, c.p)
		}
	}
	return out
}

// sandboxCheckLifecycle reports every lifecycle setting the platform cannot
// honour or that exceeds its limits, naming attribute, value and what is allowed.
func sandboxCheckLifecycle(caps platform.Capabilities, platformName string, plan sandboxModel, diags *diag.Diagnostics) {
	if isSet(plan.Timeout) && len(caps.OnTimeoutActions) == 0 {
		addUnsupportedError(diags, pathSandboxTimeout, valueForMessage(plan.Timeout), platformName,
			"this platform has no sandbox timeout; remove timeout and on_timeout")
	} else {
		sandboxCheckMax(diags, pathSandboxTimeout, plan.Timeout, caps.MaxTimeout, platformName)
	}
	if v := plan.OnTimeout; isSet(v) && !v.IsUnknown() && len(caps.OnTimeoutActions) > 0 &&
		!slices.Contains(caps.OnTimeoutActions, platform.OnTimeoutAction(v.ValueString())) {
		allowed := make([]string, 0, len(caps.OnTimeoutActions))
		for _, a := range caps.OnTimeoutActions {
			allowed = append(allowed, strconv.Quote(string(a)))
		}
		addUnsupportedError(diags, pathSandboxOnTimeout, valueForMessage(v), platformName,
			"on_timeout must be one of "+strings.Join(allowed, ", "))
	}
	if isSet(plan.IdleTimeout) && !caps.IdleTimeout {
		addUnsupportedError(diags, pathSandboxIdleTimeout, valueForMessage(plan.IdleTimeout), platformName,
			"this platform stops no idle sandboxes and reports no activity inside one, so no idle deadline can be "+
				"tracked; remove idle_timeout (timeout bounds how long a box runs)")
	}
	if isSet(plan.AutoArchiveAfter) && !caps.AutoArchive {
		addUnsupportedError(diags, pathSandboxAutoArchiveAfter, valueForMessage(plan.AutoArchiveAfter), platformName,
			"this platform has no archived state; remove auto_archive_after")
	} else {
		sandboxCheckMax(diags, pathSandboxAutoArchiveAfter, plan.AutoArchiveAfter, caps.MaxAutoArchive, platformName)
	}
	if isSet(plan.AutoDeleteAfter) && !caps.AutoDelete {
		addUnsupportedError(diags, pathSandboxAutoDeleteAfter, valueForMessage(plan.AutoDeleteAfter), platformName,
			"this platform does not delete stopped sandboxes by itself; remove auto_delete_after")
	}
}

// sandboxCheckMax rejects a duration above the platform's maximum (0: none).
func sandboxCheckMax(diags *diag.Diagnostics, p path.Path, v types.String, maxD time.Duration, platformName string) {
	if maxD <= 0 || v.IsNull() || v.IsUnknown() {
		return
	}
	if d := durationFromTF(v); d > maxD {
		diags.AddAttributeError(p, fmt.Sprintf("%s above the platform maximum", p),
			fmt.Sprintf("%s = %s is above the maximum of %s on %s. Set %s to %s or less.",
				p, strconv.Quote(v.ValueString()), retentionHumanDuration(maxD), platformName, p, retentionHumanDuration(maxD)))
	}
}
