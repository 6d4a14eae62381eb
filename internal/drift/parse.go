// Package drift reads a Terraform state and reports every sbx_sandbox,
// sbx_snapshot and sbx_template whose retention deadline has passed or is
// near. It needs no
// credentials and no network: the deadline is what the provider recorded in
// `expires_at` on the last refresh, re-judged against the current time.
package drift

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Resource types the detector looks at: the ones with retention deadlines
// (a template's: where the platform deactivates unused templates).
const (
	TypeSandbox  = "sbx_sandbox"
	TypeSnapshot = "sbx_snapshot"
	TypeTemplate = "sbx_template"
)

// DetectedTypes are the resource types Parse emits and the detector judges.
var DetectedTypes = []string{TypeSandbox, TypeSnapshot, TypeTemplate}

// The other resource type of the provider, which ParseWith can read too
// (the orphans command collects the ids of every sbx_* resource).
const TypeVolume = "sbx_volume"

// Instance is one sbx_sandbox, sbx_snapshot or sbx_template resource
// instance (or one of the types ParseWith was asked for), with the
// attributes the detector reads. Absent and null attributes are "".
type Instance struct {
	Address string
	Type    string
	ID      string
	// Platform, Status (sandboxes, templates) and Kind (snapshots) as recorded.
	Platform string
	Status   string
	Kind     string
	// ExpiresAt is the recorded RFC 3339 deadline, "" when there is none.
	ExpiresAt       string
	RetentionRule   string
	RetentionAction string
	RetentionStatus string
}

// Format is the layout of the input.
type Format string

// The two layouts the detector reads.
const (
	FormatState    Format = "state"     // terraform state pull, .tfstate (version 4)
	FormatShowJSON Format = "show-json" // terraform show -json (format_version 1.x)
)

const supportedFormats = "state format version 4 (terraform state pull, .tfstate) and terraform show -json output (format_version 1.x)"

// InputError is bad input: the message says what is wrong and where.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

func inputErr(format string, a ...any) error { return &InputError{Msg: fmt.Sprintf(format, a...)} }

// Parse streams a state from r and calls emit for every managed
// sbx_sandbox, sbx_snapshot and sbx_template instance, in file order. It holds one instance at a time
// (plus the current input buffer), never the file, so memory does not grow
// with the state. It returns the detected format, or an *InputError
// describing bad input; a read error of r is returned as is.
func Parse(r io.Reader, emit func(Instance) error) (Format, error) {
	return ParseWith(r, ParseOptions{}, emit)
}

// ParseOptions widen Parse for other commands that read states.
type ParseOptions struct {
	// Types are the managed resource types to emit; nil means the
	// detector's (DetectedTypes).
	Types []string
	// Tool names the command in messages about bad input; "" means drift.
	Tool string
	// Backend says the input was read from a Terraform backend (pg, s3, a
	// local working directory): it must be a state file as Terraform
	// stores it, "version": 4 with "terraform_version", "serial",
	// "lineage" and "resources". terraform show -json output is refused:
	// a backend never holds it, so a row holding it is not a state.
	Backend bool
	// RequireResources refuses input that does not say what it holds: a
	// show-json without "values" (Terraform prints {"format_version":"1.0"}
	// for an empty state) or a state without "resources". The orphans
	// command sets it: read as "holds nothing", such input would make
	// every live object an orphan. Only a state file saying
	// "resources": [] is an empty state there.
	RequireResources bool
}

// ParseWith is Parse for the resource types and command of opts.
func ParseWith(r io.Reader, opts ParseOptions, emit func(Instance) error) (Format, error) {
	p := &parser{lx: newLexer(r), emit: emit, types: opts.Types, tool: opts.Tool, opts: opts}
	if p.types == nil {
		p.types = DetectedTypes
	}
	if p.tool == "" {
		p.tool = "drift"
	}
	err := p.parse()
	if err != nil && p.lx.rerr != nil {
		return "", p.lx.rerr
	}
	return p.format, err
}

type parser struct {
	lx     *lexer
	emit   func(Instance) error
	format Format
	types  []string // the resource types emitted
	tool   string   // the command, as messages name it
	opts   ParseOptions
	// Top-level keys seen, for the checks after the object.
	sawVersion, sawResources, sawValues, sawRootModule bool
	sawTFVersion, sawSerial, sawLineage                bool
}

func (p *parser) parse() error {
	c, ok := p.lx.peek()
	if !ok {
		if p.lx.offset() == 0 {
			return inputErr("not a state file: the input is empty")
		}
		return inputErr("not a state file: the input holds only whitespace")
	}
	if c != '{' {
		kind, err := p.lx.kind("the top-level value")
		if err != nil {
			return inputErr("not a state file: it does not start with a JSON object (%v)", err)
		}
		return inputErr("not a state file: the top-level value is %s, want an object with \"version\" (terraform state pull) or \"format_version\" (terraform show -json)", kind)
	}
	sawPlan := false
	err := p.lx.object("the top-level object", 0, func(k string) error {
		switch k {
		case "version":
			p.sawVersion = true
			return p.version()
		case "format_version":
			return p.formatVersion()
		case "resources":
			p.sawResources = true
			return p.v4Resources()
		case "values":
			p.sawValues = true
			return p.showValues()
		case "planned_values", "resource_changes", "prior_state":
			sawPlan = true
		case "terraform_version":
			p.sawTFVersion = true
			return p.tfVersion()
		case "serial":
			p.sawSerial = true
		case "lineage":
			p.sawLineage = true
		}
		return p.lx.skip(strconv.Quote(k), 1)
	})
	if err != nil {
		return err
	}
	if _, more := p.lx.peek(); more {
		return inputErr("not a state file: more data after the state object at byte %d", p.lx.offset())
	}
	switch {
	case p.format == FormatShowJSON && sawPlan:
		return inputErr("not a state file: this is a plan (terraform show -json PLANFILE); give %s the state: terraform state pull, or terraform show -json without a plan file", p.tool)
	case p.format == "":
		return inputErr("not a state file: the top-level object has neither \"version\" (terraform state pull, .tfstate) nor \"format_version\" (terraform show -json)")
	case p.format == FormatState && !p.sawVersion:
		// Terraform refuses it too: "does not have a version attribute".
		return inputErr("not a state file: it has \"resources\" but no \"version\"; Terraform refuses a state without one; give %s terraform state pull output", p.tool)
	case p.format == FormatShowJSON && p.sawValues && !p.sawRootModule:
		return inputErr("not a state file: \"values\" has no \"root_module\"; terraform show -json never prints that")
	case p.format == FormatShowJSON && p.opts.Backend:
		return inputErr("not a state file: this is terraform show -json output (\"format_version\"), which a backend never holds; a backend holds the state file layout, \"version\": 4")
	case p.format == FormatState && p.opts.Backend && !p.sawResources:
		return inputErr("not a state file: a state as Terraform stores it has \"version\", \"terraform_version\", \"serial\", \"lineage\" and \"resources\"; missing %s", p.missingStateFields())
	case p.opts.RequireResources && p.format == FormatShowJSON && !p.sawValues:
		return inputErr("refusing an input that holds no \"values\": terraform show -json prints that for an empty state, and read as holding nothing it would make every object %s finds an orphan; give %s terraform state pull output, whose \"resources\": [] says a state is empty", p.tool, p.tool)
	}
	return nil
}

func (p *parser) missingStateFields() string {
	var m []string
	for _, f := range []struct {
		ok   bool
		name string
	}{{p.sawTFVersion, "terraform_version"}, {p.sawSerial, "serial"}, {p.sawLineage, "lineage"}, {p.sawResources, "resources"}} {
		if !f.ok {
			m = append(m, "\""+f.name+"\"")
		}
	}
	return strings.Join(m, ", ")
}

// tfVersion checks "terraform_version": Terraform's reader refuses a state
// whose terraform_version is not a version string such as "1.9.5".
func (p *parser) tfVersion() error {
	isNull, err := p.lx.null("\"terraform_version\"")
	if err != nil || isNull {
		if isNull {
			p.sawTFVersion = false
		}
		return err
	}
	v, err := p.optString("\"terraform_version\"", "")
	if err != nil {
		return err
	}
	if !validVersion(v) {
		return inputErr("not a state file: \"terraform_version\" is %q, want a version such as \"1.9.5\"", v)
	}
	return nil
}

// validVersion accepts what Terraform's version parser does in practice:
// an optional v, 1 to 3 dot-separated numbers, an optional -pre/+meta.
func validVersion(v string) bool {
	v = strings.TrimPrefix(v, "v")
	if i := strings.IndexAny(v, "-+"); i >= 0 {
		if i == len(v)-1 {
			return false
		}
		v = v[:i]
	}
	parts := strings.Split(v, ".")
	if len(parts) > 3 {
		return false
	}
	for _, part := range parts {
		if part == "" {
			return false
		}
		if _, err := strconv.ParseUint(part, 10, 64); err != nil {
			return false
		}
	}
	return true
}

func (p *parser) setFormat(f Format) error {
	if p.format != "" && p.format != f {
		return inputErr("not a state file: it mixes the state file layout (\"version\", \"resources\") with terraform show -json (\"format_version\", \"values\")")
	}
	p.format = f
	return nil
}

func (p *parser) version() error {
	kind, err := p.lx.kind("\"version\"")
	if err != nil {
		return err
	}
	if kind != "a number" {
		return inputErr("not a state file: \"version\" is %s, want the state format version number; %s reads %s", kind, p.tool, supportedFormats)
	}
	v, err := p.lx.number("\"version\"")
	if err != nil {
		return err
	}
	if v != "4" {
		return inputErr("unsupported state version %s: %s reads %s; Terraform 0.12 and later write version 4", v, p.tool, supportedFormats)
	}
	return p.setFormat(FormatState)
}

func (p *parser) formatVersion() error {
	kind, err := p.lx.kind("\"format_version\"")
	if err != nil {
		return err
	}
	if kind != "a string" {
		return inputErr("not a state file: \"format_version\" is %s, want a string such as \"1.0\"", kind)
	}
	v, err := p.lx.str("\"format_version\"")
	if err != nil {
		return err
	}
	if major, _, _ := strings.Cut(v, "."); major != "1" {
		return inputErr("unsupported format_version %q: %s reads %s", v, p.tool, supportedFormats)
	}
	return p.setFormat(FormatShowJSON)
}

// relevant says whether a resource is one the parser emits.
func (p *parser) relevant(mode, typ string) bool {
	return (mode == "managed" || mode == "") && slices.Contains(p.types, typ)
}

// optString reads the string or null value of field in what ("" for null).
func (p *parser) optString(what, field string) (string, error) {
	isNull, err := p.lx.null(what)
	if err != nil || isNull {
		return "", err
	}
	kind, err := p.lx.kind(what)
	if err != nil {
		return "", err
	}
	if kind != "a string" {
		return "", inputErr("not a state file: %s.%s is %s, want a string (near byte %d)", what, field, kind, p.lx.offset())
	}
	return p.lx.str(what)
}

// container opens an object or array that may be null; ok is false for null.
func (p *parser) container(want byte, what string) (bool, error) {
	isNull, err := p.lx.null(what)
	if err != nil || isNull {
		return false, err
	}
	c, ok := p.lx.peek()
	if !ok {
		return false, p.lx.truncated(what)
	}
	if c != want {
		kind, err := p.lx.kind(what)
		if err != nil {
			return false, err
		}
		wantKind := "an object"
		if want == '[' {
			wantKind = "an array"
		}
		return false, inputErr("not a state file: %s is %s, want %s (near byte %d)", what, kind, wantKind, p.lx.offset())
	}
	return true, nil
}

// captured holds the attributes the detector reads, as found. A value of
// the wrong type is noted, not failed on at once: the resource may turn
// out to be another provider's, whose attributes are none of our business.
type captured struct {
	vals [numAttrs]string
	bad  string // "attribute x is a number" when one was not a string
}

const (
	attrID = iota
	attrPlatform
	attrStatus
	attrKind
	attrExpiresAt
	attrRule
	attrAction
	attrRetentionStatus
	numAttrs
)

var attrNames = [numAttrs]string{"id", "platform", "status", "kind", "expires_at", "retention_rule", "retention_action", "retention_status"}

func attrIndex(k string) int {
	for i, n := range attrNames {
		if n == k {
			return i
		}
	}
	return -1
}

// attributes reads the attributes (state) or values (show -json) object of what,
// keeping the few attributes the detector reads and skipping the rest.
func (p *parser) attributes(what string, depth int) (captured, error) {
	var c captured
	ok, err := p.container('{', what)
	if err != nil || !ok {
		return c, err
	}
	err = p.lx.object(what, depth, func(k string) error {
		i := attrIndex(k)
		if i < 0 {
			return p.lx.skip(what, depth)
		}
		kind, err := p.lx.kind(what)
		if err != nil {
			return err
		}
		switch kind {
		case "null":
			return p.lx.literal("null", what)
		case "a string":
			c.vals[i], err = p.lx.str(what)
			return err
		}
		if c.bad == "" {
			c.bad = "attribute " + k + " is " + kind + ", want a string or null"
		}
		return p.lx.skip(what, depth)
	})
	return c, err
}

func (c *captured) instance(address, typ string) (Instance, error) {
	if c.bad != "" {
		return Instance{}, inputErr("%s: %s", address, c.bad)
	}
	v := c.vals
	return Instance{
		Address: address, Type: typ, ID: v[attrID], Platform: v[attrPlatform], Status: v[attrStatus], Kind: v[attrKind],
		ExpiresAt: v[attrExpiresAt], RetentionRule: v[attrRule], RetentionAction: v[attrAction], RetentionStatus: v[attrRetentionStatus],
	}, nil
}

// indexKey reads an instance key and renders it the way Terraform addresses
// do: [0] for count, ["key"] for for_each, nothing for a single instance.
func (p *parser) indexKey(what, field string) (string, error) {
	kind, err := p.lx.kind(what)
	if err != nil {
		return "", err
	}
	switch kind {
	case "null":
		return "", p.lx.literal("null", what)
	case "a string":
		s, err := p.lx.str(what)
		return "[" + strconv.Quote(s) + "]", err
	case "a number":
		n, err := p.lx.number(what)
		return "[" + n + "]", err
	}
	return "", inputErr("not a state file: %s.%s is %s, want a number or a string (near byte %d)", what, field, kind, p.lx.offset())
}
