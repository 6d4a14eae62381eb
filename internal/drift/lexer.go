package drift

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// lexer is a small validating JSON reader over a fixed buffer. The detector
// uses it instead of encoding/json's Decoder because it must skip most of a
// state (attributes it does not read, other providers' resources) at
// memory speed: skipping here is one pass over the bytes, with no
// allocation, where Decoder.Token scans every value twice and allocates
// per token. Everything it skips is still validated, so malformed input is
// always an error.
type lexer struct {
	r    io.Reader
	buf  []byte
	pos  int   // next unread byte in buf
	base int64 // input offset of buf[0]
	eof  bool
	rerr error // a read error other than io.EOF
	// scratch collects a string that spans buffer refills.
	scratch []byte
}

const (
	lexBufSize = 256 << 10
	// maxDepth bounds nesting so hostile input cannot exhaust the stack.
	maxDepth = 10000
)

// commonStrings are the object keys and values a state repeats for every
// resource; returning these shared copies saves an allocation per key.
var commonStrings = func() map[string]string {
	m := map[string]string{}
	for _, s := range []string{
		"module", "mode", "type", "name", "provider", "instances", "index_key", "schema_version",
		"attributes", "sensitive_attributes", "identity_schema_version", "identity", "private",
		"dependencies", "create_before_destroy", "status", "deposed", "each",
		"address", "index", "provider_name", "values", "sensitive_values", "depends_on",
		"managed", "data", "sbx_sandbox", "sbx_snapshot",
		"id", "platform", "kind", "expires_at", "retention_rule", "retention_action", "retention_status",
		"labels", "env", "timeouts", "created_at", "started_at", "state", "ttl",
		"docker", "e2b", "daytona", "fly", "modal", "ok", "expiring", "expired",
		"running", "paused", "stopped", "archived", "filesystem", "memory", "volume",
	} {
		m[s] = s
	}
	return m
}()

func newLexer(r io.Reader) *lexer {
	return &lexer{r: r, buf: make([]byte, 0, lexBufSize)}
}

// offset is the input offset of the next unread byte.
func (l *lexer) offset() int64 { return l.base + int64(l.pos) }

// fill reads more input, keeping the unread bytes. It returns false at the
// end of input or on a read error.
func (l *lexer) fill() bool {
	if l.eof {
		return false
	}
	if l.pos > 0 {
		n := copy(l.buf, l.buf[l.pos:])
		l.base += int64(l.pos)
		l.buf = l.buf[:n]
		l.pos = 0
	}
	if len(l.buf) == cap(l.buf) {
		nb := make([]byte, len(l.buf), 2*cap(l.buf))
		copy(nb, l.buf)
		l.buf = nb
	}
	for {
		n, err := l.r.Read(l.buf[len(l.buf):cap(l.buf)])
		l.buf = l.buf[:len(l.buf)+n]
		if err != nil {
			l.eof = true
			if !errors.Is(err, io.EOF) {
				l.rerr = err
			}
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
}

func (l *lexer) truncated(what string) error {
	return inputErr("truncated JSON: the input ends at byte %d inside %s", l.offset(), what)
}

func (l *lexer) syntax(what, msg string) error {
	return inputErr("invalid JSON at byte %d in %s: %s", l.offset(), what, msg)
}

// peek skips whitespace and returns the next byte without consuming it;
// ok is false at the end of input.
func (l *lexer) peek() (byte, bool) {
	for {
		for l.pos < len(l.buf) {
			switch c := l.buf[l.pos]; c {
			case ' ', '\t', '\n', '\r':
				l.pos++
			default:
				return c, true
			}
		}
		if !l.fill() {
			return 0, false
		}
	}
}

// consume expects byte c next (after whitespace).
func (l *lexer) consume(c byte, what string) error {
	got, ok := l.peek()
	if !ok {
		return l.truncated(what)
	}
	if got != c {
		return l.syntax(what, fmt.Sprintf("found %s, want %q", charDesc(got), c))
	}
	l.pos++
	return nil
}

func charDesc(c byte) string {
	if c < ' ' || c > '~' {
		return fmt.Sprintf("byte 0x%02x", c)
	}
	return strconv.QuoteRune(rune(c))
}

// object reads an object, calling fn for each key with the lexer placed at
// the value; fn must consume the value.
func (l *lexer) object(what string, depth int, fn func(key string) error) error {
	if depth > maxDepth {
		return l.syntax(what, "nested too deeply")
	}
	if err := l.consume('{', what); err != nil {
		return err
	}
	c, ok := l.peek()
	if !ok {
		return l.truncated(what)
	}
	if c == '}' {
		l.pos++
		return nil
	}
	for {
		c, ok := l.peek()
		if !ok {
			return l.truncated(what)
		}
		if c != '"' {
			return l.syntax(what, fmt.Sprintf("found %s, want an object key", charDesc(c)))
		}
		key, err := l.str(what)
		if err != nil {
			return err
		}
		if err := l.consume(':', what); err != nil {
			return err
		}
		if err := fn(key); err != nil {
			return err
		}
		if done, err := l.separator(what, '}'); done || err != nil {
			return err
		}
	}
}

// separator reads what follows a member or an element: ',' (more follow)
// or the closing bracket (done).
func (l *lexer) separator(what string, closing byte) (done bool, err error) {
	c, ok := l.peek()
	if !ok {
		return false, l.truncated(what)
	}
	switch c {
	case ',':
		l.pos++
		return false, nil
	case closing:
		l.pos++
		return true, nil
	}
	return false, l.syntax(what, fmt.Sprintf("found %s, want ',' or '%c'", charDesc(c), closing))
}

// array reads an array, calling fn for each element (index i) with the
// lexer placed at it; fn must consume the element.
func (l *lexer) array(what string, depth int, fn func(i int) error) error {
	if depth > maxDepth {
		return l.syntax(what, "nested too deeply")
	}
	if err := l.consume('[', what); err != nil {
		return err
	}
	c, ok := l.peek()
	if !ok {
		return l.truncated(what)
	}
	if c == ']' {
		l.pos++
		return nil
	}
	for i := 0; ; i++ {
		if err := fn(i); err != nil {
			return err
		}
		if done, err := l.separator(what, ']'); done || err != nil {
			return err
		}
	}
}

// null consumes a null if one is next and reports whether it did.
func (l *lexer) null(what string) (bool, error) {
	c, ok := l.peek()
	if !ok {
		return false, l.truncated(what)
	}
	if c != 'n' {
		return false, nil
	}
	return true, l.literal("null", what)
}

func (l *lexer) literal(word, what string) error {
	for i := 0; i < len(word); i++ {
		if l.pos >= len(l.buf) && !l.fill() {
			return l.truncated(what)
		}
		if l.buf[l.pos] != word[i] {
			return l.syntax(what, fmt.Sprintf("found %s, want %q", charDesc(l.buf[l.pos]), word))
		}
		l.pos++
	}
	return nil
}

// kind describes the next value for error messages.
func (l *lexer) kind(what string) (string, error) {
	c, ok := l.peek()
	if !ok {
		return "", l.truncated(what)
	}
	switch c {
	case '{':
		return "an object", nil
	case '[':
		return "an array", nil
	case '"':
		return "a string", nil
	case 't', 'f':
		return "a boolean", nil
	case 'n':
		return "null", nil
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return "a number", nil
	}
	return "", l.syntax(what, fmt.Sprintf("found %s, want a JSON value", charDesc(c)))
}

// str reads a string (the next value must be one) and returns its content.
func (l *lexer) str(what string) (string, error) {
	raw, escaped, err := l.scanString(what, true)
	if err != nil {
		return "", err
	}
	if !escaped {
		if s, ok := commonStrings[string(raw[1:len(raw)-1])]; ok {
			return s, nil // no allocation for the keys every state repeats
		}
		return string(raw[1 : len(raw)-1]), nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", l.syntax(what, err.Error())
	}
	return s, nil
}

// scanString consumes a string, validating it. With keep, it returns the
// raw bytes including quotes (valid until the next read) and whether it has
// escapes.
func (l *lexer) scanString(what string, keep bool) ([]byte, bool, error) {
	if err := l.consume('"', what); err != nil {
		return nil, false, err
	}
	start := l.pos - 1
	l.scratch = l.scratch[:0]
	escaped := false
	for {
		for l.pos < len(l.buf) {
			c := l.buf[l.pos]
			switch {
			case c == '"':
				l.pos++
				if !keep {
					return nil, escaped, nil
				}
				if len(l.scratch) > 0 {
					l.scratch = append(l.scratch, l.buf[start:l.pos]...)
					return l.scratch, escaped, nil
				}
				return l.buf[start:l.pos], escaped, nil
			case c == '\\':
				escaped = true
				if err := l.escape(what, keep, &start); err != nil {
					return nil, false, err
				}
			case c < ' ':
				return nil, false, l.syntax(what, fmt.Sprintf("control character 0x%02x in a string", c))
			default:
				l.pos++
			}
		}
		if keep {
			l.scratch = append(l.scratch, l.buf[start:l.pos]...)
		}
		if !l.fill() {
			return nil, false, l.truncated(what)
		}
		start = l.pos
	}
}

// escape validates one escape sequence at l.pos (a backslash).
func (l *lexer) escape(what string, keep bool, start *int) error {
	need := 2
	for l.pos+need > len(l.buf) {
		if keep {
			l.scratch = append(l.scratch, l.buf[*start:l.pos]...)
		}
		if !l.fill() {
			return l.truncated(what)
		}
		*start = l.pos
		if l.pos+1 < len(l.buf) && l.buf[l.pos+1] == 'u' {
			need = 6
		}
	}
	switch l.buf[l.pos+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		l.pos += 2
		return nil
	case 'u':
		for l.pos+6 > len(l.buf) {
			if keep {
				l.scratch = append(l.scratch, l.buf[*start:l.pos]...)
			}
			if !l.fill() {
				return l.truncated(what)
			}
			*start = l.pos
		}
		for _, h := range l.buf[l.pos+2 : l.pos+6] {
			if !isHex(h) {
				return l.syntax(what, "invalid \\u escape in a string")
			}
		}
		l.pos += 6
		return nil
	}
	return l.syntax(what, fmt.Sprintf("invalid escape \\%c in a string", l.buf[l.pos+1]))
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// number reads a JSON number and returns its text.
func (l *lexer) number(what string) (string, error) {
	l.scratch = l.scratch[:0]
	next := func() (byte, bool) {
		if l.pos >= len(l.buf) && !l.fill() {
			return 0, false
		}
		return l.buf[l.pos], true
	}
	take := func() { l.scratch = append(l.scratch, l.buf[l.pos]); l.pos++ }
	digits := func() (int, error) {
		n := 0
		for {
			c, ok := next()
			if !ok || c < '0' || c > '9' {
				if !ok && l.rerr != nil {
					return n, l.rerr
				}
				return n, nil
			}
			take()
			n++
		}
	}
	if _, ok := l.peek(); !ok {
		return "", l.truncated(what)
	}
	if c, _ := next(); c == '-' {
		take()
	}
	c, ok := next()
	if !ok {
		return "", l.truncated(what)
	}
	switch {
	case c == '0':
		take()
	case c >= '1' && c <= '9':
		if _, err := digits(); err != nil {
			return "", err
		}
	default:
		return "", l.syntax(what, fmt.Sprintf("found %s in a number", charDesc(c)))
	}
	if c, ok := next(); ok && c == '.' {
		take()
		n, err := digits()
		if err != nil {
			return "", err
		}
		if n == 0 {
			if _, ok := next(); !ok {
				return "", l.truncated(what)
			}
			return "", l.syntax(what, "a number needs digits after '.'")
		}
	}
	if c, ok := next(); ok && (c == 'e' || c == 'E') {
		take()
		if c, ok := next(); ok && (c == '+' || c == '-') {
			take()
		}
		n, err := digits()
		if err != nil {
			return "", err
		}
		if n == 0 {
			if _, ok := next(); !ok {
				return "", l.truncated(what)
			}
			return "", l.syntax(what, "a number needs digits in its exponent")
		}
	}
	return string(l.scratch), nil
}

// skip consumes any one value, validating it, without keeping it.
func (l *lexer) skip(what string, depth int) error {
	c, ok := l.peek()
	if !ok {
		return l.truncated(what)
	}
	switch c {
	case '{':
		return l.object(what, depth+1, func(string) error { return l.skip(what, depth+1) })
	case '[':
		return l.array(what, depth+1, func(int) error { return l.skip(what, depth+1) })
	case '"':
		_, _, err := l.scanString(what, false)
		return err
	case 't':
		return l.literal("true", what)
	case 'f':
		return l.literal("false", what)
	case 'n':
		return l.literal("null", what)
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		_, err := l.number(what)
		return err
	}
	return l.syntax(what, fmt.Sprintf("found %s, want a JSON value", charDesc(c)))
}
