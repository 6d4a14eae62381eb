package platform

import "testing"

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
