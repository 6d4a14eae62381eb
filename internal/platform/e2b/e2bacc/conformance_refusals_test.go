package e2bacc_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// TestAccConformanceE2BCapabilityRefusals: what the conformance suite leaves
// out on E2B because the capability matrix says E2B cannot do it is refused
// at plan time through the terraform CLI, naming the attribute and the value,
// and nothing reaches the platform.
func TestAccConformanceE2BCapabilityRefusals(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := e2bAccFake(t, e2bfake.Options{})
	box := func(body string) string {
		return cfg + "resource \"sbx_sandbox\" \"s\" {\n  template_id = \"tpl\"\n" + body + "\n}\n"
	}
	steps := []resource.TestStep{
		{
			Config: cfg + `resource "sbx_volume" "v" {
  name   = "data"
  labels = { team = "ml" }
}`,
			ExpectError: regexp.MustCompile(`(?s)labels = \{ team = "ml" \} is not supported on e2b.*volumes carry no\s+labels`),
		},
		{
			Config: cfg + `resource "sbx_snapshot" "s" {
  sandbox_id = "box"
  labels     = { gen = "1" }
}`,
			ExpectError: regexp.MustCompile(`(?s)labels = \{ gen = "1" \} is not supported on e2b.*snapshots carry no\s+labels`),
		},
		{
			// E2B snapshots always hold memory: left out, that is planned;
			// an explicit false cannot be honoured.
			Config: cfg + `resource "sbx_snapshot" "s" {
  sandbox_id     = "box"
  include_memory = false
}`,
			ExpectError: regexp.MustCompile(`(?s)include_memory = false is not supported on e2b.*snapshots always include\s+memory`),
		},
		{
			Config: cfg + `resource "sbx_template" "t" {
  name   = "labelled"
  image  = "alpine:3.20"
  labels = { team = "ml" }
}`,
			ExpectError: regexp.MustCompile(`(?s)labels = \{ team = "ml" \} is not supported on e2b.*templates carry no\s+labels`),
		},
		{
			Config:      box(`  cpu_count = 2`),
			ExpectError: regexp.MustCompile(`(?s)cpu_count = 2 is not supported on e2b.*set it on the\s+sbx_template`),
		},
		{
			Config:      box(`  memory_mb = 1024`),
			ExpectError: regexp.MustCompile(`(?s)memory_mb = 1024 is not supported on e2b.*set it on the\s+sbx_template`),
		},
		{
			Config:      box("  volume_mount {\n    volume_id = \"v\"\n    path      = \"/data\"\n    read_only = true\n  }"),
			ExpectError: regexp.MustCompile(`(?s)volume_mount\[0\]\.read_only = true is not supported on e2b.*read-write`),
		},
	}
	for i := range steps {
		steps[i].PlanOnly = true
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: accFactories,
		Steps:                    steps,
	})
	if n := len(fake.Templates()) + len(fake.Volumes()) + len(fake.Sandboxes()) + len(fake.Snapshots()); n != 0 {
		t.Errorf("refused plans made %d objects on the platform", n)
	}
	if n := fake.Requests("POST /sandboxes") + fake.Requests("POST /volumes") + fake.Requests("POST /v3/templates"); n != 0 {
		t.Errorf("refused plans sent %d create requests", n)
	}
}
