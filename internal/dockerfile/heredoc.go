package dockerfile

import (
	"regexp"
	"strings"
	"unicode"
)

// heredocWord is a heredoc marker word: an optional file descriptor, "<<",
// an optional "-", blanks, the terminator (parser.go reHeredoc).
var heredocWord = regexp.MustCompile(`^(\d*)<<(-?)\s*([^<]*)$`)

// IsHeredoc reports whether word (one word of an instruction, as written)
// is a heredoc marker such as <<EOF, <<-"EOF" or 3<<EOF.
func IsHeredoc(word string) bool {
	_, ok := heredocOf(word)
	return ok
}

// heredocOf reads a marker word: the terminator is the rest as one shell
// word, quotes removed.
func heredocOf(word string) (Heredoc, bool) {
	m := heredocWord.FindStringSubmatch(word)
	if m == nil || m[3] == "" {
		return Heredoc{}, false
	}
	words, ok := shellWords(m[3], false)
	if !ok || len(words) != 1 {
		return Heredoc{}, false
	}
	return Heredoc{Name: words[0], Chomp: m[2] == "-"}, true
}

// heredocMarkers finds the heredoc markers of a logical line, in order
// (parser.go heredocsFromLine). A line the shell lexer cannot split (an
// unterminated quote) has none.
func heredocMarkers(logical string) []Heredoc {
	words, ok := shellWords(logical, true)
	if !ok {
		return nil
	}
	var out []Heredoc
	for _, w := range words {
		if h, ok := heredocOf(w); ok {
			out = append(out, h)
		}
	}
	return out
}

// heredocBody reads the body of h from line index from on, up to its
// terminator line (leading tabs removed first for <<-). It returns the
// body and the index of the terminator line.
func heredocBody(lines []line, from int, h Heredoc) (string, int, bool) {
	var body strings.Builder
	for i := from; i < len(lines); i++ {
		t := trimNewline(lines[i].text)
		if h.Chomp {
			t = strings.TrimLeft(t, "\t")
		}
		if t == h.Name {
			return body.String(), i, true
		}
		body.WriteString(lines[i].text)
	}
	return "", len(lines) - 1, false
}

// shellWords splits s into words as BuildKit's shell lexer does for
// heredoc detection (shell/lex.go ProcessWords; always the backslash, as
// heredocsFromLine makes its lexer): blanks separate words, quotes group,
// a backslash escapes the next character, and "<<" keeps the blanks after
// it in its word. raw keeps quotes and backslashes in the words. An
// unterminated quote fails. Variables are left as written: the lexer
// expands none here (no environment, unset variables skipped).
func shellWords(s string, raw bool) ([]string, bool) {
	var words []string
	var cur strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		ch := rs[i]
		switch {
		case ch == '\'' || ch == '"':
			end := closingQuote(rs, i)
			if end < 0 {
				return nil, false
			}
			if raw {
				cur.WriteString(string(rs[i : end+1]))
			} else {
				cur.WriteString(unquote(rs[i+1:end], ch))
			}
			inWord, i = true, end
		case ch == '<' && i+1 < len(rs) && rs[i+1] == '<':
			cur.WriteString("<<")
			i++
			for i+1 < len(rs) && isBlank(rs[i+1]) {
				i++
				cur.WriteRune(rs[i])
			}
			inWord = true
		case ch == '\\':
			if raw {
				cur.WriteRune(ch)
			}
			if i+1 == len(rs) {
				continue
			}
			i++
			cur.WriteRune(rs[i])
			inWord = true
		case unicode.IsSpace(ch):
			flush()
		default:
			cur.WriteRune(ch)
			inWord = true
		}
	}
	flush()
	return words, true
}

// isBlank is the lexer's isWhitespace: a blank or a tab.
func isBlank(r rune) bool { return r == ' ' || r == '\t' }

// closingQuote is the index of the quote closing the one at open, -1 when
// there is none. Inside double quotes a backslash escapes the next
// character; inside single quotes nothing is escaped.
func closingQuote(rs []rune, open int) int {
	q := rs[open]
	for i := open + 1; i < len(rs); i++ {
		switch {
		case rs[i] == q:
			return i
		case q == '"' && rs[i] == '\\' && i+1 < len(rs):
			i++
		}
	}
	return -1
}

// unquote is the content of a quoted part: in double quotes a backslash
// before ", $ or \ is dropped.
func unquote(body []rune, q rune) string {
	if q == '\'' {
		return string(body)
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		if body[i] == '\\' && i+1 < len(body) && strings.ContainsRune(`"$\`, body[i+1]) {
			i++
		}
		b.WriteRune(body[i])
	}
	return b.String()
}
