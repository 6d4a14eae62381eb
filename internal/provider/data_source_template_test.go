package provider

import (
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

func TestTemplateDataSource_fake(t *testing.T) {
	acctest.RequireTerraform(t) // the terraform CLI against an in-process fake platform; no Docker
	created := time.Date(2025, 2, 3, 4, 5, 6, 0, time.UTC)
	fake := &dataSourceFakePlatform{templates: []platform.Template{
		{ID: "tpl-1", Name: "agent", BuildID: "build-7", Status: "ready", CreatedAt: created,
			Labels: map[string]string{"team": "ml", platform.LabelKind: "template"}},
		{ID: "tpl-2", Name: "agent-gpu", BuildID: "build-1", Status: "building"},
	}}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dataSourceFakeFactories(fake, time.Time{}),
		Steps: []resource.TestStep{
			{
				Config: `
data "sbx_template" "by_name" { name = "agent" }
data "sbx_template" "by_id" { id = "tpl-2" }
`,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("data.sbx_template.by_name", "id", "tpl-1"),
					resource.TestCheckResourceAttr("data.sbx_template.by_name", "build_id", "build-7"),
					resource.TestCheckResourceAttr("data.sbx_template.by_name", "status", "ready"),
					resource.TestCheckResourceAttr("data.sbx_template.by_name", "created_at", "2025-02-03T04:05:06Z"),
					resource.TestCheckResourceAttr("data.sbx_template.by_name", "labels.%", "1"),
					resource.TestCheckResourceAttr("data.sbx_template.by_name", "labels.team", "ml"),
					resource.TestCheckResourceAttr("data.sbx_template.by_id", "name", "agent-gpu"),
					resource.TestCheckResourceAttr("data.sbx_template.by_id", "status", "building"),
					resource.TestCheckNoResourceAttr("data.sbx_template.by_id", "created_at"),
				),
			},
			{
				Config:      `data "sbx_template" "x" { name = "agen" }`,
				ExpectError: regexp.MustCompile(`no template named "agen" was found`),
			},
			{
				Config:      `data "sbx_template" "x" { id = "tpl-9" }`,
				ExpectError: regexp.MustCompile(`No template with id "tpl-9" exists on fake`),
			},
			{
				Config:      `data "sbx_template" "x" {}`,
				ExpectError: regexp.MustCompile(`(?s)Missing Attribute Configuration.*id.*name`),
			},
			{
				Config: `data "sbx_template" "x" { name = "agent-gpu" }`,
				Check:  resource.TestCheckResourceAttr("data.sbx_template.x", "id", "tpl-2"),
			},
		},
	})
}
