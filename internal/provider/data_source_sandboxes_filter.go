package provider

import (
	"cmp"
	"maps"
	"slices"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

// sandboxReportedStates are the normalized states a box can be reported in,
// the values sbx_sandboxes.status accepts.
var sandboxReportedStates = []string{
	string(platform.StateRunning), string(platform.StatePaused), string(platform.StateStopped),
	string(platform.StateArchived), string(platform.StateStarting), string(platform.StateStopping), string(platform.StateFailed),
	string(platform.StateUnknown),
}

// retentionStatuses are the values of retention_status.
var retentionStatuses = []string{retention.StatusOK, retention.StatusExpiring, retention.StatusExpired}

// sandboxQuery is what sbx_sandboxes filters by. Zero fields match everything.
type sandboxQuery struct {
	Labels          map[string]string
	Status          platform.SandboxState
	RetentionStatus string
	// PauseKindUnreported: the platform reports every paused box as paused
	// whether its memory was kept or not, so a paused or stopped status
	// filter matches every box it reports paused.
	PauseKindUnreported bool
}

// statusMatches reports whether a box reported in status s passes the
// status filter.
func (q sandboxQuery) statusMatches(s platform.SandboxState) bool {
	if q.Status == "" || s == q.Status {
		return true
	}
	return q.PauseKindUnreported && sandboxPauseKind(q.Status) && sandboxPauseKind(s)
}

// sandboxPauseKind: paused and stopped, the two states a platform that does
// not report the pause kind cannot tell apart.
func sandboxPauseKind(s platform.SandboxState) bool {
	return s == platform.StatePaused || s == platform.StateStopped
}

// platformFilter is the part of the query the platform can apply itself.
// The result is filtered again here, so a platform that ignores a field is
// still answered correctly.
func (q sandboxQuery) platformFilter() platform.SandboxFilter {
	return platform.SandboxFilter{Labels: maps.Clone(q.Labels), Status: q.Status}
}

// sandboxMatch is one box that passed the filters, with its retention.
type sandboxMatch struct {
	Sandbox   platform.Sandbox
	Retention retentionFields
}

// selectSandboxes judges every box with judge, keeps those matching q and
// returns them newest first (created_at descending, then id, so the order
// never depends on the platform's listing order). The input is not modified.
func selectSandboxes(all []platform.Sandbox, q sandboxQuery, judge func(platform.Sandbox) retentionFields) []sandboxMatch {
	out := make([]sandboxMatch, 0, len(all))
	for _, sb := range all {
		if !platform.MatchLabels(sb.Labels, q.Labels) || !q.statusMatches(sb.Status) {
			continue
		}
		v := judge(sb)
		if q.RetentionStatus != "" && v.Status.ValueString() != q.RetentionStatus {
			continue
		}
		out = append(out, sandboxMatch{Sandbox: sb, Retention: v})
	}
	slices.SortStableFunc(out, func(a, b sandboxMatch) int {
		if c := b.Sandbox.CreatedAt.Compare(a.Sandbox.CreatedAt); c != 0 {
			return c
		}
		return cmp.Compare(a.Sandbox.ID, b.Sandbox.ID)
	})
	return out
}

// sandboxesMDList renders values as a Markdown list of code spans for
// descriptions: "`a`, `b` or `c`".
func sandboxesMDList(values []string) string {
	s := ""
	for i, v := range values {
		switch {
		case i == 0:
		case i == len(values)-1:
			s += " or "
		default:
			s += ", "
		}
		s += "`" + v + "`"
	}
	return s
}
