package daytona

import (
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

// Citations, from the project's platform research notes (platform-apis.md
// §2.6), moved here with the rows from internal/retention/upcoming.go.
const (
	srcDtAutoStop = "Daytona autoStopInterval default 15 min, 0 = disabled (daytonaio/daytona v0.190.0 apps/api/src/sandbox/entities/sandbox.entity.ts:210-212; docs sandboxes.mdx:1974)"
	srcDtArchive  = "Daytona autoArchiveInterval default 10080 min (7 d), max MAX_AUTO_ARCHIVE_INTERVAL 43200 min (30 d), larger values clamped (sandbox.entity.ts:214-216; config/configuration.ts:97; sandbox.service.ts:3298-3310)"
	srcDtDelete   = "Daytona autoDeleteInterval default -1 (disabled), 0 = delete on stop, N = minutes continuously stopped (sandbox.entity.ts:218-222; docs sandboxes.mdx:2177-2183)"
	srcDtSnapshot = "Daytona snapshots deactivated after 14 days unused: DEFAULT_SNAPSHOT_DEACTIVATION_TIMEOUT_MINUTES = 14*24*60, cron every 10 min (apps/api/src/sandbox/managers/snapshot.manager.ts:64,1361-1379; docs snapshots.mdx:905)"
	srcDtStates   = "Daytona docs sandboxes.mdx (pause: VM runners only; archived: filesystem in object storage); no retention rule for this state found"
)

const (
	day  = 24 * time.Hour
	week = 7 * day
)

// retentionRules are Daytona's rows of the retention policy table
// (Definition.Retention). Every row has a case in retention_test.go.
func retentionRules() []retention.Rule {
	name := platformName
	return []retention.Rule{
		{Key: "idle_sandbox", Platform: name, Object: retention.Sandbox, State: retention.StateRunning, Window: 15 * time.Minute, Since: retention.SinceLastUsed, Action: retention.ActionStop,
			Setting: retention.SettingIdleTimeout, Limits: retention.Limits{Default: 15 * time.Minute}, Reported: true, Enforced: true, Source: srcDtAutoStop,
			Note: "only lifecycle updates, preview traffic, SSH and toolbox API calls reset the timer; background processes do not; the deadline is Daytona's lastActivityAt + autoStopInterval, as the platform reports them"},
		{Key: "paused_sandbox", Platform: name, Object: retention.Sandbox, State: retention.StatePaused, Since: retention.SinceStateSince, Action: retention.ActionDelete, Enforced: true, Source: srcDtStates,
			Note: "no rule found for paused sandboxes"},
		{Key: "stopped_sandbox", Platform: name, Object: retention.Sandbox, State: retention.StateStopped, Window: week, Since: retention.SinceStateSince, Action: retention.ActionArchive,
			Setting: retention.SettingAutoArchiveAfter, Limits: retention.Limits{Min: time.Minute, Max: maxAutoArchive, Default: week}, Enforced: true, Source: srcDtArchive,
			Note: "autoArchiveInterval 0 means the maximum (30 d)"},
		{Key: "auto_delete", Platform: name, Object: retention.Sandbox, State: retention.StateStopped, Since: retention.SinceStateSince, Action: retention.ActionDelete,
			Setting: retention.SettingAutoDeleteAfter, Enforced: true, Source: srcDtDelete,
			Note: "off by default; GPU and linked sandboxes must delete on stop (autoDeleteInterval 0)"},
		{Key: "archived_sandbox", Platform: name, Object: retention.Sandbox, State: retention.StateArchived, Since: retention.SinceStateSince, Action: retention.ActionDelete, Enforced: true, Source: srcDtStates,
			Note: "archived sandboxes are kept until deleted; no rule found"},
		{Key: "unused_template", Platform: name, Object: retention.Template, State: retention.TemplateReady, Window: 14 * day, Since: retention.SinceLastUsed, Action: retention.ActionDeactivate, Enforced: true, Source: srcDtSnapshot,
			Note: "a Daytona snapshot is what sbx_template maps to; per-organization override snapshot_deactivation_timeout_minutes; an inactive snapshot can be activated again, which counts as a use (every move to active sets lastUsedAt: snapshot.manager.ts:1296-1302); Daytona checks every 10 minutes, so a template may stay active up to 10 minutes past its deadline"},
	}
}
