package provider

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// sandboxUpdateFrom is the in-place change from state to plan, for
// SandboxService.Update, and whether there is one. State is not part of it
// (SetState moves a box). taken lists attributes that change only in the
// state (an imported box's unreported values, taken from the
// configuration: resource_unreported.go); they are not sent.
func sandboxUpdateFrom(ctx context.Context, plan, state sandboxModel, taken []string, diags *diag.Diagnostics) (platform.SandboxUpdate, bool) {
	var change platform.SandboxUpdate
	changed := false
	// A value an import took from the configuration is recorded, not
	// sent: the box keeps what it was made with (a platform that resizes
	// nothing in place would refuse it).
	differs := func(planned, prior attr.Value, key string) bool {
		return !planned.Equal(prior) && !slices.Contains(taken, key)
	}
	if differs(plan.CPUCount, state.CPUCount, platform.AttrSandboxCPUCount) || differs(plan.MemoryMB, state.MemoryMB, platform.AttrSandboxMemoryMB) {
		cpu, mem := plan.CPUCount.ValueInt64(), plan.MemoryMB.ValueInt64()
		change.CPUCount, change.MemoryMB = &cpu, &mem
		changed = true
	}
	if differs(plan.DiskMB, state.DiskMB, platform.AttrSandboxDiskMB) {
		disk := plan.DiskMB.ValueInt64()
		change.DiskMB = &disk
		changed = true
	}
	if !mapsSame(plan.Labels, state.Labels) && !slices.Contains(taken, platform.AttrSandboxLabels) {
		labels := mapFromTF(ctx, plan.Labels, diags)
		change.Labels = &labels
		changed = true
	}
	if !mapsSame(plan.Env, state.Env) && !slices.Contains(taken, platform.AttrSandboxEnv) {
		env := mapFromTF(ctx, plan.Env, diags)
		change.Env = &env
		changed = true
	}
	if sandboxNetworkChanged(ctx, plan.Network, state.Network) {
		// The whole block, as the platform replaces it as a whole.
		network := sandboxNetworkSpec(ctx, plan.Network, diags)
		if network == nil {
			network = &platform.Network{}
		}
		change.Network = network
		changed = true
	}
	keys := slices.DeleteFunc(sandboxLifecycleChanges(plan, state), func(k string) bool { return slices.Contains(taken, k) })
	if len(keys) > 0 {
		change.Lifecycle = &platform.LifecycleUpdate{Lifecycle: sandboxLifecycleFromModel(plan), Changed: keys}
		changed = true
	}
	return change, changed
}

// sandboxChangesMoreThanLifecycle reports whether change holds anything
// besides lifecycle settings.
func sandboxChangesMoreThanLifecycle(change platform.SandboxUpdate) bool {
	return change.CPUCount != nil || change.MemoryMB != nil || change.DiskMB != nil || change.Labels != nil || change.Env != nil || change.Network != nil
}

// sandboxLifecycleChanges lists, by table key, the lifecycle settings that
// differ between plan and state.
func sandboxLifecycleChanges(plan, state sandboxModel) []string {
	var out []string
	for _, c := range []struct {
		key  string
		a, b types.String
	}{
		{platform.AttrSandboxTimeout, plan.Timeout, state.Timeout},
		{platform.AttrSandboxOnTimeout, onTimeoutOrKill(plan.OnTimeout), onTimeoutOrKill(state.OnTimeout)},
		{platform.AttrSandboxIdleTimeout, plan.IdleTimeout, state.IdleTimeout},
		{platform.AttrSandboxAutoArchiveAfter, plan.AutoArchiveAfter, state.AutoArchiveAfter},
		{platform.AttrSandboxAutoDeleteAfter, plan.AutoDeleteAfter, state.AutoDeleteAfter},
	} {
		if !c.a.Equal(c.b) {
			out = append(out, c.key)
		}
	}
	return out
}

// onTimeoutOrKill is on_timeout with its default: left out, it is "kill"
// wherever a box has a timeout (a platform may report it as unset).
func onTimeoutOrKill(v types.String) types.String {
	if v.IsNull() {
		return types.StringValue(string(platform.OnTimeoutKill))
	}
	return v
}
