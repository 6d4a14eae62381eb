package fly

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
)

// flyctl keeps the token of `fly auth login` in config.yml of its config
// directory: $FLY_CONFIG_DIR, else ~/.fly (flyctl helpers.GetConfigDirectory
// and internal/config FileName, AccessTokenFileKey).
const (
	flyConfigDirEnv   = "FLY_CONFIG_DIR"
	flyConfigFile     = "config.yml"
	flyAccessTokenKey = "access_token"
)

// flyConfigPath is where flyctl keeps its config file: config.yml in
// $FLY_CONFIG_DIR, else in ~/.fly. home is os.UserHomeDir in production.
func flyConfigPath(getenv func(string) string, home func() (string, error)) (string, error) {
	if dir := getenv(flyConfigDirEnv); dir != "" {
		return filepath.Join(dir, flyConfigFile), nil
	}
	h, err := home()
	if err != nil {
		return "", fmt.Errorf("cannot find the home directory for ~/.fly/%s: %w", flyConfigFile, err)
	}
	return filepath.Join(h, ".fly", flyConfigFile), nil
}

// flyConfigToken reads the access_token flyctl saved at path. A missing
// file, or one without the key or with an empty value (as `fly auth logout`
// leaves it), is no token and no error. An unreadable file, or one this
// reader cannot parse, is an error naming the file and the line, never
// showing the file's contents. exists says whether there is a file.
func flyConfigToken(path string) (token string, exists bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", true, fmt.Errorf("cannot read %s: %w", path, unwrapPathError(err))
	}
	token, err = parseAccessToken(data)
	if err != nil {
		return "", true, fmt.Errorf("cannot read the %s of %s: %w", flyAccessTokenKey, path, err)
	}
	return token, true, nil
}

// unwrapPathError drops the path from an *fs.PathError, which the message
// around it names already.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// parseAccessToken finds the top-level access_token of a flyctl config.yml
// without a YAML library: flyctl writes a block mapping of plain keys, the
// token as a one-line scalar (plain, 'single' or "double" quoted). It is
// strict: anything else on the access_token line, a multi-line value, a
// second access_token, or a top-level line that is not `key: value` is an
// error naming the line number, not its text (which may be a secret).
func parseAccessToken(data []byte) (string, error) {
	if !utf8.Valid(data) {
		return "", errors.New("the file is not UTF-8 text")
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	var (
		token   string
		found   bool
		pending bool // the line before held access_token's value
	)
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), " \t\r")
		trimmed := strings.TrimLeft(line, " \t")
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		// A nested line is indented, or a sequence entry ("- x"), which
		// YAML allows at the key's own indentation.
		nested := len(trimmed) < len(line) || line == "-" || strings.HasPrefix(line, "- ")
		if nested {
			if pending {
				return "", fmt.Errorf("line %d continues the value over several lines, which is not supported; "+
					"run `fly auth login` again to rewrite it", n)
			}
			continue // nested under another key
		}
		pending = false
		if line == "---" || line == "..." {
			continue
		}
		key, rest, ok := strings.Cut(line, ":")
		if !ok || key == "" || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
			return "", fmt.Errorf("line %d is not a `key: value` line", n)
		}
		if key != flyAccessTokenKey {
			continue
		}
		if found {
			return "", fmt.Errorf("line %d sets %s a second time", n, flyAccessTokenKey)
		}
		found = true
		v, err := yamlScalar(strings.TrimSpace(rest))
		if err != nil {
			return "", fmt.Errorf("line %d: %w", n, err)
		}
		token, pending = v, true
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return token, nil
}

// yamlScalar is the value of a one-line YAML scalar: plain (up to a
// comment), 'single' or "double" quoted; empty and null are "".
func yamlScalar(v string) (string, error) {
	switch {
	case v == "", v == "~", v == "null", v == "Null", v == "NULL":
		return "", nil
	case v[0] == '"':
		end := closingDoubleQuote(v)
		if end < 0 || !onlyComment(v[end+1:]) {
			return "", errors.New("the double-quoted value does not end on its line")
		}
		s, err := strconv.Unquote(v[:end+1])
		if err != nil {
			return "", errors.New("the double-quoted value has an escape this reader does not know")
		}
		return s, nil
	case v[0] == '\'':
		var b strings.Builder
		for i := 1; i < len(v); i++ {
			if v[i] != '\'' {
				b.WriteByte(v[i])
				continue
			}
			if i+1 < len(v) && v[i+1] == '\'' {
				b.WriteByte('\'')
				i++
				continue
			}
			if !onlyComment(v[i+1:]) {
				break
			}
			return b.String(), nil
		}
		return "", errors.New("the single-quoted value does not end on its line")
	case strings.ContainsRune("|>&*!%@`{[", rune(v[0])):
		return "", errors.New("the value is not a plain or quoted string (block scalar, anchor, alias, tag or flow collection)")
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = v[:i]
	}
	if i := strings.Index(v, "\t#"); i >= 0 {
		v = v[:i]
	}
	return strings.TrimSpace(v), nil
}

// closingDoubleQuote is the index of the quote that closes the
// double-quoted scalar starting at v[0], or -1.
func closingDoubleQuote(v string) int {
	for i := 1; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// onlyComment: what follows a quoted scalar is nothing, or a comment
// after a space.
func onlyComment(s string) bool {
	t := strings.TrimLeft(s, " \t")
	return t == "" || (t[0] == '#' && len(t) < len(s))
}
