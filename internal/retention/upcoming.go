package retention

import "time"

// Upcoming holds the retention rows of the platforms not built yet
// (Modal), researched ahead of them so the numbers and
// their sources are not lost. It is data only: the provider does not use
// it, no Table it builds holds these rows, and neither the retention guide
// nor the provider's `retention {}` block shows them. When a platform
// ships, its rows move from here into its package's retentionRules(), which
// its platform.Definition registers, together with their test cases
// (upcoming_test.go).
var Upcoming = []Rule{
	// Modal.
	{Key: "running_sandbox", Platform: upcomingModal, Object: Sandbox, State: StateRunning, Window: 300 * time.Second, Since: SinceStarted, Action: ActionKill,
		Setting: SettingTimeout, Limits: Limits{Min: time.Second, Max: day, Default: 300 * time.Second}, Enforced: true, Source: srcModalTimeout},
	{Key: "idle_sandbox", Platform: upcomingModal, Object: Sandbox, State: StateRunning, Since: SinceLastUsed, Action: ActionKill,
		Setting: SettingIdleTimeout, Enforced: true, Source: srcModalIdle},
	{Key: "filesystem_snapshot", Platform: upcomingModal, Object: Snapshot, State: KindFilesystem, Window: 30 * day, Since: SinceCreated, Action: ActionExpire,
		Setting: SettingTTL, Limits: Limits{Default: 30 * day}, Reported: true, Enforced: true, Source: srcModalFS,
		Note: "the docs table says indefinite, the current SDKs default to 30 days; the provider should send ttl explicitly"},
	{Key: "memory_snapshot", Platform: upcomingModal, Object: Snapshot, State: KindMemory, Window: week, Since: SinceCreated, Action: ActionExpire, Reported: true, Enforced: true, Source: srcModalMemory,
		Note: "cannot be extended"},
}

// The names the coming platforms' provider blocks will have; each moves to
// its platform package with its rows.
const upcomingModal = "modal"

// Citations of the coming platforms' rows, from the project's platform
// research notes (platform-apis.md).
const (
	srcModalTimeout = "Modal Sandbox timeout default 300 s (modal-client py/modal/sandbox.py:401; go/sandbox.go:191,365-367), up to 24 hours (https://modal.com/docs/guide/sandbox)"
	srcModalIdle    = "Modal Sandbox idle_timeout: optional, no default; activity = exec, stdin, open tunnel connection (https://modal.com/docs/guide/sandbox)"
	srcModalMemory  = "Modal memory snapshots: 7 days after creation, cannot be extended (https://modal.com/docs/guide/sandbox-snapshots.md)"
	srcModalFS      = "Modal filesystem snapshots: SDK ttl default 30 days, hard cutoff from creation, fixed at creation (modal-client py/modal/sandbox.py:1503; go/sandbox.go:1557-1576; task_command_router.proto:342-349)"
)
