package retention

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"
)

// The generated retention table sits between these two lines in a document
// (the retention guide's template); everything outside them is hand-written.
const (
	DocTableBegin = "<!-- BEGIN GENERATED RETENTION TABLE: `make docs` rewrites this part from internal/retention -->"
	DocTableEnd   = "<!-- END GENERATED RETENTION TABLE -->"
)

// docTitles is the display name of each platform's section. A shipped
// platform without one is an error, so a platform cannot ship undocumented.
var docTitles = map[string]string{
	Docker:  "Docker (local)",
	E2B:     "E2B",
	Daytona: "Daytona",
	Fly:     "Fly.io",
	Modal:   "Modal",
}

// WriteDocTable writes the built-in policy table as Markdown: one section
// per shipped platform (Shipped, in its order), one row per rule, in table
// order; rows of platforms not shipped yet are left out. After the sections
// it names the override keys that apply to no shipped platform. It is
// generated so the documentation can never disagree with the code.
func WriteDocTable(w io.Writer) error {
	var b bytes.Buffer
	for i, p := range Shipped() {
		title, ok := docTitles[p]
		if !ok {
			return fmt.Errorf("shipped platform %q has no section title", p)
		}
		var rows []Rule
		enforced := false
		for _, r := range table {
			if r.Platform == p {
				rows = append(rows, r)
				enforced = enforced || r.Enforced
			}
		}
		if len(rows) == 0 {
			continue
		}
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "### %s\n\n", title)
		if !enforced {
			b.WriteString("Tracked, not enforced: the platform never acts on these deadlines by itself. " +
				"They exist only where a setting or an override gives them a window.\n\n")
		}
		b.WriteString("| key | object | state | window | counts from | action | user setting and limits | source |\n")
		b.WriteString("|---|---|---|---|---|---|---|---|\n")
		for _, r := range rows {
			cells := []string{
				"`" + r.Key + "`", r.Object, r.State, docWindow(r), docSince(r.Since),
				docAction(r), docSetting(r), docSource(r),
			}
			for j, c := range cells {
				cells[j] = docCell(c)
			}
			b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
		}
	}
	if keys := UnshippedKeys(); len(keys) > 0 {
		quoted := make([]string, len(keys))
		for i, k := range keys {
			quoted[i] = "`" + k + "`"
		}
		b.WriteString("\nNo shipped platform has a rule for " + docList(quoted, "or") + " yet: the `retention {}` block " +
			"accepts these keys, but they change no deadline on " + docList(docShippedTitles(), "or") + ".\n")
	}
	_, err := w.Write(b.Bytes())
	return err
}

// ReplaceDocTable returns doc with the text between DocTableBegin and
// DocTableEnd replaced by the generated table. Both markers must appear
// once, in order, each on its own line.
func ReplaceDocTable(doc []byte) ([]byte, error) {
	s := string(doc)
	if n := strings.Count(s, DocTableBegin); n != 1 {
		return nil, fmt.Errorf("want the begin marker %q exactly once, found it %d times", DocTableBegin, n)
	}
	if n := strings.Count(s, DocTableEnd); n != 1 {
		return nil, fmt.Errorf("want the end marker %q exactly once, found it %d times", DocTableEnd, n)
	}
	begin := strings.Index(s, DocTableBegin) + len(DocTableBegin)
	end := strings.Index(s, DocTableEnd)
	if end < begin {
		return nil, fmt.Errorf("the end marker comes before the begin marker")
	}
	var table bytes.Buffer
	if err := WriteDocTable(&table); err != nil {
		return nil, err
	}
	return []byte(s[:begin] + "\n\n" + table.String() + "\n" + s[end:]), nil
}

// docDuration renders a window the way the table's sources speak of it:
// whole days as "7d", otherwise Go's form without zero units ("15m", "1h30m").
func docDuration(d time.Duration) string {
	if d >= day && d%day == 0 {
		return fmt.Sprintf("%dd", d/day)
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

func docWindow(r Rule) string {
	switch {
	case r.Window > 0:
		return docDuration(r.Window)
	case r.Setting != SettingNone:
		return "none unless `" + string(r.Setting) + "` is set"
	}
	return "none (an override sets one)"
}

func docSince(s Since) string {
	switch s {
	case SinceCreated:
		return "creation"
	case SinceStarted:
		return "last start or resume"
	case SinceStateSince:
		return "entering the state"
	case SinceLastUsed:
		return "last activity"
	}
	return string(s)
}

func docAction(r Rule) string {
	if r.ActionFromOnTimeout {
		return string(r.Action) + " (or `on_timeout`)"
	}
	return string(r.Action)
}

func docSetting(r Rule) string {
	var parts []string
	if r.Setting != SettingNone {
		s := "`" + string(r.Setting) + "`"
		var lim []string
		switch {
		case r.Limits.Min > 0 && r.Limits.Max > 0:
			lim = append(lim, docDuration(r.Limits.Min)+" to "+docDuration(r.Limits.Max))
		case r.Limits.Max > 0:
			lim = append(lim, "at most "+docDuration(r.Limits.Max))
		case r.Limits.Min > 0:
			lim = append(lim, "at least "+docDuration(r.Limits.Min))
		}
		if r.Limits.Default > 0 {
			lim = append(lim, "default "+docDuration(r.Limits.Default))
		}
		if len(lim) > 0 {
			s += ": " + strings.Join(lim, ", ")
		}
		parts = append(parts, s)
	} else if r.Limits.Max > 0 {
		parts = append(parts, "no setting; at most "+docDuration(r.Limits.Max)+" (account tier)")
	}
	if r.Reported {
		parts = append(parts, "the deadline the platform reports wins")
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, "; ")
}

func docSource(r Rule) string {
	if r.Note == "" {
		return r.Source
	}
	return r.Source + ". Note: " + r.Note
}

// docList joins words as prose with a conjunction: "a", "a or b", "a, b or c".
func docList(words []string, conj string) string {
	if len(words) <= 1 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + conj + " " + words[len(words)-1]
}

// docShippedTitles names the shipped platforms as people do ("Docker", not
// the section title "Docker (local)").
func docShippedTitles() []string {
	out := make([]string, 0, len(shipped))
	for _, p := range shipped {
		out = append(out, strings.TrimSuffix(docTitles[p], " (local)"))
	}
	return out
}

// docCell keeps a value inside its Markdown table cell, and out of the
// documentation generator's template syntax.
func docCell(s string) string {
	s = strings.NewReplacer("\n", " ", "|", `\|`, "{{", "{ {", "}}", "} }").Replace(s)
	return strings.TrimSpace(s)
}
