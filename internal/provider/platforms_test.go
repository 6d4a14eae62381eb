package provider

import (
	"context"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/provider"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platforms"
)

// TestPlatformsRegistration: the registered platforms can each be a block
// of the provider: distinct names that no other attribute or block of the
// provider uses, exactly one default, and what the provider needs of each
// definition and setting.
func TestPlatformsRegistration(t *testing.T) {
	defs := platforms.All()
	var resp provider.SchemaResponse
	(&sbxProvider{version: "test", platforms: []platform.Definition{}}).Schema(context.Background(), provider.SchemaRequest{}, &resp)
	reserved := []string{"retention"}
	for name := range resp.Schema.Attributes {
		reserved = append(reserved, name)
	}
	seen := map[string]bool{}
	defaults := 0
	for _, d := range defs {
		switch {
		case d.Name == "" || d.Title == "" || d.Description == "" || d.Configure == nil:
			t.Errorf("%q lacks a name, title, description or Configure", d.Name)
		case seen[d.Name] || slices.Contains(reserved, d.Name):
			t.Errorf("%q is registered twice or is the name of a provider attribute", d.Name)
		}
		seen[d.Name] = true
		if d.Default {
			defaults++
			for _, s := range d.Settings {
				if s.Required {
					t.Errorf("the default %s requires %s: a provider block without a platform could not work", d.Name, s.Name)
				}
			}
		}
		settings := map[string]bool{}
		for _, s := range d.Settings {
			if s.Name == "" || s.Description == "" || settings[s.Name] {
				t.Errorf("%s: setting %q has no name or description, or is there twice", d.Name, s.Name)
			}
			settings[s.Name] = true
		}
	}
	if defaults != 1 {
		t.Errorf("%d registered platforms are the default, want 1", defaults)
	}
}
