package buildctx

import (
	"bufio"
	"strings"
	"testing"
)

func TestIgnoreRules(t *testing.T) {
	tests := []struct {
		name     string
		ignore   string
		excluded []string
		kept     []string
	}{
		{name: "empty", ignore: "", kept: []string{"a", "b/c"}},
		{name: "comment and blank", ignore: "# a\n\n", kept: []string{"a", "# a"}},
		{name: "plain name excludes a directory's contents", ignore: "node_modules",
			excluded: []string{"node_modules", "node_modules/x/y"}, kept: []string{"src/node_modules", "node_modules2"}},
		{name: "star stays in one segment", ignore: "*.log",
			excluded: []string{"a.log"}, kept: []string{"dir/a.log", "a.logx"}},
		{name: "double star crosses segments", ignore: "**/*.log",
			excluded: []string{"a.log", "dir/a.log", "x/y/z.log"}, kept: []string{"a.txt"}},
		{name: "question mark", ignore: "file?", excluded: []string{"file1"}, kept: []string{"file", "file12"}},
		{name: "class", ignore: "v[0-9]", excluded: []string{"v1"}, kept: []string{"va"}},
		{name: "leading slash and dot-dot cleaned", ignore: "/tmp/../build", excluded: []string{"build/out"}, kept: []string{"tmp"}},
		{name: "exception after exclusion", ignore: "*.md\n!README.md",
			excluded: []string{"CHANGES.md"}, kept: []string{"README.md"}},
		{name: "last match wins", ignore: "!README.md\n*.md", excluded: []string{"README.md"}},
		{name: "the ignore file itself is kept", ignore: ".*", excluded: []string{".git"}, kept: []string{".dockerignore"}},
		{name: "escape", ignore: `\*`, excluded: []string{"*"}, kept: []string{"a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules, err := parseIgnore(".dockerignore", bufio.NewScanner(strings.NewReader(tt.ignore)))
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range tt.excluded {
				if !rules.excluded(p) {
					t.Errorf("%q kept, want excluded", p)
				}
			}
			for _, p := range tt.kept {
				if rules.excluded(p) {
					t.Errorf("%q excluded, want kept", p)
				}
			}
		})
	}
}
