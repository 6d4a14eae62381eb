package dockerfile

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzParse checks what holds for any input: Parse does not panic; the
// instructions come in order, each within the file, its Original taken
// from it; and the two edits keep what was there (Append adds one
// instruction at the end, InsertFirst one at the start, the directives
// and every other instruction unchanged). The seeds are the cases where
// the splitters this package replaced disagreed, and BuildKit's corners.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"FROM alpine\nRUN a \\\n\n  b\nENV X=1\n",
		"FROM alpine\nRUN <<EOF\nFROM evil\nEOF\n",
		"# escape=`\nFROM a\nRUN dir `\n  C:\\\n",
		"# syntax=docker/dockerfile:1\n\n# escape=`\nRUN a `\n",
		"RUN a \\\n# c \\\n  b \\",
		"COPY <<A <<-'B' /d/\na\nA\n\tb\n\tB\n",
		"ONBUILD RUN <<X\nx\nX\n",
		"\uFEFFfrom a\r\nrun [\"a\"]\r\n",
		"RUN --mount=type=secret,id=\"a b\" -- x\n",
		"CMD [1]\n",
		"RUN \"<<EOF\"\nRUN cat <<<x\n",
		"\\\n\\\n",
		"# escape=`\n`\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, content string) {
		file, err := Parse(content)
		if err != nil {
			return
		}
		lines := strings.Count(content, "\n") + 1
		prev := 0
		for _, in := range file.Instructions {
			if in.Line <= prev || in.EndLine < in.Line || in.EndLine > lines {
				t.Fatalf("instruction %+v after line %d of %d", in, prev, lines)
			}
			prev = in.EndLine
			if in.Keyword != strings.ToUpper(in.Keyword) {
				t.Fatalf("keyword %q is not upper case", in.Keyword)
			}
			if !strings.Contains(content, in.Original) {
				t.Fatalf("Original %q is not in the file", in.Original)
			}
		}
		if strings.ContainsAny(content, "\r\v\f") {
			return // the edits below write plain lines
		}
		for _, tc := range []struct {
			name  string
			edit  func(string, string) string
			first bool
		}{{"Append", Append, false}, {"InsertFirst", InsertFirst, true}} {
			edited, err := Parse(tc.edit(content, "LABEL sbx=1"))
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if !reflect.DeepEqual(edited.Directives, file.Directives) || edited.Escape != file.Escape {
				t.Fatalf("%s changed the directives: %+v, was %+v", tc.name, edited.Directives, file.Directives)
			}
			was, now := keywordsAndArgs(file), keywordsAndArgs(edited)
			want := append([]string{}, was...)
			if tc.first {
				want = append([]string{"LABEL sbx=1"}, want...)
			} else {
				want = append(want, "LABEL sbx=1")
			}
			if !reflect.DeepEqual(now, want) {
				t.Fatalf("%s: instructions %q, want %q", tc.name, now, want)
			}
		}
	})
}

func keywordsAndArgs(f *File) []string {
	var out []string
	for _, in := range f.Instructions {
		// Append drops escape characters at the end of a dangling
		// instruction (endContinuation); a line of nothing but them is no
		// instruction to a build.
		s := strings.TrimRight(strings.TrimSpace(in.Keyword+" "+in.Rest()), " \t\\`")
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
