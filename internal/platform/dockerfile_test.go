package platform

import (
	"strings"
	"testing"
)

func TestDockerfileFromLine(t *testing.T) {
	for content, want := range map[string]int{
		"RUN true\nENV A=1\n":                0,
		"FROM alpine\nRUN true\n":            1,
		"# base\n\nrun true\nfrom\talpine\n": 4,
		"RUN echo \\\n  FROM x\nENV A=1\n":   0,
		"RUN echo \\\n# note\n  from x\n":    0,
		"RUN true\n  From alpine AS build\n": 2,
		"":                                   0,
		"RUN echo FROM\n# FROM alpine\n":     0,
	} {
		if got := DockerfileFromLine(content); got != want {
			t.Errorf("DockerfileFromLine(%q) = %d, want %d", content, got, want)
		}
	}
}

func TestDockerfileBaseProblem(t *testing.T) {
	tests := []struct {
		name, content, want string // want: a phrase of the problem, "" for none
	}{
		{name: "FROM first", content: "FROM alpine:3.21\nRUN true\n"},
		{name: "ARG before FROM", content: "ARG V=3.21\nFROM alpine:$V\n"},
		{name: "comments and blank lines first", content: "# base\n\nFROM alpine\n"},
		{name: "RUN before FROM", content: "RUN echo hi\nFROM alpine:3.20\n", want: "line 1: RUN comes before FROM"},
		{name: "a continued line before FROM", content: "ENV A=1 \\\n  B=2\nFROM alpine\n", want: "line 1: ENV comes before FROM"},
		{name: "no FROM", content: "RUN true\n", want: "line 1: RUN comes before FROM"},
		{name: "only comments", content: "# nothing\n", want: "has no FROM line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := DockerfileBaseProblem(tt.content)
			if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
				t.Errorf("DockerfileBaseProblem = %q, want %q", got, tt.want)
			}
		})
	}
}
