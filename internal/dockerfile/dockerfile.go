// Package dockerfile reads a Dockerfile into its instructions the way
// BuildKit's Dockerfile frontend does (moby/buildkit
// frontend/dockerfile/parser: parser.go, directives.go, split_command.go,
// line_parsers.go), so that every platform and the provider agree on where
// an instruction starts and ends: the parser directives at the top, line
// continuation with the escape character, blank and comment lines inside a
// continuation, heredocs, the JSON (exec) form.
//
// It is a package of its own, not part of the platform contract, because it
// is syntax only: it knows nothing of platforms, builds an AST of nothing
// beyond what the callers read (keyword, flags, arguments, heredocs, the
// text as written), and imports only the standard library. What a platform
// cannot build is that platform's own refusal, made from these
// instructions.
package dockerfile

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
)

// File is a parsed Dockerfile.
type File struct {
	// Escape is the escape and line-continuation character: a backslash
	// unless an escape directive chose the backtick.
	Escape rune
	// Directives are the parser directives at the top, in order.
	Directives []Directive
	// Instructions are the instructions in order. A file may have none;
	// whether that is an error is the caller's to say.
	Instructions []Instruction

	// dangling are the 1-based lines of the last instruction that end in
	// a line continuation when the file ends inside it (BuildKit takes the
	// instruction as ended there); nil when it does not.
	dangling []int
}

// Directive is a parser directive such as "# escape=`" or
// "# syntax=docker/dockerfile:1".
type Directive struct {
	Line  int    // 1-based
	Name  string // lower case: escape, syntax or check
	Value string
}

// Instruction is one instruction, its continuation lines joined.
type Instruction struct {
	Line    int // 1-based line it starts on
	EndLine int // 1-based line it ends on, heredoc bodies included
	// Keyword is the instruction's name in upper case (a Dockerfile's
	// keywords are case-insensitive). An unknown keyword is kept: BuildKit's
	// parser ignores it and the build refuses it, so callers refuse it too.
	Keyword string
	// Flags are the leading --name[=value] options, quotes and escapes
	// resolved, as BuildKit's extractBuilderFlags reads them.
	Flags []Flag
	// Args is the rest after the keyword and the flags, the continuation
	// lines joined (each without its continuation character), trimmed.
	Args string
	// JSON is true when Args is the JSON (exec) form: an array of strings.
	// Only ADD, COPY, CMD, ENTRYPOINT, RUN, SHELL and VOLUME have one.
	JSON bool
	// Heredocs are the here-documents of a RUN, COPY or ADD (also under
	// ONBUILD) in shell form, in the order of their markers.
	Heredocs []Heredoc
	// Original is the instruction's lines as written (comment lines inside
	// it and heredoc bodies included), without the last line break.
	Original string

	rest string // what follows the keyword on the logical line
}

// Flag is a builder flag such as --from=build: Name "from", Value "build".
type Flag struct {
	Name  string
	Value string
}

// Heredoc is one here-document: its terminator word and its body.
type Heredoc struct {
	Name string
	// Chomp is the <<- form: leading tabs are removed from the body lines
	// and the terminator line.
	Chomp bool
	// Content is the body as written, each line with its line break.
	Content string
}

// Error names the Dockerfile line a syntax problem is on.
type Error struct {
	Line   int
	Reason string
}

func (e *Error) Error() string { return fmt.Sprintf("dockerfile line %d: %s", e.Line, e.Reason) }

// Argv is the JSON form's array (nil for the shell form).
func (in Instruction) Argv() []string {
	if !in.JSON {
		return nil
	}
	var argv []string
	_ = json.Unmarshal([]byte(in.Args), &argv) // JSON is set only when it decodes
	return argv
}

// Flag returns the value of the flag name and whether it is given.
func (in Instruction) Flag(name string) (string, bool) {
	for _, f := range in.Flags {
		if f.Name == name {
			return f.Value, true
		}
	}
	return "", false
}

// Rest is what follows the keyword as one line: the flags as written and
// the arguments, e.g. "--platform=linux/amd64 alpine AS base" for a FROM.
func (in Instruction) Rest() string { return in.rest }

// Parse reads content as BuildKit's parser does. It fails only where
// BuildKit's parser fails: a parser directive given twice, an escape
// directive naming neither ` nor \, an unterminated heredoc, a JSON array
// of something other than strings.
func Parse(content string) (*File, error) {
	lines := splitLines(content)
	f := &File{Escape: '\\'}
	directivesDone := false
	seen := map[string]bool{}
	for i := 0; i < len(lines); i++ {
		raw := lines[i].text
		if i == 0 {
			raw = strings.TrimPrefix(raw, "\uFEFF") // a byte-order mark
		}
		text := strings.TrimLeftFunc(trimNewline(raw), unicode.IsSpace)
		if !directivesDone {
			// Directives come first: a blank line, a comment that is no
			// directive or an instruction ends them (directives.go ParseLine).
			d, ok := directive(text)
			if !ok {
				directivesDone = true
			} else {
				if seen[d.Name] {
					return nil, &Error{Line: i + 1, Reason: "only one " + d.Name + " parser directive can be used"}
				}
				seen[d.Name] = true
				if d.Name == "escape" {
					if d.Value != "`" && d.Value != `\` {
						return nil, &Error{Line: i + 1, Reason: "invalid escape token '" + d.Value + "' does not match ` or \\"}
					}
					f.Escape = rune(d.Value[0])
				}
				d.Line = i + 1
				f.Directives = append(f.Directives, d)
				continue
			}
		}
		if isComment(text) {
			continue
		}
		start := i
		var logical strings.Builder
		cut, continued := continuationCut(text, f.Escape)
		if !continued && text == "" {
			continue // a blank line
		}
		if continued {
			logical.WriteString(text[:cut])
		} else {
			logical.WriteString(text)
		}
		// A continuation goes on over comment lines and blank lines, up to
		// a line that does not end in the escape character (parser.go Parse).
		for continued && i+1 < len(lines) {
			i++
			l := trimNewline(lines[i].text)
			if isComment(l) || strings.TrimSpace(l) == "" {
				continue
			}
			if cut, continued = continuationCut(l, f.Escape); continued {
				logical.WriteString(l[:cut])
			} else {
				logical.WriteString(l)
			}
		}
		if continued {
			// The file ends inside the continuation: the instruction ends
			// there. Remember the line, so Append can end it first.
			f.dangling = continuedLines(lines, start, i)
		}
		in, err := instruction(logical.String(), f.Escape)
		if err != nil {
			return nil, &Error{Line: start + 1, Reason: err.Error()}
		}
		in.Line = start + 1
		if canHaveHeredoc(in, f.Escape) && strings.Contains(logical.String(), "<<") {
			for _, h := range heredocMarkers(logical.String()) {
				body, end, ok := heredocBody(lines, i+1, h)
				if !ok {
					return nil, &Error{Line: start + 1, Reason: "unterminated heredoc " + h.Name}
				}
				h.Content, i = body, end
				in.Heredocs = append(in.Heredocs, h)
			}
		}
		in.EndLine = i + 1
		in.Original = strings.TrimSuffix(strings.TrimSuffix(content[lines[start].offset:lines[i].offset+len(lines[i].text)], "\n"), "\r")
		if start == 0 {
			in.Original = strings.TrimPrefix(in.Original, "\uFEFF")
		}
		f.Instructions = append(f.Instructions, in)
	}
	return f, nil
}

// continuedLines are the 1-based lines from start to end that carry
// text (no comment, no blank line): each ends in a line continuation.
func continuedLines(lines []line, start, end int) []int {
	out := []int{start + 1}
	for j := start + 1; j <= end; j++ {
		if l := trimNewline(lines[j].text); !isComment(l) && strings.TrimSpace(l) != "" {
			out = append(out, j+1)
		}
	}
	return out
}

// line is one physical line with its line break, and where it starts.
type line struct {
	text   string
	offset int
}

// splitLines cuts content after each "\n", keeping the breaks, as
// BuildKit's scanLines does.
func splitLines(content string) []line {
	var out []line
	for off := 0; off < len(content); {
		n := strings.IndexByte(content[off:], '\n')
		if n < 0 {
			out = append(out, line{text: content[off:], offset: off})
			break
		}
		out = append(out, line{text: content[off : off+n+1], offset: off})
		off += n + 1
	}
	return out
}

// trimNewline drops the line break (and every \r before it).
func trimNewline(s string) string { return strings.TrimRight(s, "\r\n") }

func isComment(s string) bool {
	return strings.HasPrefix(strings.TrimLeftFunc(s, unicode.IsSpace), "#")
}

// directive reads a parser directive line: "#", blanks, a known name,
// "=", a value (directives.go: syntax, escape and check, names
// case-insensitive).
func directive(text string) (Directive, bool) {
	body, ok := strings.CutPrefix(text, "#")
	if !ok {
		return Directive{}, false
	}
	body = strings.TrimLeftFunc(body, unicode.IsSpace)
	name, value, ok := strings.Cut(body, "=")
	name = strings.TrimRightFunc(name, unicode.IsSpace)
	value = strings.TrimSpace(value)
	if !ok || value == "" || !isDirectiveName(name) {
		return Directive{}, false
	}
	switch name = strings.ToLower(name); name {
	case "syntax", "escape", "check":
		return Directive{Name: name, Value: value}, true
	}
	return Directive{}, false
}

func isDirectiveName(s string) bool {
	for i, r := range s {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return s != ""
}

// continuationCut reports whether l ends in a line continuation: the
// escape character as its last character but blanks and tabs, not itself
// escaped (parser.go lineContinuationRegex, whose limit this shares: an
// escaped escape character before it is not seen). cut is where the
// escape character starts.
func continuationCut(l string, escape rune) (cut int, ok bool) {
	t := strings.TrimRight(l, " \t")
	e := string(escape)
	if !strings.HasSuffix(t, e) {
		return 0, false
	}
	cut = len(t) - len(e)
	if strings.HasSuffix(t[:cut], e) {
		return 0, false
	}
	return cut, true
}

// whitespace is BuildKit's reWhitespace, which separates the keyword.
const whitespace = "\t\v\f\r "

func splitKeyword(cmd string) (string, string) {
	cmd = strings.TrimSpace(cmd)
	i := strings.IndexAny(cmd, whitespace)
	if i < 0 {
		return cmd, ""
	}
	return cmd[:i], strings.TrimLeft(cmd[i:], whitespace)
}

// jsonForms are the instructions whose arguments may be a JSON array
// (line_parsers.go: parseMaybeJSON, parseMaybeJSONToList).
var jsonForms = map[string]bool{"ADD": true, "COPY": true, "CMD": true, "ENTRYPOINT": true, "RUN": true, "SHELL": true, "VOLUME": true}

// instruction splits one logical line into keyword, flags and arguments.
func instruction(cmd string, escape rune) (Instruction, error) {
	kw, rest := splitKeyword(cmd)
	in := Instruction{Keyword: strings.ToUpper(kw), rest: rest}
	words, args := builderFlags(rest, escape)
	for _, w := range words {
		name, value, _ := strings.Cut(strings.TrimPrefix(w, "--"), "=")
		in.Flags = append(in.Flags, Flag{Name: name, Value: value})
	}
	in.Args = strings.TrimSpace(args)
	if jsonForms[in.Keyword] {
		var err error
		if in.JSON, err = isJSONArray(in.Args); err != nil {
			return in, fmt.Errorf("%s: %w", in.Keyword, err)
		}
	}
	return in, nil
}

// isJSONArray reports whether args is the JSON form. Something that starts
// with "[" but is no JSON array is the shell form; a JSON array holding
// anything but strings is an error (line_parsers.go parseJSON).
func isJSONArray(args string) (bool, error) {
	if !strings.HasPrefix(args, "[") {
		return false, nil
	}
	var elems []any
	if err := json.Unmarshal([]byte(args), &elems); err != nil {
		return false, nil //nolint:nilerr // no JSON array: the shell form, as BuildKit reads it
	}
	for _, e := range elems {
		if _, ok := e.(string); !ok {
			return false, fmt.Errorf("when using JSON array syntax, arrays must be comprised of strings only")
		}
	}
	return true, nil
}

// builderFlags peels the leading --flag words off rest, resolving quotes
// and escapes inside them, and returns them with what follows; a lone "--"
// ends them (split_command.go extractBuilderFlags).
func builderFlags(rest string, escape rune) ([]string, string) {
	var words []string
	pos := 0
	for {
		for pos < len(rest) && unicode.IsSpace(rune(rest[pos])) {
			pos++
		}
		if !strings.HasPrefix(rest[pos:], "--") {
			return words, rest[pos:]
		}
		var word strings.Builder
		var quote byte
		blankOK := false
		for ; pos < len(rest); pos++ {
			ch := rest[pos]
			if quote == 0 && unicode.IsSpace(rune(ch)) {
				break
			}
			switch {
			case quote != 0 && ch == quote:
				quote = 0
				continue
			case quote == 0 && (ch == '\'' || ch == '"'):
				quote, blankOK = ch, true
				continue
			case rune(ch) == escape:
				if pos+1 == len(rest) {
					continue
				}
				pos++
				ch = rest[pos]
			}
			word.WriteByte(ch)
		}
		w := word.String()
		if w == "--" {
			return words, rest[pos:]
		}
		if blankOK || w != "" {
			words = append(words, w)
		}
		if pos >= len(rest) {
			return words, ""
		}
	}
}

// canHaveHeredoc: RUN, COPY and ADD in shell form, also as the trigger of
// an ONBUILD (parser.go canContainHeredoc).
func canHaveHeredoc(in Instruction, escape rune) bool {
	if in.Keyword == "ONBUILD" {
		sub, err := instruction(in.Args, escape)
		if err != nil {
			return false
		}
		in = sub
	}
	switch in.Keyword {
	case "RUN", "COPY", "ADD":
		return !in.JSON
	}
	return false
}
