package provider

import (
	"slices"
	"strconv"
	"strings"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platforms"
)

// The documentation says what each platform does with an attribute by
// reading the platforms' own tables (platform.Definition.Capabilities), so
// it never names a platform by itself, cannot disagree with the tables, and
// a new platform documents itself by being registered.

// changeKeptByResource are the attributes whose change the resource, not the
// platform, decides: a snapshot keeps the source it was taken of
// (resource_snapshot_source.go), so their rows only say whether the
// platform accepts them.
var changeKeptByResource = map[string]bool{
	platform.AttrSnapshotSandboxID: true,
	platform.AttrSnapshotVolumeID:  true,
}

// platformNotes is what the registered platforms defs do with the attribute
// of table key key (platform.Attr*), as Markdown to append to its
// description: one sentence per platform, platforms whose rows read the
// same sharing one. A refused row reads "<Title> refuses it at plan time:
// <Why>."; any other "<Title>: <what the row says>.", in this order:
// required, the accepted values, the limits, whether a change is made in
// place (a template is rebuilt in place) or replaces the object, that the
// value is not reported back (and so kept from the configuration), and the
// platform's own Doc; a row that accepts only some values for a reason ends
// with them and its Why, any other row with a Why (the reason for a limit)
// with the Why. Platforms without a table (Capabilities nil) are left out;
// "" when none has one.
func platformNotes(defs []platform.Definition, key string) string {
	return platformNotesOf(defs, key, false)
}

// platformNotesOf is platformNotes; once leaves out what only an object's
// later plans see (a change made in place or replacing it, a value not
// reported back): an action's arguments are used once, when it runs.
func platformNotesOf(defs []platform.Definition, key string, once bool) string {
	var notes []attributeNote
	titles := map[attributeNote][]string{}
	for _, def := range defs {
		if def.Capabilities == nil {
			continue
		}
		note := noteOf(def.Capabilities().Attribute(key), key, once)
		if !note.refused && note.text == "" {
			continue // accepted, with nothing more to say
		}
		if _, seen := titles[note]; !seen {
			notes = append(notes, note)
		}
		titles[note] = append(titles[note], def.Title)
	}
	sentences := make([]string, 0, len(notes))
	for _, note := range notes {
		names := titles[note]
		switch {
		case !note.refused:
			sentences = append(sentences, joinAnd(names)+": "+note.text+".")
		case len(names) == 1:
			sentences = append(sentences, names[0]+" refuses it at plan time"+prefixed(": ", note.text)+".")
		default:
			sentences = append(sentences, joinAnd(names)+" refuse it at plan time"+prefixed(": ", note.text)+".")
		}
	}
	return strings.Join(sentences, " ")
}

// attributeNote is what one platform's row says of an attribute: whether it
// refuses it, and the clauses of a sentence (no final period).
type attributeNote struct {
	refused bool
	text    string
}

// prefixed is prefix+s, or "" when s is.
func prefixed(prefix, s string) string {
	if s == "" {
		return ""
	}
	return prefix + s
}

// withPlatformNotes is desc followed by the platforms' notes on key.
func withPlatformNotes(desc string, defs []platform.Definition, key string) string {
	if notes := platformNotes(defs, key); notes != "" {
		return desc + " " + notes
	}
	return desc
}

// withActionNotes is desc followed by the platforms' notes on key as an
// action's argument (platformNotesOf's once).
func withActionNotes(desc string, defs []platform.Definition, key string) string {
	if notes := platformNotesOf(defs, key, true); notes != "" {
		return desc + " " + notes
	}
	return desc
}

// noteOf is what one platform's row of key says (once: see platformNotesOf).
func noteOf(row platform.Attribute, key string, once bool) attributeNote {
	kind, _, _ := strings.Cut(key, ".")
	var clauses []string
	add := func(s string) {
		if s = strings.TrimSuffix(strings.TrimSpace(s), "."); s != "" {
			clauses = append(clauses, s)
		}
	}
	if row.Support == platform.Refused {
		add(row.Why)
		add(row.Doc)
		return attributeNote{refused: true, text: strings.Join(clauses, "; ")}
	}
	if row.Required {
		add("required")
	}
	// Accepted values given with a reason come last, followed by it.
	valuesLast := len(row.Values) > 0 && row.Why != ""
	if len(row.Values) > 0 && !valuesLast {
		add(valuesPhrase(row.Values))
	}
	if row.Min > 0 {
		add("at least " + strconv.FormatInt(row.Min, 10))
	}
	if row.Max > 0 {
		add("at most " + strconv.FormatInt(row.Max, 10))
	}
	if row.MaxDuration > 0 {
		add("at most " + retentionHumanDuration(row.MaxDuration))
	}
	if row.Step > 1 {
		add("a multiple of " + strconv.FormatInt(row.Step, 10))
	}
	if row.UpdateOnly {
		add("refused when the " + kind + " is created, set on a live one")
	}
	if !changeKeptByResource[key] && !once {
		switch {
		case row.Support == platform.InPlace && kind == "template":
			add("rebuilt in place")
		case row.Support == platform.InPlace:
			add("changed in place")
		case row.Support == platform.Replace:
			add("a change replaces the " + kind)
		}
	}
	if row.GrowOnly {
		add("it only grows: a smaller value is a plan-time error")
	}
	if row.Unreported && !once {
		add("not reported back: kept from the configuration")
	}
	add(row.Doc)
	switch {
	case valuesLast:
		add(valuesPhrase(row.Values) + ": " + row.Why)
	case row.Why != "":
		add(row.Why) // why a limit is what it is
	}
	return attributeNote{text: strings.Join(clauses, "; ")}
}

// valuesPhrase lists accepted values as code: "only `false`", "one of
// `kill` or `pause`".
func valuesPhrase(values []string) string {
	quoted := make([]string, 0, len(values))
	for _, v := range values {
		quoted = append(quoted, "`"+v+"`")
	}
	if len(quoted) == 1 {
		return "only " + quoted[0]
	}
	return "one of " + joinOr(quoted)
}

// platformsWhere names in prose the platforms of defs whose table (with
// their default settings) satisfies pred: "Alpha", "Alpha and Beta"; "" when
// none does. Descriptions use it for what no single attribute's row says:
// the Capabilities flags.
func platformsWhere(defs []platform.Definition, pred func(platform.Capabilities) bool) string {
	var titles []string
	for _, def := range defs {
		if def.Capabilities != nil && pred(def.Capabilities()) && !slices.Contains(titles, def.Title) {
			titles = append(titles, def.Title)
		}
	}
	return joinAnd(titles)
}

// platformsAside is platformsWhere as an aside after a phrase: " (Alpha)",
// or "" when no platform satisfies pred.
func platformsAside(defs []platform.Definition, pred func(platform.Capabilities) bool) string {
	if names := platformsWhere(defs, pred); names != "" {
		return " (" + names + ")"
	}
	return ""
}

// definitionsOr is defs, or the registered platforms when defs is nil (a
// resource or data source built outside the provider, as unit tests do).
func definitionsOr(defs []platform.Definition) []platform.Definition {
	if defs != nil {
		return defs
	}
	return platforms.All()
}
