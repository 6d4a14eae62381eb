package docker

import "github.com/sbxhq/terraform-provider-sbx/internal/retention"

// srcRetention cites why Docker's rows have no windows of their own.
const srcRetention = "Docker Engine: no built-in deadline; only what the configuration sets is tracked (not enforced)"

// retentionRules are Docker's rows of the retention policy table
// (Definition.Retention). The engine never acts by itself: settings and
// overrides fill these rows so deadlines can be tracked and warned about,
// and no row is Enforced. No row counts from SinceLastUsed: the engine
// reports no activity inside a box, so no idle deadline could be tracked
// (idle_timeout is refused on Docker). Every row has a case in
// retention_test.go.
func retentionRules() []retention.Rule {
	name := (*Platform)(nil).Name()
	return []retention.Rule{
		{Key: "running_sandbox", Platform: name, Object: retention.Sandbox, State: retention.StateRunning, Since: retention.SinceStarted,
			Action: retention.ActionKill, ActionFromOnTimeout: true, Setting: retention.SettingTimeout, Source: srcRetention},
		{Key: "paused_sandbox", Platform: name, Object: retention.Sandbox, State: retention.StatePaused, Since: retention.SinceStateSince,
			Action: retention.ActionDelete, Source: srcRetention},
		{Key: "stopped_sandbox", Platform: name, Object: retention.Sandbox, State: retention.StateStopped, Since: retention.SinceStateSince,
			Action: retention.ActionDelete, Source: srcRetention},
		{Key: "auto_delete", Platform: name, Object: retention.Sandbox, State: retention.StateStopped, Since: retention.SinceStateSince,
			Action: retention.ActionDelete, Setting: retention.SettingAutoDeleteAfter, Source: srcRetention},
		{Key: "filesystem_snapshot", Platform: name, Object: retention.Snapshot, State: retention.KindFilesystem, Since: retention.SinceCreated,
			Action: retention.ActionExpire, Reported: true, Source: srcRetention},
		{Key: "volume_snapshot", Platform: name, Object: retention.Snapshot, State: retention.KindVolume, Since: retention.SinceCreated,
			Action: retention.ActionExpire, Reported: true, Source: srcRetention},
	}
}
