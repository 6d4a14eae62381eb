package drift

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// jsonReport is the stable --format json schema (schema_version 1): fields
// are only ever added.
type jsonReport struct {
	SchemaVersion int           `json:"schema_version"`
	Format        string        `json:"input_format"`
	Now           string        `json:"now"`
	WarnBefore    string        `json:"warn_before"`
	Findings      []jsonFinding `json:"findings"`
	Summary       jsonSummary   `json:"summary"`
}

type jsonFinding struct {
	Address                 string `json:"address"`
	Type                    string `json:"type"`
	ID                      string `json:"id"`
	Platform                string `json:"platform"`
	Status                  string `json:"status"`
	ExpiresAt               string `json:"expires_at"`
	SecondsLeft             int64  `json:"seconds_left"`
	Rule                    string `json:"rule"`
	Action                  string `json:"action"`
	RetentionStatus         string `json:"retention_status"`
	RecordedRetentionStatus string `json:"recorded_retention_status"`
}

type jsonSummary struct {
	Checked    int `json:"checked"`
	Expired    int `json:"expired"`
	Expiring   int `json:"expiring"`
	OK         int `json:"ok"`
	NoDeadline int `json:"no_deadline"`
}

// WriteJSON writes the report as one JSON document.
func WriteJSON(w io.Writer, rep Report) error {
	out := jsonReport{
		SchemaVersion: 1,
		Format:        string(rep.Format),
		Now:           rep.Now.UTC().Format(time.RFC3339),
		WarnBefore:    rep.WarnBefore.String(),
		Findings:      make([]jsonFinding, 0, len(rep.Findings)),
		Summary: jsonSummary{
			Checked: rep.Checked, Expired: rep.Expired, Expiring: rep.Expiring, OK: rep.OK, NoDeadline: rep.NoDeadline,
		},
	}
	for _, f := range rep.Findings {
		out.Findings = append(out.Findings, jsonFinding{
			Address: f.Address, Type: f.Type, ID: f.ID, Platform: f.Platform, Status: f.Status,
			ExpiresAt:   f.ExpiresAt.UTC().Format(time.RFC3339),
			SecondsLeft: int64(f.ExpiresAt.Sub(rep.Now) / time.Second),
			Rule:        f.Rule, Action: f.Action,
			RetentionStatus: f.RetentionStatus, RecordedRetentionStatus: f.Recorded,
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// WriteTable writes the report for people: one row per finding, then a
// summary line.
func WriteTable(w io.Writer, rep Report) error {
	if len(rep.Findings) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "RETENTION\tADDRESS\tID\tPLATFORM\tSTATUS\tDEADLINE\tWHEN\tRULE\tACTION")
		for _, f := range rep.Findings {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
				f.RetentionStatus, cell(f.Address), cell(f.ID), cell(f.Platform), cell(f.Status),
				f.ExpiresAt.UTC().Format(time.RFC3339), relative(f.ExpiresAt.Sub(rep.Now)), cell(f.Rule), cell(f.Action))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	_, err := fmt.Fprintf(w, "%d expired, %d expiring within %s, of %d sandboxes and snapshots checked at %s (%d without a deadline)\n",
		rep.Expired, rep.Expiring, rep.WarnBefore, rep.Checked, rep.Now.UTC().Format(time.RFC3339), rep.NoDeadline)
	return err
}

// cell keeps a table cell on one line whatever the state holds, and shows
// missing values as "-".
func cell(s string) string {
	if s == "" {
		return "-"
	}
	if strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		q := fmt.Sprintf("%q", s)
		return q[1 : len(q)-1]
	}
	return s
}

// relative renders how far away a deadline is: "in 2d3h", "5h ago".
func relative(d time.Duration) string {
	past := d < 0
	if past {
		d = -d
	}
	d = d.Round(time.Minute)
	days := d / (24 * time.Hour)
	d -= days * 24 * time.Hour
	var s string
	switch {
	case days > 0 && d/time.Hour > 0:
		s = fmt.Sprintf("%dd%dh", days, d/time.Hour)
	case days > 0:
		s = fmt.Sprintf("%dd", days)
	case d >= time.Hour:
		s = fmt.Sprintf("%dh%dm", d/time.Hour, (d%time.Hour)/time.Minute)
	default:
		s = fmt.Sprintf("%dm", d/time.Minute)
	}
	if past {
		return s + " ago"
	}
	return "in " + s
}
