package orphans

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/cliutil"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Report is one run of the command.
type Report struct {
	Platform  string
	Scope     Scope
	States    []StateSummary
	Unchecked []platform.UncheckedKind
	Result    Result
	// Delete says --delete was given; Removals then follow Result.Orphans.
	Delete   bool
	Removals []Removal
	// Source names the backend whose workspaces were read ("" when only
	// files were). AllStates says the states are every state of the scope
	// (a backend's workspaces, or --all-states); Resources counts the sbx
	// resource instances they held.
	Source    string
	AllStates bool
	Resources int
}

func (r Report) removal(i int) *Removal {
	if i < len(r.Removals) {
		return &r.Removals[i]
	}
	return nil
}

// counts tallies the removals.
func (r Report) counts() (removed, gone, failed int) {
	for _, x := range r.Removals {
		switch x.Outcome {
		case Removed:
			removed++
		case AlreadyGone:
			gone++
		case Failed:
			failed++
		}
	}
	return removed, gone, failed
}

// scopeLine says which objects were judged, in words.
func (r Report) scopeLine() string {
	var who string
	switch {
	case r.Scope.AnyOwner:
		who = "every object the provider made, whatever its owner (no --owner given)"
	case r.Scope.OwnerPrefix != "":
		who = fmt.Sprintf("the objects of every owner starting with %q", r.Scope.OwnerPrefix)
	case r.Scope.Owner == "":
		who = "the objects the provider made that carry no owner (--owner=)"
	default:
		who = fmt.Sprintf("the objects of owner %q", r.Scope.Owner)
	}
	return fmt.Sprintf("Orphans on %s: %s that no state holds; %s.", r.Platform, who, r.statesRead())
}

// statesRead says what was read: the workspaces of a backend by count (a
// fleet has hundreds), files by name, and the resources they held.
func (r Report) statesRead() string {
	var parts, files []string
	workspaces := 0
	for _, s := range r.States {
		if s.Workspace != "" {
			workspaces++
		} else {
			files = append(files, s.Name)
		}
	}
	if r.Source != "" {
		parts = append(parts, fmt.Sprintf("%s of %s", plural(workspaces, "workspace"), r.Source))
	}
	if len(files) > 0 {
		parts = append(parts, "states: "+strings.Join(files, ", "))
	}
	s := "read " + strings.Join(parts, " and ") + fmt.Sprintf(" (%s)", plural(r.Resources, "sbx resource"))
	if !r.AllStates {
		s += ", not said to be every state (--delete needs --backend or --all-states)"
	}
	return s
}

// The --format json schema (schema_version 1) is one object: schema_version,
// platform, owner (null without --owner), all_owners, older_than, delete,
// states[], unchecked[], summary, orphans[], kept[]. Fields are only ever
// added.

type jsonObject struct {
	Kind        string   `json:"kind"`
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Owner       string   `json:"owner"`
	CreateToken string   `json:"create_token"`
	CreatedAt   string   `json:"created_at"`
	Detail      string   `json:"detail"`
	UsedBy      []string `json:"used_by"`
}

type jsonOrphan struct {
	jsonObject
	// Result is "" when nothing was removed (no --delete).
	Result string `json:"result"`
	Error  string `json:"error"`
}

type jsonKept struct {
	jsonObject
	Reason string `json:"reason"`
}

type jsonState struct {
	Name      string `json:"name"`
	Workspace string `json:"workspace"`
	Format    string `json:"format"`
	Resources int    `json:"resources"`
}

type jsonUnchecked struct {
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
}

type jsonSummary struct {
	Checked     int `json:"checked"`
	Held        int `json:"held"`
	Orphans     int `json:"orphans"`
	Kept        int `json:"kept"`
	OtherOwners int `json:"other_owners"`
	Removed     int `json:"removed"`
	AlreadyGone int `json:"already_gone"`
	Failed      int `json:"failed"`
}

type jsonReport struct {
	SchemaVersion int             `json:"schema_version"`
	Platform      string          `json:"platform"`
	Owner         *string         `json:"owner"`
	OwnerPrefix   *string         `json:"owner_prefix,omitempty"`
	AllOwners     bool            `json:"all_owners"`
	OlderThan     string          `json:"older_than"`
	Delete        bool            `json:"delete"`
	States        []jsonState     `json:"states"`
	Unchecked     []jsonUnchecked `json:"unchecked"`
	Summary       jsonSummary     `json:"summary"`
	Orphans       []jsonOrphan    `json:"orphans"`
	Kept          []jsonKept      `json:"kept"`
	// Source is the backend read ("" when only files were); the counts
	// are what was read, and all_states says they are every state.
	Source         string `json:"source"`
	WorkspacesRead int    `json:"workspaces_read"`
	ResourcesRead  int    `json:"resources_read"`
	AllStates      bool   `json:"all_states"`
}

func toJSONObject(o platform.ManagedObject) jsonObject {
	j := jsonObject{Kind: o.Kind, ID: o.ID, Name: o.Name, Owner: o.Owner, CreateToken: o.CreateToken,
		Detail: o.Detail, UsedBy: o.UsedBy}
	if j.UsedBy == nil {
		j.UsedBy = []string{}
	}
	if !o.CreatedAt.IsZero() {
		j.CreatedAt = o.CreatedAt.UTC().Format(time.RFC3339)
	}
	return j
}

// WriteJSON writes the report as one JSON document.
func WriteJSON(w io.Writer, r Report) error {
	removed, gone, failed := r.counts()
	out := jsonReport{
		SchemaVersion: 1, Platform: r.Platform, AllOwners: r.Scope.AnyOwner,
		OlderThan: r.Scope.OlderThan.String(), Delete: r.Delete,
		States: []jsonState{}, Unchecked: []jsonUnchecked{}, Orphans: []jsonOrphan{}, Kept: []jsonKept{},
		Summary: jsonSummary{Checked: r.Result.Checked, Held: r.Result.Held, Orphans: len(r.Result.Orphans),
			Kept: len(r.Result.Kept), OtherOwners: r.Result.OtherOwners, Removed: removed, AlreadyGone: gone, Failed: failed},
		Source: r.Source, ResourcesRead: r.Resources, AllStates: r.AllStates,
	}
	switch {
	case r.Scope.OwnerPrefix != "":
		prefix := r.Scope.OwnerPrefix
		out.OwnerPrefix = &prefix
	case !r.Scope.AnyOwner:
		owner := r.Scope.Owner
		out.Owner = &owner
	}
	for _, s := range r.States {
		out.States = append(out.States, jsonState{Name: s.Name, Workspace: s.Workspace, Format: string(s.Format), Resources: s.Resources})
		if s.Workspace != "" {
			out.WorkspacesRead++
		}
	}
	for _, u := range r.Unchecked {
		out.Unchecked = append(out.Unchecked, jsonUnchecked{Kind: u.Kind, Reason: u.Reason})
	}
	for i, o := range r.Result.Orphans {
		j := jsonOrphan{jsonObject: toJSONObject(o)}
		if x := r.removal(i); x != nil {
			j.Result = string(x.Outcome)
			if x.Err != nil {
				j.Error = x.Err.Error()
			}
		}
		out.Orphans = append(out.Orphans, j)
	}
	for _, k := range r.Result.Kept {
		out.Kept = append(out.Kept, jsonKept{jsonObject: toJSONObject(k.Object), Reason: k.Reason})
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// WriteTable writes the report for people: what was judged, the orphans
// (with what became of each under --delete), what was kept and why, the
// kinds that could not be checked, and a summary line.
func WriteTable(w io.Writer, r Report) error {
	ew := &errWriter{w: w}
	ew.printf("%s\n", r.scopeLine())
	if len(r.Result.Orphans) > 0 {
		ew.printf("\n")
		tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
		header := "KIND\tID\tNAME\tOWNER\tCREATED\tDETAIL"
		if r.Delete {
			header += "\tRESULT"
		}
		_, _ = fmt.Fprintln(tw, header) // tabwriter buffers; errors surface at Flush
		for i, o := range r.Result.Orphans {
			row := objectRow(o)
			if x := r.removal(i); x != nil {
				row += "\t" + string(x.Outcome)
			}
			_, _ = fmt.Fprintln(tw, row)
		}
		_ = tw.Flush()
	}
	if len(r.Result.Kept) > 0 {
		ew.printf("\nKept: no state holds these, but they are not orphans:\n")
		tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
		_, _ = fmt.Fprintln(tw, "KIND\tID\tNAME\tOWNER\tCREATED\tDETAIL\tREASON")
		for _, k := range r.Result.Kept {
			_, _ = fmt.Fprintln(tw, objectRow(k.Object)+"\t"+cliutil.Cell(k.Reason))
		}
		_ = tw.Flush()
	}
	if len(r.Unchecked) > 0 {
		ew.printf("\nNot checked on %s:\n", r.Platform)
		for _, u := range r.Unchecked {
			ew.printf("  %s: %s, so nothing shows the provider made them; find leftovers by name\n", u.Kind, u.Reason)
		}
	}
	ew.printf("\n%s\n", r.summaryLine())
	return ew.err
}

func objectRow(o platform.ManagedObject) string {
	created := "-"
	if !o.CreatedAt.IsZero() {
		created = o.CreatedAt.UTC().Format(time.RFC3339)
	}
	return strings.Join([]string{o.Kind, shortID(o.ID), cliutil.Cell(o.Name), cliutil.Cell(o.Owner), created, cliutil.Cell(o.Detail)}, "\t")
}

func (r Report) summaryLine() string {
	res := r.Result
	n := len(res.Orphans)
	var b strings.Builder
	fmt.Fprintf(&b, "%s of %d %s checked on %s", plural(n, "orphan"), res.Checked, pluralWord(res.Checked, "object"), r.Platform)
	fmt.Fprintf(&b, " (%d held by %s", res.Held, plural(len(r.States), "state"))
	if len(res.Kept) > 0 {
		fmt.Fprintf(&b, ", %d kept", len(res.Kept))
	}
	if !r.Scope.AnyOwner && res.OtherOwners > 0 {
		fmt.Fprintf(&b, "; %d of other owners not considered", res.OtherOwners)
	}
	b.WriteString(").")
	switch {
	case n == 0:
	case !r.Delete:
		b.WriteString(" Run again with --delete to remove them.")
	default:
		removed, gone, failed := r.counts()
		fmt.Fprintf(&b, " Removed %d, %d already gone, %d could not be removed.", removed, gone, failed)
	}
	return b.String()
}

func plural(n int, word string) string { return fmt.Sprintf("%d %s", n, pluralWord(n, word)) }

func pluralWord(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// errWriter keeps the first write error, so a report is checked once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

func (e *errWriter) printf(format string, a ...any) { _, _ = fmt.Fprintf(e, format, a...) }
