package buildctx

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// ignoreFile is read from the root of a context, as Docker does.
const ignoreFile = ".dockerignore"

// ignoreRule is one line of a .dockerignore.
type ignoreRule struct {
	re     *regexp.Regexp
	negate bool // "!pattern": bring back what an earlier line excluded
}

// ignoreRules is a parsed .dockerignore. The supported syntax is a subset of
// Docker's: one pattern per line, "#" comments, "!" exceptions, "*" and "?"
// within one path segment, "**" across segments, "[...]" classes and "\"
// escapes. A pattern that matches a directory excludes everything below it.
// The last matching line wins. The .dockerignore file itself is always kept,
// because it changes what the build sees.
type ignoreRules []ignoreRule

func readIgnore(dir string) (ignoreRules, error) {
	f, err := os.Open(filepath.Join(dir, ignoreFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("build context %q: %w", dir, err)
	}
	// Opened read-only: a close error cannot lose data.
	defer func() { _ = f.Close() }()
	return parseIgnore(f.Name(), bufio.NewScanner(f))
}

func parseIgnore(name string, sc *bufio.Scanner) (ignoreRules, error) {
	var rules ignoreRules
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		negate := strings.HasPrefix(line, "!")
		if negate {
			line = strings.TrimSpace(line[1:])
		}
		pattern := path.Clean(strings.TrimPrefix(filepath.ToSlash(line), "/"))
		re, err := regexp.Compile(patternRegexp(pattern))
		if err != nil {
			return nil, fmt.Errorf("%s line %d: bad pattern %q: %w", name, n, line, err)
		}
		rules = append(rules, ignoreRule{re: re, negate: negate})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return rules, nil
}

// patternRegexp translates a .dockerignore pattern into an anchored regular
// expression over slash-separated paths.
func patternRegexp(p string) string {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '*' && i+1 < len(p) && p[i+1] == '*':
			i++
			if i+1 < len(p) && p[i+1] == '/' {
				i++
				b.WriteString("(.*/)?") // "**/" also matches no directory at all
			} else {
				b.WriteString(".*")
			}
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			end := strings.IndexByte(p[i:], ']')
			if end < 0 {
				b.WriteString(`\[`)
				continue
			}
			b.WriteString(p[i : i+end+1])
			i += end
		case c == '\\' && i+1 < len(p):
			i++
			b.WriteString(regexp.QuoteMeta(string(p[i])))
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	return b.String()
}

// excluded reports whether rel (slash-separated) is left out of the context:
// the last rule matching rel or one of its parent directories decides.
func (rs ignoreRules) excluded(rel string) bool {
	if rel == ignoreFile {
		return false
	}
	out := false
	for _, r := range rs {
		if r.matches(rel) {
			out = !r.negate
		}
	}
	return out
}

func (r ignoreRule) matches(rel string) bool {
	for p := rel; ; {
		if r.re.MatchString(p) {
			return true
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return false
		}
		p = p[:i]
	}
}

func (rs ignoreRules) hasExceptions() bool {
	for _, r := range rs {
		if r.negate {
			return true
		}
	}
	return false
}
