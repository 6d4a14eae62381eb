package drift

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/cliutil"
)

// The --format json schema (schema_version 1) is a single object:
// schema_version, input_format, now, warn_before, summary, findings[],
// source ("" for a file), workspaces[] (empty for a file). Fields are only
// ever added.

type jsonFinding struct {
	Workspace               string `json:"workspace"`
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

type jsonWorkspace struct {
	Name    string `json:"name"`
	NoState bool   `json:"no_state"`
	jsonSummary
}

// WriteJSON writes the report as one JSON document. Findings are encoded
// and written one at a time, so a report of many findings is never built
// as one big buffer.
func WriteJSON(w io.Writer, rep Report) error {
	bw := bufio.NewWriter(w)
	str := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	summary, err := json.MarshalIndent(jsonSummary{
		Checked: rep.Checked, Expired: rep.Expired, Expiring: rep.Expiring, OK: rep.OK, NoDeadline: rep.NoDeadline,
	}, "  ", "  ")
	if err != nil {
		return err
	}
	workspaces := make([]jsonWorkspace, len(rep.Workspaces))
	for i, w := range rep.Workspaces {
		workspaces[i] = jsonWorkspace{Name: w.Name, NoState: w.NoState, jsonSummary: jsonSummary{
			Checked: w.Checked, Expired: w.Expired, Expiring: w.Expiring, OK: w.OK, NoDeadline: w.NoDeadline}}
	}
	wsJSON, err := json.Marshal(workspaces)
	if err != nil {
		return err
	}
	_, _ = fmt.Fprintf(bw, "{\n  \"schema_version\": 1,\n  \"input_format\": %s,\n  \"now\": %s,\n  \"warn_before\": %s,\n  \"source\": %s,\n  \"workspaces\": %s,\n  \"summary\": %s,\n  \"findings\": [",
		str(string(rep.Format)), str(rep.Now.UTC().Format(time.RFC3339)), str(rep.WarnBefore.String()), str(rep.Source), wsJSON, summary)
	for i, f := range rep.Findings {
		b, err := json.MarshalIndent(jsonFinding{
			Workspace: f.Workspace, Address: f.Address, Type: f.Type, ID: f.ID, Platform: f.Platform, Status: f.Status,
			ExpiresAt:   f.ExpiresAt.UTC().Format(time.RFC3339),
			SecondsLeft: int64(f.ExpiresAt.Sub(rep.Now) / time.Second),
			Rule:        f.Rule, Action: f.Action,
			RetentionStatus: f.RetentionStatus, RecordedRetentionStatus: f.Recorded,
		}, "    ", "  ")
		if err != nil {
			return err
		}
		// bufio.Writer keeps its first error and Flush returns it, so the
		// writes below are checked once, at the end.
		if i > 0 {
			_ = bw.WriteByte(',')
		}
		_, _ = bw.WriteString("\n    ")
		_, _ = bw.Write(b)
	}
	if len(rep.Findings) > 0 {
		_, _ = bw.WriteString("\n  ")
	}
	_, _ = bw.WriteString("]\n}\n")
	return bw.Flush()
}

// WriteTable writes the report for people: one row per finding (naming
// its workspace when the states came from a backend), the counts of each
// workspace when grouped by workspace, then a summary line.
func WriteTable(w io.Writer, rep Report, byWorkspace bool) error {
	fleet := rep.Source != ""
	if len(rep.Findings) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		// tabwriter buffers rows; a write error surfaces at Flush.
		if fleet {
			_, _ = fmt.Fprint(tw, "WORKSPACE\t")
		}
		_, _ = fmt.Fprintln(tw, "RETENTION\tADDRESS\tID\tPLATFORM\tSTATUS\tDEADLINE\tWHEN\tRULE\tACTION")
		for _, f := range rep.Findings {
			if fleet {
				_, _ = fmt.Fprintf(tw, "%s\t", cliutil.Cell(f.Workspace))
			}
			_, _ = fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
				f.RetentionStatus, cliutil.Cell(f.Address), cliutil.Cell(f.ID), cliutil.Cell(f.Platform), cliutil.Cell(f.Status),
				f.ExpiresAt.UTC().Format(time.RFC3339), relative(f.ExpiresAt.Sub(rep.Now)), cliutil.Cell(f.Rule), cliutil.Cell(f.Action))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
	}
	if byWorkspace && len(rep.Workspaces) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		_, _ = fmt.Fprintln(tw, "WORKSPACE\tEXPIRED\tEXPIRING\tCHECKED\tNO DEADLINE")
		for _, ws := range rep.Workspaces {
			if ws.NoState {
				_, _ = fmt.Fprintf(tw, "%s\t-\t-\tno state yet\t-\n", cliutil.Cell(ws.Name))
				continue
			}
			_, _ = fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\n", cliutil.Cell(ws.Name), ws.Expired, ws.Expiring, ws.Checked, ws.NoDeadline)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
	}
	where := ""
	if fleet {
		where = fmt.Sprintf(" in %d %s of %s", len(rep.Workspaces), pluralWord(len(rep.Workspaces), "workspace"), rep.Source)
	}
	_, err := fmt.Fprintf(w, "%d expired, %d expiring within %s, of %d sandboxes, snapshots and templates checked%s at %s (%d without a deadline)\n",
		rep.Expired, rep.Expiring, rep.WarnBefore, rep.Checked, where, rep.Now.UTC().Format(time.RFC3339), rep.NoDeadline)
	return err
}

func pluralWord(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// relative renders how far away a deadline is: "in 2d3h", "5h ago".
func relative(d time.Duration) string {
	past := d < 0
	if past {
		d = -d
	}
	d = d.Round(time.Minute)
	days := int64(d / (24 * time.Hour))
	d %= 24 * time.Hour
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
