package retention

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/duration"
)

// The generated retention table sits between these two lines in a document
// (the retention guide's template); everything outside them is hand-written.
const (
	DocTableBegin = "<!-- BEGIN GENERATED RETENTION TABLE: `make docs` rewrites this part from the registered platforms' retention rules -->"
	DocTableEnd   = "<!-- END GENERATED RETENTION TABLE -->"
)

// WriteDoc writes the table as Markdown: one section per platform, in the
// table's order (Platforms), headed by its title, one row per rule in
// table order. titles maps each platform's name to its section title
// (platform.Definition.Title); a platform without one is an error, so a
// platform cannot ship undocumented. The guide is generated from the
// registered platforms' table, so it can never disagree with the code.
func (t Table) WriteDoc(w io.Writer, titles map[string]string) error {
	var b bytes.Buffer
	for i, p := range t.Platforms() {
		title := titles[p]
		if title == "" {
			return fmt.Errorf("platform %q has no section title", p)
		}
		rows := t.Only(p).rules
		enforced := false
		for _, r := range rows {
			enforced = enforced || r.Enforced
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
				"`" + r.Key + "`", r.Object, r.State, docWindow(r), docSince(r),
				docAction(r), docSetting(r), docSource(r),
			}
			for j, c := range cells {
				cells[j] = docCell(c)
			}
			b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// ReplaceDoc returns doc with the text between DocTableBegin and
// DocTableEnd replaced by the table as WriteDoc writes it. Both markers
// must appear once, in order, each on its own line.
func (t Table) ReplaceDoc(doc []byte, titles map[string]string) ([]byte, error) {
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
	var gen bytes.Buffer
	if err := t.WriteDoc(&gen, titles); err != nil {
		return nil, err
	}
	return []byte(s[:begin] + "\n\n" + gen.String() + "\n" + s[end:]), nil
}

// docDuration renders a window the way the table's sources speak of it:
// whole days as "7d", otherwise Go's form without zero units ("15m", "1h30m").
func docDuration(d time.Duration) string {
	if d >= day && d%day == 0 {
		return fmt.Sprintf("%dd", d/day)
	}
	return duration.Format(d)
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

func docSince(r Rule) string {
	switch r.Since {
	case SinceCreated:
		return "creation"
	case SinceStarted:
		return "last start or resume"
	case SinceStateSince:
		return "entering the state"
	case SinceLastUsed:
		if r.Object == Template {
			// What a platform counts as a template's use.
			return "last use (a box started from it; creation when none)"
		}
		return "last activity"
	}
	return string(r.Since)
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

// docCell keeps a value inside its Markdown table cell, and out of the
// documentation generator's template syntax.
func docCell(s string) string {
	s = strings.NewReplacer("\n", " ", "|", `\|`, "{{", "{ {", "}}", "} }").Replace(s)
	return strings.TrimSpace(s)
}
