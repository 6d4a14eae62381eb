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
