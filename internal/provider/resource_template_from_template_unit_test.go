package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// A Dockerfile built on from_template with a FROM line is a plan-time
// error on dockerfile naming the line, as is one that does not parse (with
// or without from_template); without from_template, or with an unknown
// Dockerfile, nothing is reported. A FROM inside a heredoc body is no FROM
// line.
func TestTemplateCheckDockerfile(t *testing.T) {
	cases := []struct {
		from, dockerfile types.String
		wantLine         string
	}{
		{types.StringValue("tpl"), types.StringValue("RUN true\n\nFROM alpine\n"), "line 3"},
		{types.StringUnknown(), types.StringValue("FROM alpine\n"), "line 1"},
		{types.StringValue("tpl"), types.StringValue("RUN true\n"), ""},
		{types.StringNull(), types.StringValue("FROM alpine\n"), ""},
		{types.StringValue("tpl"), types.StringUnknown(), ""},
		{types.StringValue("tpl"), types.StringValue("RUN <<EOF\nFROM alpine\nEOF\n"), ""},
		{types.StringNull(), types.StringValue("FROM alpine\nRUN <<EOF\necho\n"), "line 2: unterminated heredoc"},
		{types.StringValue("tpl"), types.StringValue("# escape=x\nRUN true\n"), "line 1: invalid escape token"},
	}
	for _, c := range cases {
		var diags diag.Diagnostics
		templateCheckDockerfile(c.from, c.dockerfile, &diags)
		switch {
		case c.wantLine == "" && diags.HasError():
			t.Errorf("%v / %v: unexpected %v", c.from, c.dockerfile, diags)
		case c.wantLine != "" && (!diags.HasError() || !strings.Contains(diags[0].Detail(), "dockerfile "+c.wantLine)):
			t.Errorf("%v / %v: diags = %v, want an error naming %s", c.from, c.dockerfile, diags, c.wantLine)
		}
	}
}

// from_template reaches the platform as TemplateSpec.FromTemplate, is a
// rebuild input, and has its row in the attribute table's plan.
func TestTemplateFromTemplateSpecAndRebuild(t *testing.T) {
	m := templateModel{Name: types.StringValue("d"), Dockerfile: types.StringValue("RUN true\n"),
		FromTemplate: types.StringValue("tpl-a"), Labels: types.MapNull(types.StringType)}
	var diags diag.Diagnostics
	if spec := templateSpecFrom(context.Background(), m, &diags); spec.FromTemplate != "tpl-a" || spec.Image != "" {
		t.Errorf("spec = %+v", spec)
	}
	prior := m
	prior.FromTemplate = types.StringValue("tpl-b")
	if got := templateRebuildChanges(m, prior); len(got) != 1 || !got[0].Equal(pathTemplateFromTemplate) {
		t.Errorf("rebuild changes = %v", got)
	}
	found := false
	for _, a := range templateAttributes(m, &prior) {
		if a.key == platform.AttrTemplateFromTemplate {
			found = a.path.Equal(pathTemplateFromTemplate) && a.plan.Equal(m.FromTemplate) && a.prior.Equal(prior.FromTemplate)
		}
	}
	if !found {
		t.Error("templateAttributes has no from_template row with its plan and prior")
	}
}
