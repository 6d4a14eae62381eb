package modal

import (
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

// Citations, from the project's platform research notes (platform-apis.md
// §4), moved here with the rows from internal/retention/upcoming.go.
const (
	srcTimeout = "Modal Sandbox timeout default 300 s (modal-client py/modal/sandbox.py:401; go/sandbox.go:191,365-367), up to 24 hours (https://modal.com/docs/guide/sandbox)"
	srcIdle    = "Modal Sandbox idle_timeout: optional, no default; activity = exec, stdin, open tunnel connection (https://modal.com/docs/guide/sandbox)"
	srcMemory  = "Modal memory snapshots: 7 days after creation, cannot be extended (https://modal.com/docs/guide/sandbox-snapshots.md)"
	srcFS      = "Modal filesystem snapshots: SDK ttl default 30 days, hard cutoff from creation, fixed at creation (modal-client py/modal/sandbox.py:1503; go/sandbox.go:1557-1576; task_command_router.proto:342-349)"
)

const day = 24 * time.Hour

// retentionRules are Modal's rows of the retention policy table
// (Definition.Retention). Every row has a case in retention_test.go.
func retentionRules() []retention.Rule {
	name := platformName
	return []retention.Rule{
		{Key: "running_sandbox", Platform: name, Object: retention.Sandbox, State: retention.StateRunning, Window: defaultSandboxTimeout, Since: retention.SinceStarted, Action: retention.ActionKill,
			Setting: retention.SettingTimeout, Limits: retention.Limits{Min: time.Second, Max: maxSandboxTimeout, Default: defaultSandboxTimeout}, Enforced: true, Source: srcTimeout},
		{Key: "idle_sandbox", Platform: name, Object: retention.Sandbox, State: retention.StateRunning, Since: retention.SinceLastUsed, Action: retention.ActionKill,
			Setting: retention.SettingIdleTimeout, Enforced: true, Source: srcIdle,
			Note: "the SDK reports no activity, so the provider cannot compute this deadline (expires_at shows the timeout's); Modal ends an idle sandbox by itself, and the next plan creates it again"},
		{Key: "filesystem_snapshot", Platform: name, Object: retention.Snapshot, State: retention.KindFilesystem, Window: defaultSnapshotTTL, Since: retention.SinceCreated, Action: retention.ActionExpire,
			Setting: retention.SettingTTL, Limits: retention.Limits{Default: defaultSnapshotTTL}, Reported: true, Enforced: true, Source: srcFS,
			Note: "the docs table says indefinite, the current SDKs default to 30 days; the provider sends the ttl explicitly, 30 days when none is set"},
		{Key: "memory_snapshot", Platform: name, Object: retention.Snapshot, State: retention.KindMemory, Window: memorySnapshotLifetime, Since: retention.SinceCreated, Action: retention.ActionExpire, Reported: true, Enforced: true, Source: srcMemory,
			Note: "cannot be extended, listed or deleted"},
	}
}
