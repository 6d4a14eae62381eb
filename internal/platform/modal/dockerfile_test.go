package modal

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

func TestPlanBuild(t *testing.T) {
	tests := []struct {
		name       string
		dockerfile string
		onTemplate bool
		wantBase   string
		wantCmds   []string
		wantLine   int // 0: no error
		wantReason string
	}{
		{name: "from and run", dockerfile: "# base\nFROM python:3.12\n\nRUN pip install uv\nENV A=1\n",
			wantBase: "python:3.12", wantCmds: []string{"RUN pip install uv", "ENV A=1"}},
		{name: "continued lines stay one command", dockerfile: "FROM alpine\nRUN apk add \\\n  # tools\n  git\n",
			wantBase: "alpine", wantCmds: []string{"RUN apk add \\\n  # tools\n  git"}},
		{name: "a blank line inside a continuation continues it", dockerfile: "FROM alpine\nRUN a \\\n\n  b\nENV A=1\n",
			wantBase: "alpine", wantCmds: []string{"RUN a \\\n\n  b", "ENV A=1"}},
		{name: "a heredoc is one command with its body", dockerfile: "FROM alpine\nRUN <<EOF\nFROM x\nEOF\nUSER a\n",
			wantBase: "alpine", wantCmds: []string{"RUN <<EOF\nFROM x\nEOF", "USER a"}},
		{name: "the escape directive", dockerfile: "# escape=`\nFROM alpine\nRUN a `\n  b\n", wantLine: 1, wantReason: "escape parser directive"},
		{name: "does not parse", dockerfile: "FROM alpine\nRUN <<EOF\n", wantLine: 2, wantReason: "unterminated heredoc"},
		{name: "from flags kept", dockerfile: "FROM --platform=linux/amd64 alpine:3.21 AS base\nRUN true\n",
			wantBase: "--platform=linux/amd64 alpine:3.21 AS base", wantCmds: []string{"RUN true"}},
		{name: "copy from another image", dockerfile: "FROM alpine\nCOPY --from=busybox /bin/busybox /bin/\n",
			wantBase: "alpine", wantCmds: []string{"COPY --from=busybox /bin/busybox /bin/"}},
		{name: "copy of local files", dockerfile: "FROM alpine\nRUN true\nCOPY app/ /app/\n", wantLine: 3, wantReason: "COPY of local files"},
		{name: "copy with from not first", dockerfile: "FROM alpine\ncopy --chown=1 --from=b /x /y\n", wantLine: 2, wantReason: "COPY of local files"},
		{name: "add", dockerfile: "FROM alpine\nADD https://example.com/x /x\n", wantLine: 2, wantReason: "ADD"},
		{name: "no from", dockerfile: "RUN true\n", wantLine: 1, wantReason: "before FROM"},
		{name: "empty", dockerfile: "", wantLine: 1, wantReason: "no FROM line"},
		{name: "on template", dockerfile: "RUN apt-get update\nUSER app\n", onTemplate: true,
			wantCmds: []string{"RUN apt-get update", "USER app"}},
		{name: "on template with from", dockerfile: "FROM alpine\nRUN true\n", onTemplate: true, wantLine: 1, wantReason: "from_template"},
		{name: "on template without steps", dockerfile: "# nothing\n", onTemplate: true, wantLine: 1, wantReason: "no instruction"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := planBuild(tt.dockerfile, tt.onTemplate)
			if tt.wantLine != 0 {
				var de *DockerfileError
				if !errors.As(err, &de) || de.Line != tt.wantLine || !strings.Contains(de.Error(), tt.wantReason) {
					t.Fatalf("error = %v, want line %d with %q", err, tt.wantLine, tt.wantReason)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Base != tt.wantBase || !reflect.DeepEqual(got.Commands, tt.wantCmds) {
				t.Fatalf("got %q %q, want %q %q", got.Base, got.Commands, tt.wantBase, tt.wantCmds)
			}
		})
	}
}

func TestValidateTemplateSpec(t *testing.T) {
	v := templateSpecs{}
	if err := v.ValidateTemplateSpec(platform.TemplateSpec{Image: "alpine"}); err != nil {
		t.Fatalf("image: %v", err)
	}
	err := v.ValidateTemplateSpec(platform.TemplateSpec{Dockerfile: "FROM alpine\nCOPY . /app\n"})
	if err == nil || !strings.Contains(err.Error(), "dockerfile line 2") {
		t.Fatalf("copy: %v", err)
	}
}
