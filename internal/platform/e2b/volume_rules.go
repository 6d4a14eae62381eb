package e2b

import (
	"context"
	"fmt"
	"regexp"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// volumeName is E2B's volume name: letters, digits, '_' and '-' (the API
// description's VolumeCreate.name pattern, ^[a-zA-Z0-9_-]+$; the server
// answers any other name "Invalid volume name": e2b-dev/infra,
// packages/api/internal/handlers/volume_create.go, isValidVolumeName). The
// schema's name, shared by every platform, also allows '.'.
var volumeName = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)

// volumeRules are E2B's plan-time rules of a volume (Extensions.VolumeRules).
type volumeRules struct{}

// CheckVolume implements platform.VolumeRules: the name. An unknown or
// empty name is left to the schema.
func (volumeRules) CheckVolume(_ context.Context, spec platform.VolumeSpec) []platform.Problem {
	if spec.Name == "" || volumeName.MatchString(spec.Name) {
		return nil
	}
	return []platform.Problem{{Attribute: "name", Index: -1, Summary: "Volume name not accepted by e2b",
		Detail: fmt.Sprintf("name = %q: e2b volume names are letters, digits, '_' and '-' only. "+
			"Use a name such as %q.", spec.Name, suggestVolumeName(spec.Name))}}
}

// suggestVolumeName is name with every character E2B refuses made '-'.
func suggestVolumeName(name string) string {
	out := []rune(name)
	for i, r := range out {
		if !volumeName.MatchString(string(r)) {
			out[i] = '-'
		}
	}
	return string(out)
}
