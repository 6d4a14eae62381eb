package dockerfile

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// got is the part of an instruction a case checks.
type got struct {
	Line, EndLine int
	Keyword, Args string
	JSON          bool
	Flags         []Flag
	Heredocs      []Heredoc
}

func summary(f *File) []got {
	var out []got
	for _, in := range f.Instructions {
		out = append(out, got{in.Line, in.EndLine, in.Keyword, in.Args, in.JSON, in.Flags, in.Heredocs})
	}
	return out
}

// TestParse: the cases are BuildKit's rules; the first three are where the
// splitters this package replaced disagreed (a blank line inside a
// continuation, a heredoc body, the escape directive).
func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		escape  rune // 0: the backslash
		want    []got
		direcs  []Directive
		dangles []int
	}{
		{name: "a blank line inside a continuation continues it",
			in:   "FROM alpine\nRUN a \\\n\n   \n  b\nENV X=1\n",
			want: []got{{1, 1, "FROM", "alpine", false, nil, nil}, {2, 5, "RUN", "a   b", false, nil, nil}, {6, 6, "ENV", "X=1", false, nil, nil}}},
		{name: "a heredoc body is no instruction",
			in: "FROM alpine\nRUN <<EOF\nFROM evil\n# not a comment\nEOF\nENV A=1\n",
			want: []got{{1, 1, "FROM", "alpine", false, nil, nil},
				{2, 5, "RUN", "<<EOF", false, nil, []Heredoc{{Name: "EOF", Content: "FROM evil\n# not a comment\n"}}},
				{6, 6, "ENV", "A=1", false, nil, nil}}},
		{name: "the escape directive makes the backtick continue lines",
			in:     "# escape=`\nFROM mcr.microsoft.com/windows\nRUN dir `\n  C:\\ \nCOPY a\\ b\\\n",
			escape: '`', direcs: []Directive{{1, "escape", "`"}},
			want: []got{{2, 2, "FROM", "mcr.microsoft.com/windows", false, nil, nil}, {3, 4, "RUN", "dir   C:\\", false, nil, nil},
				{5, 5, "COPY", `a\ b\`, false, nil, nil}}},
		{name: "a comment inside a continuation is skipped",
			in:   "RUN a \\\n  # note \\\n  && b\n",
			want: []got{{1, 3, "RUN", "a   && b", false, nil, nil}}},
		{name: "keywords are case-insensitive, leading blanks dropped",
			in:   "  from\talpine AS base\n\trun true\n",
			want: []got{{1, 1, "FROM", "alpine AS base", false, nil, nil}, {2, 2, "RUN", "true", false, nil, nil}}},
		{name: "directives only at the top: after a comment it is a comment",
			in:   "# base image\n# escape=`\nRUN a \\\n b\n",
			want: []got{{3, 4, "RUN", "a  b", false, nil, nil}}},
		{name: "a blank line ends the directives",
			in:   "\n# escape=`\nRUN a `\nRUN b\n",
			want: []got{{3, 3, "RUN", "a `", false, nil, nil}, {4, 4, "RUN", "b", false, nil, nil}}},
		{name: "syntax and escape directives, names in any case",
			in:     "# syntax=docker/dockerfile:1.7\n#ESCAPE = \\\n# check=skip=all\nFROM alpine\n",
			direcs: []Directive{{1, "syntax", "docker/dockerfile:1.7"}, {2, "escape", `\`}, {3, "check", "skip=all"}},
			want:   []got{{4, 4, "FROM", "alpine", false, nil, nil}}},
		{name: "an unknown directive name is a comment and ends the directives",
			in:   "# foo=bar\n# escape=`\nRUN a \\\n b\n",
			want: []got{{3, 4, "RUN", "a  b", false, nil, nil}}},
		{name: "JSON and shell form",
			in: "CMD [\"a\", \"b c\"]\nRUN [ not json\nENV [\"x\"]\nENTRYPOINT []\n",
			want: []got{{1, 1, "CMD", `["a", "b c"]`, true, nil, nil}, {2, 2, "RUN", "[ not json", false, nil, nil},
				{3, 3, "ENV", `["x"]`, false, nil, nil}, {4, 4, "ENTRYPOINT", "[]", true, nil, nil}}},
		{name: "flags with quotes and escapes, -- ends them",
			in: "COPY --from=build --chown=\"a b\" --chmod=0\\755 x /y\nRUN -- --not-a-flag\n",
			want: []got{{1, 1, "COPY", "x /y", false, []Flag{{"from", "build"}, {"chown", "a b"}, {"chmod", "0755"}}, nil},
				{2, 2, "RUN", "--not-a-flag", false, nil, nil}}},
		{name: "heredoc forms",
			in: "RUN <<-EOT cat\n\tx\n\tEOT\nCOPY <<A <<'B' /dest/\na\nA\nb\nB\nRUN cat<<EOF\nRUN cat <<<here\nRUN << SP\nsp\nSP\nRUN 3<<\"Q\"\nq\nQ\nRUN [\"sh\", \"<<EOF\"]\n",
			want: []got{{1, 3, "RUN", "<<-EOT cat", false, nil, []Heredoc{{Name: "EOT", Chomp: true, Content: "\tx\n"}}},
				{4, 8, "COPY", "<<A <<'B' /dest/", false, nil, []Heredoc{{Name: "A", Content: "a\n"}, {Name: "B", Content: "b\n"}}},
				{9, 9, "RUN", "cat<<EOF", false, nil, nil},
				{10, 10, "RUN", "cat <<<here", false, nil, nil},
				{11, 13, "RUN", "<< SP", false, nil, []Heredoc{{Name: "SP", Content: "sp\n"}}},
				{14, 16, "RUN", `3<<"Q"`, false, nil, []Heredoc{{Name: "Q", Content: "q\n"}}},
				{17, 17, "RUN", `["sh", "<<EOF"]`, true, nil, nil}}},
		{name: "heredocs of an ONBUILD trigger, none in other instructions",
			in: "ONBUILD RUN <<EOF\nx\nEOF\nUSER <<U\nU\n",
			want: []got{{1, 3, "ONBUILD", "RUN <<EOF", false, nil, []Heredoc{{Name: "EOF", Content: "x\n"}}},
				{4, 4, "USER", "<<U", false, nil, nil}, {5, 5, "U", "", false, nil, nil}}},
		{name: "a heredoc marker after a continuation",
			in:   "RUN --mount=type=cache,target=/c \\\n  <<EOF\nx\nEOF\n",
			want: []got{{1, 4, "RUN", "<<EOF", false, []Flag{{"mount", "type=cache,target=/c"}}, []Heredoc{{Name: "EOF", Content: "x\n"}}}}},
		{name: "CRLF line ends and a byte-order mark",
			in:   "\uFEFFFROM alpine\r\nRUN a \\\r\n  b\r\n",
			want: []got{{1, 1, "FROM", "alpine", false, nil, nil}, {2, 3, "RUN", "a   b", false, nil, nil}}},
		{name: "an escaped escape character continues nothing",
			in:   "RUN echo \\\\\nRUN b\n",
			want: []got{{1, 1, "RUN", `echo \\`, false, nil, nil}, {2, 2, "RUN", "b", false, nil, nil}}},
		{name: "the file ends inside a continuation",
			in:   "FROM alpine\nRUN a \\\n  b \\\n\n# c\n",
			want: []got{{1, 1, "FROM", "alpine", false, nil, nil}, {2, 5, "RUN", "a   b", false, nil, nil}}, dangles: []int{2, 3}},
		{name: "nothing but comments", in: "# a\n\n# b\n"},
		{name: "empty", in: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := summary(f); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("instructions\n got %+v\nwant %+v", got, tt.want)
			}
			escape := tt.escape
			if escape == 0 {
				escape = '\\'
			}
			if f.Escape != escape {
				t.Errorf("escape %q, want %q", f.Escape, escape)
			}
			if !reflect.DeepEqual(f.Directives, tt.direcs) {
				t.Errorf("directives %+v, want %+v", f.Directives, tt.direcs)
			}
			if !reflect.DeepEqual(f.dangling, tt.dangles) {
				t.Errorf("the file ends in the continuation of lines %v, want %v", f.dangling, tt.dangles)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in string
		line     int
		reason   string
	}{
		{"a directive twice", "# escape=`\n# escape=\\\nFROM a\n", 2, "only one escape parser directive"},
		{"an escape that is neither", "# escape=|\nFROM a\n", 1, "invalid escape token '|'"},
		{"an unterminated heredoc", "FROM a\nRUN <<EOF\necho\n", 2, "unterminated heredoc EOF"},
		{"heredocs read in order", "COPY <<X <<Y /d\nY\nX\n", 1, "unterminated heredoc Y"},
		{"a JSON array of numbers", "FROM a\nRUN [1, 2]\n", 2, "RUN: when using JSON array syntax, arrays must be comprised of strings only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.in)
			var e *Error
			if !errors.As(err, &e) || e.Line != tt.line || !strings.Contains(e.Reason, tt.reason) {
				t.Fatalf("err %v, want line %d: %q", err, tt.line, tt.reason)
			}
			if !strings.HasPrefix(err.Error(), "dockerfile line ") {
				t.Errorf("%q does not name the line", err)
			}
		})
	}
}

func TestInstructionParts(t *testing.T) {
	f, err := Parse("FROM --platform=linux/amd64 \\\n  alpine:3.21 AS base\nRUN [\"echo\", \"a b\"]\n# c\nCOPY --chown=1 x y\n")
	if err != nil {
		t.Fatal(err)
	}
	from, run, cp := f.Instructions[0], f.Instructions[1], f.Instructions[2]
	if from.Rest() != "--platform=linux/amd64   alpine:3.21 AS base" {
		t.Errorf("Rest %q", from.Rest())
	}
	if from.Original != "FROM --platform=linux/amd64 \\\n  alpine:3.21 AS base" {
		t.Errorf("Original %q", from.Original)
	}
	if v, ok := from.Flag("platform"); !ok || v != "linux/amd64" {
		t.Errorf("Flag(platform) = %q, %v", v, ok)
	}
	if _, ok := cp.Flag("from"); ok {
		t.Error("COPY has no --from")
	}
	if !reflect.DeepEqual(run.Argv(), []string{"echo", "a b"}) || cp.Argv() != nil {
		t.Errorf("Argv %q %q", run.Argv(), cp.Argv())
	}
}

func TestIsHeredoc(t *testing.T) {
	for word, want := range map[string]bool{
		"<<EOF": true, "<<-EOF": true, `<<"EOF"`: true, "2<<EOF": true, "<< EOF": true,
		"<<": false, "<<<EOF": false, "a<<EOF": false, `"<<EOF"`: false, "file.txt": false, "<<a b": false,
	} {
		if got := IsHeredoc(word); got != want {
			t.Errorf("IsHeredoc(%q) = %v, want %v", word, got, want)
		}
	}
}

func TestFromLineAndBaseProblem(t *testing.T) {
	tests := []struct {
		in      string
		from    int
		problem string // a phrase of it, "" for none
	}{
		{in: "FROM alpine\nRUN true\n", from: 1},
		{in: "ARG V=3\n# c\n\nfrom\talpine:$V\n", from: 4},
		{in: "RUN echo \\\n  FROM x\nENV A=1\n", problem: "line 1: RUN comes before FROM"},
		{in: "RUN <<EOF\nFROM x\nEOF\nFROM y\n", from: 4, problem: "line 1: RUN comes before FROM"},
		{in: "# escape=`\nENV A=1 `\n  B=2\nFROM alpine\n", from: 4, problem: "line 2: ENV comes before FROM"},
		{in: "# nothing\n", problem: "has no FROM line"},
	}
	for _, tt := range tests {
		f, err := Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.FromLine(); got != tt.from {
			t.Errorf("FromLine(%q) = %d, want %d", tt.in, got, tt.from)
		}
		if got := f.BaseProblem(); tt.problem == "" && got != "" || !strings.Contains(got, tt.problem) {
			t.Errorf("BaseProblem(%q) = %q, want %q", tt.in, got, tt.problem)
		}
	}
}

func TestAppend(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"after a line break", "FROM a\n", "FROM a\nLABEL x=1\n"},
		{"without one", "FROM a", "FROM a\nLABEL x=1\n"},
		{"empty", "", "LABEL x=1\n"},
		{"a dangling continuation is ended", "FROM a\nRUN b \\\n\n", "FROM a\nRUN b \n\nLABEL x=1\n"},
		{"with the backtick", "# escape=`\nFROM a\nRUN b `\n# c\n", "# escape=`\nFROM a\nRUN b \n# c\nLABEL x=1\n"},
		{"CRLF", "FROM a\r\nRUN b \\\r\n", "FROM a\r\nRUN b \r\nLABEL x=1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Append(tt.in, "LABEL x=1"); got != tt.want {
				t.Errorf("Append = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestInsertFirst(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "RUN a\n", "FROM base\nRUN a\n"},
		{"below the directives", "# syntax=docker/dockerfile:1\n# escape=`\n# c\nRUN a `\n b\n",
			"# syntax=docker/dockerfile:1\n# escape=`\nFROM base\n# c\nRUN a `\n b\n"},
		{"a directive without a line break", "# escape=`", "# escape=`\nFROM base\n"},
		{"after a byte-order mark", "\uFEFFRUN a\n", "\uFEFFFROM base\nRUN a\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := InsertFirst(tt.in, "FROM base"); got != tt.want {
				t.Errorf("InsertFirst = %q, want %q", got, tt.want)
			}
		})
	}
}
