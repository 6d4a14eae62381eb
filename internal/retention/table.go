package retention

import "time"

const (
	day  = 24 * time.Hour
	week = 7 * day
)

// Citations, from the project's platform research notes (platform-apis.md).
const (
	srcE2BTimeout   = "E2B API: NewSandbox.timeout default 15 s (e2b-dev/infra spec/openapi.yml; sandboxtypes/states.go:102); ≤ 0 or > team max_length_hours rejected (handlers/timeout_helper.go:18-38); lifecycle.onTimeout kill|pause"
	srcE2BRuntime   = "https://e2b.dev/docs/sandbox.md: \"Sandboxes can run continuously for up to 24 hours (Pro) or 1 hour (Base) … pausing resets the runtime window\"; per-team max_length_hours (migration 20240219190940 backfilled 1)"
	srcE2BPaused    = "https://e2b.dev/docs/sandbox.md: \"your sandbox's full state is preserved indefinitely\"; no paused-sandbox expiry job in e2b-dev/infra"
	srcE2BSnapshot  = "E2B snapshots are templates (POST /sandboxes/{id}/snapshots); snapshot retention not found in spec, infra or docs"
	srcDtAutoStop   = "Daytona autoStopInterval default 15 min, 0 = disabled (daytonaio/daytona v0.190.0 apps/api/src/sandbox/entities/sandbox.entity.ts:210-212; docs sandboxes.mdx:1974)"
	srcDtArchive    = "Daytona autoArchiveInterval default 10080 min (7 d), max MAX_AUTO_ARCHIVE_INTERVAL 43200 min (30 d), larger values clamped (sandbox.entity.ts:214-216; config/configuration.ts:97; sandbox.service.ts:3298-3310)"
	srcDtDelete     = "Daytona autoDeleteInterval default -1 (disabled), 0 = delete on stop, N = minutes continuously stopped (sandbox.entity.ts:218-222; docs sandboxes.mdx:2177-2183)"
	srcDtSnapshot   = "Daytona snapshots deactivated after 14 days unused: DEFAULT_SNAPSHOT_DEACTIVATION_TIMEOUT_MINUTES = 14*24*60, cron every 10 min (apps/api/src/sandbox/managers/snapshot.manager.ts:64,1361-1379; docs snapshots.mdx:905)"
	srcDtStates     = "Daytona docs sandboxes.mdx (pause: VM runners only; archived: filesystem in object storage); no retention rule for this state found"
	srcFlyMachine   = "Fly Machines: no per-machine TTL; auto_destroy and app-level Fly Proxy autostop only (superfly/docs reference/fly-proxy-autostop-autostart.html.markerb)"
	srcFlySuspend   = "Fly suspend: the memory snapshot is not guaranteed to persist (discarded on deploy, migration, maintenance); the next start may cold boot (superfly/docs reference/suspend-resume.html.md)"
	srcFlySnapshot  = "Fly volume snapshots: kept 5 days by default, snapshot_retention 1–60 days (superfly/docs volumes/snapshots.html.markerb; machines/api/volumes-resource.html.markerb)"
	srcModalTimeout = "Modal Sandbox timeout default 300 s (modal-client py/modal/sandbox.py:401; go/sandbox.go:191,365-367), up to 24 hours (https://modal.com/docs/guide/sandbox)"
	srcModalIdle    = "Modal Sandbox idle_timeout: optional, no default; activity = exec, stdin, open tunnel connection (https://modal.com/docs/guide/sandbox)"
	srcModalMemory  = "Modal memory snapshots: 7 days after creation, cannot be extended (https://modal.com/docs/guide/sandbox-snapshots.md)"
	srcModalFS      = "Modal filesystem snapshots: SDK ttl default 30 days, hard cutoff from creation, fixed at creation (modal-client py/modal/sandbox.py:1503; go/sandbox.go:1557-1576; task_command_router.proto:342-349)"
	srcDocker       = "Docker Engine: no built-in deadline; only what the configuration sets is tracked (not enforced)"
)

// table is every known rule. Each row is one platform × object × state × key;
// add a test case in table_test.go for every new row (a test enforces it).
var table = []Rule{
	// Docker: the engine never acts by itself; settings and overrides fill
	// these rows so deadlines can be tracked and warned about. No row counts
	// from SinceLastUsed: the engine reports no activity inside a box, so no
	// idle deadline could be tracked (idle_timeout is refused on Docker).
	{Key: "running_sandbox", Platform: Docker, Object: Sandbox, State: StateRunning, Since: SinceStarted, Action: ActionKill, ActionFromOnTimeout: true, Setting: SettingTimeout, Source: srcDocker},
	{Key: "paused_sandbox", Platform: Docker, Object: Sandbox, State: StatePaused, Since: SinceStateSince, Action: ActionDelete, Source: srcDocker},
	{Key: "stopped_sandbox", Platform: Docker, Object: Sandbox, State: StateStopped, Since: SinceStateSince, Action: ActionDelete, Source: srcDocker},
	{Key: "auto_delete", Platform: Docker, Object: Sandbox, State: StateStopped, Since: SinceStateSince, Action: ActionDelete, Setting: SettingAutoDeleteAfter, Source: srcDocker},
	{Key: "filesystem_snapshot", Platform: Docker, Object: Snapshot, State: KindFilesystem, Since: SinceCreated, Action: ActionExpire, Reported: true, Source: srcDocker},
	{Key: "volume_snapshot", Platform: Docker, Object: Snapshot, State: KindVolume, Since: SinceCreated, Action: ActionExpire, Reported: true, Source: srcDocker},

	// E2B.
	// The API's own default is 15 s, but the provider always sends a
	// timeout: 300 s when unset, as E2B's SDKs do. The row says what a box
	// made by the provider gets.
	{Key: "running_sandbox", Platform: E2B, Object: Sandbox, State: StateRunning, Window: 300 * time.Second, Since: SinceStarted, Action: ActionKill, ActionFromOnTimeout: true,
		Setting: SettingTimeout, Limits: Limits{Min: time.Second, Max: day, Default: 300 * time.Second}, Reported: true, Enforced: true, Source: srcE2BTimeout,
		Note: "E2B's API default is 15 s; the provider always sends timeout, 300 s when unset (as E2B's SDKs do), and the reported endAt wins; Max is the Pro tier cap (Base: 1 h)"},
	{Key: "max_runtime", Platform: E2B, Object: Sandbox, State: StateRunning, Window: time.Hour, Since: SinceStarted, Action: ActionKill, ActionFromOnTimeout: true,
		Limits: Limits{Max: day, Default: time.Hour}, Enforced: true, Source: srcE2BRuntime,
		Note: "1 h on the Base tier, 24 h on Pro (override max_runtime = \"24h\" or use TierOverrides); pausing resets the window"},
	{Key: "paused_sandbox", Platform: E2B, Object: Sandbox, State: StatePaused, Since: SinceCreated, Action: ActionDelete, Enforced: true, Source: srcE2BPaused,
		Note: "kept indefinitely; the older 30-days-after-create figure (e2b-dev/docs persistence.mdx:277-281, Dec 2025) is outdated — override paused_sandbox = \"720h\" to track it anyway"},
	{Key: "stopped_sandbox", Platform: E2B, Object: Sandbox, State: StateStopped, Since: SinceCreated, Action: ActionDelete, Enforced: true, Source: srcE2BPaused,
		Note: "a filesystem-only pause (memory=false); kept like a paused sandbox; the old 30-day figure is outdated"},
	{Key: "filesystem_snapshot", Platform: E2B, Object: Snapshot, State: KindFilesystem, Since: SinceCreated, Action: ActionDelete, Reported: true, Enforced: true, Source: srcE2BSnapshot},
	{Key: "memory_snapshot", Platform: E2B, Object: Snapshot, State: KindMemory, Since: SinceCreated, Action: ActionDelete, Reported: true, Enforced: true, Source: srcE2BSnapshot},

	// Daytona.
	{Key: "idle_sandbox", Platform: Daytona, Object: Sandbox, State: StateRunning, Window: 15 * time.Minute, Since: SinceLastUsed, Action: ActionStop,
		Setting: SettingIdleTimeout, Limits: Limits{Default: 15 * time.Minute}, Enforced: true, Source: srcDtAutoStop,
		Note: "only lifecycle updates, preview traffic, SSH and toolbox API calls reset the timer; background processes do not"},
	{Key: "paused_sandbox", Platform: Daytona, Object: Sandbox, State: StatePaused, Since: SinceStateSince, Action: ActionDelete, Enforced: true, Source: srcDtStates,
		Note: "no rule found for paused sandboxes"},
	{Key: "stopped_sandbox", Platform: Daytona, Object: Sandbox, State: StateStopped, Window: week, Since: SinceStateSince, Action: ActionArchive,
		Setting: SettingAutoArchiveAfter, Limits: Limits{Min: time.Minute, Max: 30 * day, Default: week}, Enforced: true, Source: srcDtArchive,
		Note: "autoArchiveInterval 0 means the maximum (30 d)"},
	{Key: "auto_delete", Platform: Daytona, Object: Sandbox, State: StateStopped, Since: SinceStateSince, Action: ActionDelete,
		Setting: SettingAutoDeleteAfter, Enforced: true, Source: srcDtDelete,
		Note: "off by default; GPU and linked sandboxes must delete on stop (autoDeleteInterval 0)"},
	{Key: "archived_sandbox", Platform: Daytona, Object: Sandbox, State: StateArchived, Since: SinceStateSince, Action: ActionDelete, Enforced: true, Source: srcDtStates,
		Note: "archived sandboxes are kept until deleted; no rule found"},
	{Key: "unused_snapshot", Platform: Daytona, Object: Snapshot, State: KindFilesystem, Window: 14 * day, Since: SinceLastUsed, Action: ActionDeactivate, Enforced: true, Source: srcDtSnapshot,
		Note: "per-organization override snapshot_deactivation_timeout_minutes; an inactive snapshot can be activated again"},
	{Key: "unused_snapshot", Platform: Daytona, Object: Snapshot, State: KindMemory, Window: 14 * day, Since: SinceLastUsed, Action: ActionDeactivate, Enforced: true, Source: srcDtSnapshot,
		Note: "per-organization override snapshot_deactivation_timeout_minutes; an inactive snapshot can be activated again"},

	// Fly.io.
	{Key: "running_sandbox", Platform: Fly, Object: Sandbox, State: StateRunning, Since: SinceStarted, Action: ActionStop, Enforced: true, Source: srcFlyMachine,
		Note: "Fly Proxy autostop (app-level) stops or suspends idle machines every few minutes; not tracked per machine"},
	{Key: "paused_sandbox", Platform: Fly, Object: Sandbox, State: StatePaused, Since: SinceStateSince, Action: ActionStop, Enforced: true, Source: srcFlySuspend,
		Note: "no fixed window: the memory snapshot of a suspended machine may be discarded at any time, turning the next start into a cold boot"},
	{Key: "stopped_sandbox", Platform: Fly, Object: Sandbox, State: StateStopped, Since: SinceStateSince, Action: ActionDelete, Enforced: true, Source: srcFlyMachine,
		Note: "stopped machines are kept until destroyed"},
	{Key: "volume_snapshot", Platform: Fly, Object: Snapshot, State: KindVolume, Window: 5 * day, Since: SinceCreated, Action: ActionExpire,
		Setting: SettingTTL, Limits: Limits{Min: day, Max: 60 * day, Default: 5 * day}, Reported: true, Enforced: true, Source: srcFlySnapshot,
		Note: "retention is set per volume in whole days and only affects new snapshots; snapshots cannot be deleted by hand"},

	// Modal.
	{Key: "running_sandbox", Platform: Modal, Object: Sandbox, State: StateRunning, Window: 300 * time.Second, Since: SinceStarted, Action: ActionKill,
		Setting: SettingTimeout, Limits: Limits{Min: time.Second, Max: day, Default: 300 * time.Second}, Enforced: true, Source: srcModalTimeout},
	{Key: "idle_sandbox", Platform: Modal, Object: Sandbox, State: StateRunning, Since: SinceLastUsed, Action: ActionKill,
		Setting: SettingIdleTimeout, Enforced: true, Source: srcModalIdle},
	{Key: "filesystem_snapshot", Platform: Modal, Object: Snapshot, State: KindFilesystem, Window: 30 * day, Since: SinceCreated, Action: ActionExpire,
		Setting: SettingTTL, Limits: Limits{Default: 30 * day}, Reported: true, Enforced: true, Source: srcModalFS,
		Note: "the docs table says indefinite, the current SDKs default to 30 days; the provider should send ttl explicitly"},
	{Key: "memory_snapshot", Platform: Modal, Object: Snapshot, State: KindMemory, Window: week, Since: SinceCreated, Action: ActionExpire, Reported: true, Enforced: true, Source: srcModalMemory,
		Note: "cannot be extended"},
}

// TierOverrides returns the overrides a platform account tier implies, to be
// merged under the user's own overrides. E2B Pro runs sandboxes for 24 h
// instead of Base's 1 h; other tiers and platforms change nothing.
func TierOverrides(platform, tier string) map[string]time.Duration {
	if platform == E2B && tier == "pro" {
		return map[string]time.Duration{"max_runtime": day}
	}
	return nil
}
