package e2b

import (
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

// Citations, from the project's platform research notes (platform-apis.md).
const (
	srcRetentionTimeout  = "E2B API: NewSandbox.timeout default 15 s (e2b-dev/infra spec/openapi.yml; sandboxtypes/states.go:102); ≤ 0 or > team max_length_hours rejected (handlers/timeout_helper.go:18-38); lifecycle.onTimeout kill|pause"
	srcRetentionRuntime  = "https://e2b.dev/docs/sandbox.md: \"Sandboxes can run continuously for up to 24 hours (Pro) or 1 hour (Base) … pausing resets the runtime window\"; per-team max_length_hours (migration 20240219190940 backfilled 1)"
	srcRetentionPaused   = "https://e2b.dev/docs/sandbox.md: \"your sandbox's full state is preserved indefinitely\"; no paused-sandbox expiry job in e2b-dev/infra"
	srcRetentionSnapshot = "E2B snapshots are templates (POST /sandboxes/{id}/snapshots); snapshot retention not found in spec, infra or docs"
)

// The longest a box runs on each tier: "up to 24 hours (Pro) or 1 hour
// (Base)" (E2B sandbox docs).
const (
	retentionBaseRuntime = time.Hour
	retentionProRuntime  = 24 * time.Hour
)

// retentionRules are E2B's rows of the retention policy table
// (Definition.Retention). Every row has a case in retention_test.go.
func retentionRules() []retention.Rule {
	name := (*Platform)(nil).Name()
	return []retention.Rule{
		// The API's own default is 15 s, but the provider always sends a
		// timeout: 300 s when unset, as E2B's SDKs do. The row says what a
		// box made by the provider gets.
		{Key: "running_sandbox", Platform: name, Object: retention.Sandbox, State: retention.StateRunning, Window: 300 * time.Second,
			Since: retention.SinceStarted, Action: retention.ActionKill, ActionFromOnTimeout: true, Setting: retention.SettingTimeout,
			Limits:   retention.Limits{Min: time.Second, Max: retentionProRuntime, Default: 300 * time.Second},
			Reported: true, Enforced: true, Source: srcRetentionTimeout,
			Note: "E2B's API default is 15 s; the provider always sends timeout, 300 s when unset (as E2B's SDKs do), and the reported endAt wins; Max is the Pro tier cap (Base: 1 h)"},
		{Key: "max_runtime", Platform: name, Object: retention.Sandbox, State: retention.StateRunning, Window: retentionBaseRuntime,
			Since: retention.SinceStarted, Action: retention.ActionKill, ActionFromOnTimeout: true,
			Limits:   retention.Limits{Max: retentionProRuntime, Default: retentionBaseRuntime},
			Enforced: true, Source: srcRetentionRuntime,
			Note: "1 h on the Base tier, 24 h on Pro (override max_runtime = \"24h\", or set the e2b block's tier = \"pro\"); pausing resets the window"},
		{Key: "paused_sandbox", Platform: name, Object: retention.Sandbox, State: retention.StatePaused, Since: retention.SinceCreated,
			Action: retention.ActionDelete, Enforced: true, Source: srcRetentionPaused,
			Note: "kept indefinitely; the older 30-days-after-create figure (e2b-dev/docs persistence.mdx:277-281, Dec 2025) is outdated — override paused_sandbox = \"720h\" to track it anyway"},
		{Key: "stopped_sandbox", Platform: name, Object: retention.Sandbox, State: retention.StateStopped, Since: retention.SinceCreated,
			Action: retention.ActionDelete, Enforced: true, Source: srcRetentionPaused,
			Note: "a filesystem-only pause (memory=false); kept like a paused sandbox; the old 30-day figure is outdated"},
		{Key: "filesystem_snapshot", Platform: name, Object: retention.Snapshot, State: retention.KindFilesystem, Since: retention.SinceCreated,
			Action: retention.ActionDelete, Reported: true, Enforced: true, Source: srcRetentionSnapshot},
		{Key: "memory_snapshot", Platform: name, Object: retention.Snapshot, State: retention.KindMemory, Since: retention.SinceCreated,
			Action: retention.ActionDelete, Reported: true, Enforced: true, Source: srcRetentionSnapshot},
	}
}

// tierOverrides returns the retention overrides an account tier implies
// (Definition.TierOverrides), merged under the user's own overrides: Pro
// runs boxes up to 24 h instead of Base's 1 h. Base, and a tier left unset
// (which means Base), change nothing.
func tierOverrides(tier string) map[string]time.Duration {
	if tier == TierPro {
		return map[string]time.Duration{"max_runtime": retentionProRuntime}
	}
	return nil
}
