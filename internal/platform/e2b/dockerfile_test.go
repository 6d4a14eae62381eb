package e2b

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestTranslateDockerfile(t *testing.T) {
	pre := []templateStep{{Type: stepUser, Args: []string{"root"}}, {Type: stepWorkdir, Args: []string{"/"}}}
	post := []templateStep{{Type: stepUser, Args: []string{"user"}}, {Type: stepWorkdir, Args: []string{"/home/user"}}}
	wrap := func(steps ...templateStep) []templateStep {
		out := append([]templateStep{}, pre...)
		out = append(out, steps...)
		return append(out, post...)
	}
	tests := []struct {
		name     string
		in       string
		image    string
		steps    []templateStep
		wantCopy bool
	}{
		{name: "from only", in: "FROM ubuntu:22.04\n", image: "ubuntu:22.04", steps: wrap()},
		{name: "from as stage, lower case", in: "from python:3.12 AS base", image: "python:3.12", steps: wrap()},
		{name: "comments and blank lines", in: "# base\n\nFROM alpine\n# done\n", image: "alpine", steps: wrap()},
		{name: "run shell form", in: "FROM alpine\nRUN apk add git", image: "alpine",
			steps: wrap(templateStep{Type: stepRun, Args: []string{"apk add git"}})},
		// The lines are joined as BuildKit joins them: the continuation
		// character goes, the blanks around it stay.
		{name: "run multi-line with backslash", in: "FROM alpine\nRUN apk add \\\n    git \\\n    curl\n", image: "alpine",
			steps: wrap(templateStep{Type: stepRun, Args: []string{"apk add     git     curl"}})},
		{name: "comment inside continuation", in: "FROM alpine\nRUN a \\\n# note\n  && b\n", image: "alpine",
			steps: wrap(templateStep{Type: stepRun, Args: []string{"a   && b"}})},
		{name: "run json form", in: `FROM alpine` + "\n" + `RUN ["echo", "hello world", "it's"]`, image: "alpine",
			steps: wrap(templateStep{Type: stepRun, Args: []string{`echo 'hello world' 'it'\''s'`}})},
		{name: "copy", in: "FROM alpine\nCOPY app.py /app/", image: "alpine", wantCopy: true,
			steps: wrap(templateStep{Type: stepCopy, Args: []string{"app.py", "/app/", "", ""}})},
		{name: "copy with chown and chmod", in: "FROM alpine\nCOPY --chown=user:user --chmod=0755 run.sh /usr/local/bin/run.sh", image: "alpine", wantCopy: true,
			steps: wrap(templateStep{Type: stepCopy, Args: []string{"run.sh", "/usr/local/bin/run.sh", "user:user", "0755"}})},
		{name: "copy several sources, json form", in: `FROM alpine` + "\n" + `COPY ["a.txt", "b.txt", "/data/"]`, image: "alpine", wantCopy: true,
			steps: wrap(templateStep{Type: stepCopy, Args: []string{"a.txt", "/data/", "", ""}}, templateStep{Type: stepCopy, Args: []string{"b.txt", "/data/", "", ""}})},
		{name: "add of a local file is a copy", in: "FROM alpine\nADD conf.ini /etc/", image: "alpine", wantCopy: true,
			steps: wrap(templateStep{Type: stepCopy, Args: []string{"conf.ini", "/etc/", "", ""}})},
		{name: "env key=value pairs with quotes", in: "FROM alpine\nENV A=1 B=\"two words\" C='x'", image: "alpine",
			steps: wrap(templateStep{Type: stepEnv, Args: []string{"A", "1", "B", "two words", "C", "x"}})},
		{name: "env legacy form", in: "FROM alpine\nENV GREETING hello there", image: "alpine",
			steps: wrap(templateStep{Type: stepEnv, Args: []string{"GREETING", "hello there"}})},
		{name: "user and workdir keep their values", in: "FROM alpine\nUSER agent\nWORKDIR /work", image: "alpine",
			steps: append(append([]templateStep{}, pre...), templateStep{Type: stepUser, Args: []string{"agent"}}, templateStep{Type: stepWorkdir, Args: []string{"/work"}})},
		{name: "crlf line ends", in: "FROM alpine\r\nRUN true\r\n", image: "alpine",
			steps: wrap(templateStep{Type: stepRun, Args: []string{"true"}})},
		{name: "a blank line inside a continuation continues it", in: "FROM alpine\nRUN a \\\n\n  && b\n", image: "alpine",
			steps: wrap(templateStep{Type: stepRun, Args: []string{"a   && b"}})},
		{name: "a shell form that starts with [ is a shell command", in: "FROM alpine\nRUN [ -d /x ] || mkdir /x\n", image: "alpine",
			steps: wrap(templateStep{Type: stepRun, Args: []string{"[ -d /x ] || mkdir /x"}})},
		{name: "the escape directive's backtick continues lines and escapes in ENV", in: "# escape=`\nFROM alpine\nRUN dir `\n  C:\\\nENV P=C:\\x Q=a` b\n",
			image: "alpine", steps: wrap(templateStep{Type: stepRun, Args: []string{"dir   C:\\"}}, templateStep{Type: stepEnv, Args: []string{"P", "C:\\x", "Q", "a b"}})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := translateDockerfile(tt.in)
			if err != nil {
				t.Fatalf("translateDockerfile: %v", err)
			}
			if got.FromImage != tt.image {
				t.Errorf("FromImage = %q, want %q", got.FromImage, tt.image)
			}
			if !reflect.DeepEqual(got.Steps, tt.steps) {
				t.Errorf("steps:\n got %+v\nwant %+v", got.Steps, tt.steps)
			}
			if got.HasCopy != tt.wantCopy {
				t.Errorf("HasCopy = %v, want %v", got.HasCopy, tt.wantCopy)
			}
		})
	}
}

func TestTranslateDockerfileErrors(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		line     int
		inst     string
		contains string
	}{
		{"arg", "FROM alpine\nARG VERSION=1", 2, "ARG", "build arguments"},
		{"arg before from", "ARG V=1\nFROM alpine", 1, "ARG", "first instruction must be FROM"},
		{"expose", "FROM alpine\nRUN true\nEXPOSE 8080", 3, "EXPOSE", "expose every port"},
		{"cmd", "FROM alpine\nCMD [\"python\"]", 2, "CMD", "start_cmd"},
		{"entrypoint", "FROM alpine\nENTRYPOINT /run.sh", 2, "ENTRYPOINT", "start_cmd"},
		{"healthcheck", "FROM alpine\nHEALTHCHECK CMD curl localhost", 2, "HEALTHCHECK", "ready_cmd"},
		{"volume", "FROM alpine\nVOLUME /data", 2, "VOLUME", "sbx_volume"},
		{"shell", "FROM alpine\nSHELL [\"/bin/bash\", \"-c\"]", 2, "SHELL", "shell"},
		{"label", "FROM alpine\nLABEL a=b", 2, "LABEL", "labels"},
		{"stopsignal", "FROM alpine\nSTOPSIGNAL SIGTERM", 2, "STOPSIGNAL", "stop signal"},
		{"onbuild", "FROM alpine\nONBUILD RUN x", 2, "ONBUILD", "ONBUILD"},
		{"maintainer", "FROM alpine\nMAINTAINER me", 2, "MAINTAINER", "metadata"},
		{"unknown", "FROM alpine\nFROBNICATE x", 2, "FROBNICATE", "unknown instruction"},
		{"add from url", "FROM alpine\nADD https://example.com/x.sh /x.sh", 2, "ADD", "URL"},
		{"add archive", "FROM alpine\nADD tools.tar.gz /opt/", 2, "ADD", "archive"},
		{"multi-stage", "FROM golang AS build\nRUN go build\nFROM alpine", 3, "FROM", "multi-stage"},
		{"copy from stage", "FROM alpine\nCOPY --from=build /x /x", 2, "COPY", "--from"},
		{"copy link flag", "FROM alpine\nCOPY --link a /a", 2, "COPY", "--link"},
		{"copy outside context", "FROM alpine\nCOPY ../secret /s", 2, "COPY", "outside the build context"},
		{"copy several sources to a file", "FROM alpine\nCOPY a b /dest", 2, "COPY", "must end with /"},
		{"run mount", "FROM alpine\nRUN --mount=type=cache,target=/root/.cache pip install x", 2, "RUN", "--mount"},
		{"run heredoc", "FROM alpine\nRUN <<EOF\necho hi\nEOF", 2, "RUN", "heredocs"},
		{"from platform", "FROM --platform=linux/amd64 alpine", 1, "FROM", "--platform"},
		{"from variable", "FROM ${BASE}", 1, "FROM", "variables"},
		{"from scratch", "FROM scratch", 1, "FROM", "scratch"},
		{"json of numbers", "FROM alpine\nRUN [\"echo\", 1]", 2, "", "JSON array syntax"},
		{"copy heredoc", "FROM alpine\nCOPY <<EOF /etc/x\nx\nEOF\n", 2, "COPY", "heredocs"},
		{"unterminated heredoc", "FROM alpine\nRUN <<EOF\necho\n", 2, "", "unterminated heredoc"},
		{"env unterminated quote", "FROM alpine\nENV A=\"x", 2, "ENV", "unterminated"},
		{"workdir two args", "FROM alpine\nWORKDIR /a /b", 2, "WORKDIR", "exactly one"},
		{"multi-line instruction reports its first line", "FROM alpine\nRUN true\nEXPOSE \\\n 80", 3, "EXPOSE", "expose"},
		{"no from", "# nothing\n", 1, "", "no FROM"},
		{"bad escape directive", "# escape=!\nFROM alpine", 1, "", "escape"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := translateDockerfile(tt.in)
			var de *DockerfileError
			if !errors.As(err, &de) {
				t.Fatalf("err = %v, want a *DockerfileError", err)
			}
			if de.Line != tt.line || de.Instruction != tt.inst {
				t.Errorf("error at line %d %q, want line %d %q (%v)", de.Line, de.Instruction, tt.line, tt.inst, err)
			}
			if !strings.Contains(err.Error(), tt.contains) {
				t.Errorf("error %q does not mention %q", err, tt.contains)
			}
			if !strings.Contains(err.Error(), "line ") {
				t.Errorf("error %q does not name the line", err)
			}
		})
	}
}
