package drift

import (
	"io"
	"sort"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

// Finding is one sandbox, snapshot or template past or near its deadline.
type Finding struct {
	// Workspace is the workspace whose state holds it ("" for a state
	// given as a file or on standard input).
	Workspace string
	Address   string
	Type      string
	ID        string
	Platform  string
	// Status is the sandbox or template status or the snapshot kind, as
	// recorded.
	Status    string
	ExpiresAt time.Time
	Rule      string
	Action    string
	// RetentionStatus is the judgement at the report's time (expired or
	// expiring); Recorded is what the last refresh wrote, in a state saved
	// before the provider stopped recording it (sbx_sandbox, sbx_snapshot
	// and sbx_template schema version 0), else "".
	RetentionStatus string
	Recorded        string
}

// Report is the outcome of one run.
type Report struct {
	Format     Format
	Now        time.Time
	WarnBefore time.Duration
	Findings   []Finding
	// Checked counts sbx_sandbox, sbx_snapshot and sbx_template
	// instances; NoDeadline those without a recorded expires_at.
	Checked, NoDeadline, OK, Expiring, Expired int
	// Source names the backend the states came from ("" for a file or
	// standard input); Workspaces are its workspaces read, in order.
	Source     string
	Workspaces []WorkspaceSummary
}

// WorkspaceSummary is what one workspace's state held.
type WorkspaceSummary struct {
	Name string
	// NoState is a workspace without a state yet (nothing to check).
	NoState                                    bool
	Checked, NoDeadline, OK, Expiring, Expired int
}

// Detect reads a state from r and judges every recorded deadline against
// now: past → expired, within warnBefore → expiring. Only those two are
// kept as findings, so memory grows with what is reported, not with the
// state.
func Detect(r io.Reader, now time.Time, warnBefore time.Duration) (Report, error) {
	rep := Report{Now: now, WarnBefore: warnBefore}
	format, err := rep.add(r, "", nil)
	if err != nil {
		return Report{}, err
	}
	rep.Format = format
	rep.sort(false)
	return rep, nil
}

// add judges one state into the report, its findings tagged with
// workspace; ws (when not nil) counts what this state held.
func (rep *Report) add(r io.Reader, workspace string, ws *WorkspaceSummary) (Format, error) {
	return rep.addWith(r, workspace, ws, ParseOptions{})
}

// addWith is add with the parse options opts (Backend for a backend's).
func (rep *Report) addWith(r io.Reader, workspace string, ws *WorkspaceSummary, opts ParseOptions) (Format, error) {
	var own WorkspaceSummary
	if ws == nil {
		ws = &own
	}
	return ParseWith(r, opts, func(in Instance) error {
		rep.Checked++
		ws.Checked++
		if in.ExpiresAt == "" {
			rep.NoDeadline++
			ws.NoDeadline++
			return nil
		}
		at, err := time.Parse(time.RFC3339, in.ExpiresAt)
		if err != nil {
			return inputErr("%s: expires_at %q is not an RFC 3339 time", in.Address, in.ExpiresAt)
		}
		st := retention.Status(retention.Deadline{At: at}, true, rep.Now, rep.WarnBefore)
		switch st {
		case retention.StatusOK:
			rep.OK++
			ws.OK++
			return nil
		case retention.StatusExpiring:
			rep.Expiring++
			ws.Expiring++
		case retention.StatusExpired:
			rep.Expired++
			ws.Expired++
		}
		status := in.Status
		if in.Type == TypeSnapshot {
			status = in.Kind
		}
		rep.Findings = append(rep.Findings, Finding{
			Workspace: workspace,
			Address:   in.Address, Type: in.Type, ID: in.ID, Platform: in.Platform, Status: status,
			ExpiresAt: at, Rule: in.RetentionRule, Action: in.RetentionAction,
			RetentionStatus: st, Recorded: in.RetentionStatus,
		})
		return nil
	})
}

// sort orders the findings soonest deadline first (so expired before
// expiring), by workspace first when byWorkspace; workspace and address
// break ties.
func (rep *Report) sort(byWorkspace bool) {
	order := map[string]int{}
	for i, w := range rep.Workspaces {
		order[w.Name] = i
	}
	sort.Slice(rep.Findings, func(i, j int) bool {
		a, b := rep.Findings[i], rep.Findings[j]
		if byWorkspace && a.Workspace != b.Workspace {
			return order[a.Workspace] < order[b.Workspace]
		}
		if !a.ExpiresAt.Equal(b.ExpiresAt) {
			return a.ExpiresAt.Before(b.ExpiresAt)
		}
		if a.Workspace != b.Workspace {
			return order[a.Workspace] < order[b.Workspace]
		}
		return a.Address < b.Address
	})
}
