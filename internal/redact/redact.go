// Package redact hides secrets (sandbox env values, tokens, API keys) in text
// that may reach a diagnostic or a log line: an engine or API error that
// echoes the request it refused, a box's log lines, a readiness check's
// output. Errors name a variable, never its value.
package redact

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// Mask is what a secret is replaced with.
const Mask = "***"

// MinLen is the length from which a value is masked wherever it appears.
// A shorter value ("1", "no") is masked only where it stands with its name
// (NAME=1): masking every "1" of a message would garble ids and exit codes
// and hide nothing worth hiding.
const MinLen = 4

// Secrets is a set of values to mask. Add values first, then mask; a
// Secrets is not safe for concurrent Adds.
type Secrets struct {
	// hide maps a text to hide to how many of its leading bytes stay
	// visible: the name of NAME=value, or none.
	hide map[string]int
}

// Value adds a secret value that is masked wherever it appears, in the forms
// it takes when quoted by Go (%q) or JSON, and each line or NUL-separated
// part of it that is MinLen or longer. A value shorter than MinLen is ignored.
func (s *Secrets) Value(v string) {
	if len(v) < MinLen {
		return
	}
	s.add("", v)
	for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == 0 || r == '\n' || r == '\r' }) {
		if len(part) >= MinLen {
			s.add("", part)
		}
	}
}

// Credential adds a secret masked wherever it appears, whatever its length.
func (s *Secrets) Credential(v string) {
	if v != "" {
		s.add("", v)
	}
}

// Env adds an environment variable: NAME=value becomes NAME=*** whatever
// the value's length, and the value is masked on its own as Value does.
func (s *Secrets) Env(name, value string) {
	if value != "" {
		s.add(name+"=", value)
	}
	s.Value(value)
}

// EnvMap adds every variable of env (see Env).
func (s *Secrets) EnvMap(env map[string]string) {
	for k, v := range env {
		s.Env(k, v)
	}
}

// EnvList adds every NAME=value of env (see Env).
func (s *Secrets) EnvList(env []string) {
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		s.Env(k, v)
	}
}

// add records prefix+secret, of which prefix stays visible, as it is and
// in its quoted forms. Quoting escapes rune by rune, so the quoted text
// starts with the quoted prefix.
func (s *Secrets) add(prefix, secret string) {
	if s.hide == nil {
		s.hide = map[string]int{}
	}
	for _, quote := range []func(string) string{plain, goQuoted, jsonQuoted, jsonHTMLQuoted} {
		s.hide[quote(prefix+secret)] = len(quote(prefix))
	}
}

// Empty reports whether there is nothing to mask.
func (s *Secrets) Empty() bool { return s == nil || len(s.hide) == 0 }

// Strings are the texts that are masked, longest first: for log filters
// that take a list of strings (tflog.MaskAllFieldValuesStrings). Masking
// them whole hides a little more than String does (the NAME= of a pair).
func (s *Secrets) Strings() []string {
	if s.Empty() {
		return nil
	}
	out := make([]string, 0, len(s.hide))
	for text := range s.hide {
		out = append(out, text)
	}
	slices.SortFunc(out, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	return out
}

// String returns text with every secret masked. Every byte that belongs to
// some occurrence of a secret is hidden, even where two secrets overlap, and
// each run of hidden bytes becomes one Mask.
func (s *Secrets) String(text string) string {
	if s.Empty() || text == "" {
		return text
	}
	var hidden []bool
	for secret, keep := range s.hide {
		for from := 0; ; {
			i := strings.Index(text[from:], secret)
			if i < 0 {
				break
			}
			if hidden == nil {
				hidden = make([]bool, len(text))
			}
			at := from + i
			for j := at + keep; j < at+len(secret); j++ {
				hidden[j] = true
			}
			from = at + 1
		}
	}
	if hidden == nil {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		if !hidden[i] {
			b.WriteByte(text[i])
			continue
		}
		if i == 0 || !hidden[i-1] {
			b.WriteString(Mask)
		}
	}
	return b.String()
}

// Error returns err with every secret masked in its text; errors.Is and
// errors.As still see the chain beneath. err itself when nothing changes.
func (s *Secrets) Error(err error) error {
	if err == nil || s.Empty() {
		return err
	}
	msg := err.Error()
	masked := s.String(msg)
	if masked == msg {
		return err
	}
	return &maskedError{err: err, msg: masked}
}

// maskedError is an error whose text has its secrets masked.
type maskedError struct {
	err error
	msg string
}

func (e *maskedError) Error() string { return e.msg }
func (e *maskedError) Unwrap() error { return e.err }

func plain(s string) string { return s }

// goQuoted is s as %q writes it, without the quotes.
func goQuoted(s string) string {
	q := strconv.Quote(s)
	return q[1 : len(q)-1]
}

// jsonQuoted is s as a JSON string body, the way an API echoes it.
func jsonQuoted(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	q := strings.TrimSuffix(b.String(), "\n")
	return q[1 : len(q)-1]
}

// jsonHTMLQuoted is s as encoding/json writes it by default (<, > and &
// escaped).
func jsonHTMLQuoted(s string) string {
	q, _ := json.Marshal(s) // a string always encodes
	return string(q[1 : len(q)-1])
}
