package drift

import (
	"io"
	"sort"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

// Finding is one sandbox, snapshot or template past or near its deadline.
type Finding struct {
	Address  string
	Type     string
	ID       string
	Platform string
	// Status is the sandbox or template status or the snapshot kind, as
	// recorded.
	Status    string
	ExpiresAt time.Time
	Rule      string
	Action    string
	// RetentionStatus is the judgement at the report's time (expired or
	// expiring); Recorded is what the last refresh wrote.
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
}

// Detect reads a state from r and judges every recorded deadline against
// now: past → expired, within warnBefore → expiring. Only those two are
// kept as findings, so memory grows with what is reported, not with the
// state.
func Detect(r io.Reader, now time.Time, warnBefore time.Duration) (Report, error) {
	rep := Report{Now: now, WarnBefore: warnBefore}
	format, err := Parse(r, func(in Instance) error {
		rep.Checked++
		if in.ExpiresAt == "" {
			rep.NoDeadline++
			return nil
		}
		at, err := time.Parse(time.RFC3339, in.ExpiresAt)
		if err != nil {
			return inputErr("%s: expires_at %q is not an RFC 3339 time", in.Address, in.ExpiresAt)
		}
		st := retention.Status(retention.Deadline{At: at}, true, now, warnBefore)
		switch st {
		case retention.StatusOK:
			rep.OK++
			return nil
		case retention.StatusExpiring:
			rep.Expiring++
		case retention.StatusExpired:
			rep.Expired++
		}
		status := in.Status
		if in.Type == TypeSnapshot {
			status = in.Kind
		}
		rep.Findings = append(rep.Findings, Finding{
			Address: in.Address, Type: in.Type, ID: in.ID, Platform: in.Platform, Status: status,
			ExpiresAt: at, Rule: in.RetentionRule, Action: in.RetentionAction,
			RetentionStatus: st, Recorded: in.RetentionStatus,
		})
		return nil
	})
	if err != nil {
		return Report{}, err
	}
	rep.Format = format
	// Soonest deadline first (so expired before expiring); address breaks ties.
	sort.Slice(rep.Findings, func(i, j int) bool {
		a, b := rep.Findings[i], rep.Findings[j]
		if !a.ExpiresAt.Equal(b.ExpiresAt) {
			return a.ExpiresAt.Before(b.ExpiresAt)
		}
		return a.Address < b.Address
	})
	return rep, nil
}
