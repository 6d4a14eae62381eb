package conformance_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest/kits"
	"github.com/sbxhq/terraform-provider-sbx/internal/platforms"
)

// TestRegistryNamesEveryPlatform: the registry of platforms under test
// lists exactly the provider's platforms (platforms.All()), each once, plus
// the test-only ones, which the provider must not register. A platform
// added to the provider without a kit, or a kit whose platform the
// provider dropped, fails here.
func TestRegistryNamesEveryPlatform(t *testing.T) {
	var registered []string
	for _, d := range platforms.All() {
		registered = append(registered, d.Name)
	}
	var tested, testOnly []string
	for _, e := range kits.All() {
		name := e.Kit.Name()
		if slices.Contains(tested, name) || slices.Contains(testOnly, name) {
			t.Errorf("the registry lists %s twice", name)
		}
		if e.TestOnly {
			testOnly = append(testOnly, name)
			continue
		}
		tested = append(tested, name)
	}
	if diff := symmetricDiff(registered, tested); diff != "" {
		t.Errorf("the registry (platformtest/kits) and platforms.All() name different platforms: %s", diff)
	}
	for _, name := range testOnly {
		if slices.Contains(registered, name) {
			t.Errorf("the registry marks %s test-only, but the provider registers it", name)
		}
	}
}

// symmetricDiff says which names only one of the lists has ("" when none).
func symmetricDiff(registered, tested []string) string {
	var out []string
	for _, n := range registered {
		if !slices.Contains(tested, n) {
			out = append(out, n+" is registered but has no kit")
		}
	}
	for _, n := range tested {
		if !slices.Contains(registered, n) {
			out = append(out, n+" has a kit but is not registered (mark it TestOnly if it is a test platform)")
		}
	}
	return strings.Join(out, "; ")
}

// TestSymmetricDiff: the check above names each side's extra platforms.
func TestSymmetricDiff(t *testing.T) {
	tests := []struct {
		registered, tested []string
		want               string
	}{
		{[]string{"docker", "e2b"}, []string{"e2b", "docker"}, ""},
		{[]string{"docker", "e2b"}, []string{"docker"}, "e2b is registered but has no kit"},
		{[]string{"docker"}, []string{"docker", "sixth"}, "sixth has a kit but is not registered (mark it TestOnly if it is a test platform)"},
	}
	for _, tt := range tests {
		if got := symmetricDiff(tt.registered, tt.tested); got != tt.want {
			t.Errorf("symmetricDiff(%v, %v) = %q, want %q", tt.registered, tt.tested, got, tt.want)
		}
	}
}
