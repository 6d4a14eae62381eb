package fly

import (
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

// Citations, from the project's platform research notes (platform-apis.md
// §3), moved here with the rows from internal/retention/upcoming.go.
const (
	srcFlyMachine  = "Fly Machines: no per-machine TTL; auto_destroy and app-level Fly Proxy autostop only (superfly/docs reference/fly-proxy-autostop-autostart.html.markerb)"
	srcFlySuspend  = "Fly suspend: the memory snapshot is not guaranteed to persist (discarded on deploy, migration, maintenance); the next start may cold boot (superfly/docs reference/suspend-resume.html.md)"
	srcFlySnapshot = "Fly volume snapshots: kept 5 days by default, snapshot_retention 1–60 days (superfly/docs volumes/snapshots.html.markerb; machines/api/volumes-resource.html.markerb)"
)

const day = 24 * time.Hour

// retentionRules are Fly's rows of the retention policy table
// (Definition.Retention). Every row has a case in retention_test.go.
func retentionRules() []retention.Rule {
	name := platformName
	return []retention.Rule{
		{Key: "running_sandbox", Platform: name, Object: retention.Sandbox, State: retention.StateRunning, Since: retention.SinceStarted, Action: retention.ActionStop, Enforced: true, Source: srcFlyMachine,
			Note: "Fly Proxy autostop (app-level) stops or suspends idle machines every few minutes; not tracked per machine"},
		{Key: "paused_sandbox", Platform: name, Object: retention.Sandbox, State: retention.StatePaused, Since: retention.SinceStateSince, Action: retention.ActionStop, Enforced: true, Source: srcFlySuspend,
			Note: "no fixed window: the memory snapshot of a suspended machine may be discarded at any time, turning the next start into a cold boot"},
		{Key: "stopped_sandbox", Platform: name, Object: retention.Sandbox, State: retention.StateStopped, Since: retention.SinceStateSince, Action: retention.ActionDelete, Enforced: true, Source: srcFlyMachine,
			Note: "stopped machines are kept until destroyed"},
		{Key: "volume_snapshot", Platform: name, Object: retention.Snapshot, State: retention.KindVolume, Window: defaultRetentionDays * day, Since: retention.SinceCreated, Action: retention.ActionExpire,
			Reported: true, Enforced: true, Source: srcFlySnapshot,
			Note: "retention is set per volume in whole days (sbx_volume.snapshot_retention, 1 to 60) and only affects new snapshots; each snapshot reports its own, so the deadline is the one Fly reports; snapshots cannot be deleted by hand"},
	}
}
