package docker

import (
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

func TestValidateTemplateSpec(t *testing.T) {
	tests := []struct {
		name string
		spec platform.TemplateSpec
		want string // a phrase of the error; "" for none
	}{
		{name: "FROM first", spec: platform.TemplateSpec{Dockerfile: "FROM alpine\nRUN true\n"}},
		{name: "an image", spec: platform.TemplateSpec{Image: "alpine:3.21"}},
		{name: "on another template, no FROM", spec: platform.TemplateSpec{FromTemplate: "sbx/base:latest", Dockerfile: "RUN true\n"}},
		{name: "no FROM", spec: platform.TemplateSpec{Dockerfile: "# nothing\n"}, want: "dockerfile the Dockerfile has no FROM line"},
		{name: "RUN before FROM", spec: platform.TemplateSpec{Dockerfile: "RUN echo hi\nFROM alpine\n"}, want: "dockerfile line 1: RUN comes before FROM"},
		{name: "a FROM in a heredoc is no FROM", spec: platform.TemplateSpec{Dockerfile: "ARG A\nRUN <<EOF\nFROM x\nEOF\nFROM y\n"},
			want: "dockerfile line 2: RUN comes before FROM"},
		{name: "on another template, with FROM", spec: platform.TemplateSpec{FromTemplate: "sbx/base:latest", Dockerfile: "RUN a \\\n\n FROM x\nFROM y\n"},
			want: "dockerfile line 4: a Dockerfile built on from_template has no FROM line"},
		{name: "does not parse", spec: platform.TemplateSpec{Dockerfile: "FROM a\nCOPY <<EOF /x\n"}, want: "dockerfile line 2: unterminated heredoc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := (&Platform{}).ValidateTemplateSpec(tt.spec)
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("ValidateTemplateSpec = %v, want %q", err, tt.want)
			}
		})
	}
}
