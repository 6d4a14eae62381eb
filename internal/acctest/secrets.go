package acctest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Secret is a fresh secret whose characters are all different, so Without
// can build a pattern for "any text without it". Tests give it as a
// sensitive value and check it is shown nowhere.
func Secret() string {
	const chars = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	b := make([]byte, 20)
	for i, p := range rand.Perm(len(chars))[:len(b)] {
		b[i] = chars[p]
	}
	return string(b)
}

// Without is a pattern that matches a whole text exactly when secret does
// not occur in it, for a step's ExpectError: ExpectError has only a regexp,
// and RE2 has no negative lookahead. It follows the automaton that reads
// the text and tracks how much of secret it has just seen, which (secret's
// characters all differing) falls back to 0 or, on secret's first
// character, to 1; the pattern is every path that never completes secret.
func Without(secret string) *regexp.Regexp {
	rs := []rune(secret)
	for i, r := range rs {
		if strings.ContainsRune(string(rs[i+1:]), r) {
			panic("Without needs a secret whose characters all differ")
		}
	}
	if len(rs) < 2 {
		panic("Without needs a secret of two characters or more")
	}
	lit := func(r []rune) string { return regexp.QuoteMeta(string(r)) }
	not := func(r ...rune) string {
		var b strings.Builder
		b.WriteString("[^")
		for _, c := range r {
			fmt.Fprintf(&b, `\x{%x}`, c)
		}
		b.WriteString("]")
		return b.String()
	}
	s0 := lit(rs[:1])
	var back, out, tail []string // from "s0 seen plus j more": back to 1, out to 0, or end
	for j := 0; j+1 < len(rs); j++ {
		seen := lit(rs[1 : 1+j])
		back = append(back, seen+s0)
		out = append(out, seen+not(rs[1+j], rs[0]))
		tail = append(tail, seen)
	}
	one := s0 + "(?:" + strings.Join(back, "|") + ")*" // at 1, after any returns to 1
	seg := "(?:" + not(rs[0]) + "|" + one + "(?:" + strings.Join(out, "|") + "))"
	return regexp.MustCompile(`(?s)\A` + seg + "*(?:" + one + "(?:" + strings.Join(tail, "|") + "))?\\z")
}

// TraceLog turns on Terraform's and the provider's trace logs into a file
// of the test's and returns its path.
func TraceLog(t *testing.T) string {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), "terraform.log")
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_ACC_LOG_PATH", logPath)
	return logPath
}

// CheckTraceLog proves the trace log at logPath was written, holds what
// the test expects there (mustHave: the diagnostic naming the variable),
// and nowhere the secret.
func CheckTraceLog(t *testing.T, logPath, secret string, mustHave ...string) {
	t.Helper()
	logs, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatalf("reading the trace log: %v", err)
	}
	for _, w := range mustHave {
		if !bytes.Contains(logs, []byte(w)) {
			t.Errorf("the trace log (%d bytes) does not contain %q: the check proves nothing", len(logs), w)
		}
	}
	if i := bytes.Index(logs, []byte(secret)); i >= 0 {
		line := logs[bytes.LastIndexByte(logs[:i], '\n')+1:]
		if j := bytes.IndexByte(line, '\n'); j >= 0 {
			line = line[:j]
		}
		t.Errorf("the secret value is in the trace log:\n%.600s", line)
	}
}
