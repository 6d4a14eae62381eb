package fly

import (
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// A machine's template is the provider's record in its metadata; a machine
// made by flyctl or the API has none, and reads with its image as its
// template (the id of the unnamed template of that image), so its import
// from a generated configuration plans no replacement.
func TestToSandboxTemplate(t *testing.T) {
	tests := []struct {
		name     string
		metadata map[string]string
		want     string
	}{
		{"made by the provider", map[string]string{platform.LabelManaged: "true", labelTemplate: "agent=registry.fly.io/agent:1"}, "agent=registry.fly.io/agent:1"},
		{"made by hand", map[string]string{"team": "a"}, "registry.fly.io/agent:1"},
		{"made by hand, no metadata", nil, "registry.fly.io/agent:1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &machine{ID: "m1", State: flyStarted, Config: machineConfig{Image: "registry.fly.io/agent:1", Metadata: tt.metadata}}
			if got := toSandbox(m).TemplateID; got != tt.want {
				t.Errorf("TemplateID = %q, want %q", got, tt.want)
			}
		})
	}
}
