package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// TestTemplateNoteDisplaced: a Read records the provider's build when
// another image took the template's id from it, keeps that record while
// the image stays, and drops it once a build of the provider holds the id.
func TestTemplateNoteDisplaced(t *testing.T) {
	tests := []struct {
		name     string
		before   string // the record before the Read ("" for none)
		recorded types.String
		read     platform.Template
		want     string
	}{
		{"the provider's build, as recorded", "", types.StringValue("sha256:1"), platform.Template{BuildID: "sha256:1"}, ""},
		{"a rebuild of the provider elsewhere", "", types.StringValue("sha256:1"), platform.Template{BuildID: "sha256:2"}, ""},
		{"an image tagged over the build", "", types.StringValue("sha256:1"), platform.Template{BuildID: "sha256:9", ForeignBuild: true}, "sha256:1"},
		{"still there at the next Read", "sha256:1", types.StringValue("sha256:9"), platform.Template{BuildID: "sha256:9", ForeignBuild: true}, "sha256:1"},
		{"another hand-made image over the first", "sha256:1", types.StringValue("sha256:9"), platform.Template{BuildID: "sha256:8", ForeignBuild: true}, "sha256:1"},
		{"tagged back to the provider's build", "sha256:1", types.StringValue("sha256:9"), platform.Template{BuildID: "sha256:1"}, ""},
		{"imported with a foreign image under the id", "", types.StringValue("sha256:9"), platform.Template{BuildID: "sha256:9", ForeignBuild: true}, ""},
		{"no build recorded", "", types.StringNull(), platform.Template{BuildID: "sha256:9", ForeignBuild: true}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			priv := memoryPrivate{}
			var diags diag.Diagnostics
			if tt.before != "" {
				priv[privateKeyDisplacedBuild] = []byte(`"` + tt.before + `"`)
			}
			templateNoteDisplaced(ctx, tt.recorded, &tt.read, priv, priv, &diags)
			if got := templateDisplacedBuild(ctx, priv, &diags); got != tt.want || diags.HasError() {
				t.Errorf("recorded %q (%v), want %q", got, diags, tt.want)
			}
		})
	}
}
