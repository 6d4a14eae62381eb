package fly

import (
	"context"
	"fmt"
	"regexp"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// volumeNameRE is Fly's volume name rule: 1 to 30 letters, digits and
// underscores (no '-' or '.', which the provider's own pattern allows).
var volumeNameRE = regexp.MustCompile(`^[A-Za-z0-9_]{1,30}$`)

// volumeRules judges a planned volume against Fly's rules no attribute row
// carries (platform.VolumeRules).
type volumeRules struct{ p *Platform }

// CheckVolume implements platform.VolumeRules: the name rule, and a
// restore's size_gb at least the size of the volume the snapshot was taken
// of, where the snapshot can be read at plan time.
func (r volumeRules) CheckVolume(ctx context.Context, spec platform.VolumeSpec) []platform.Problem {
	var out []platform.Problem
	if spec.Name != "" && !volumeNameRE.MatchString(spec.Name) {
		out = append(out, platform.Problem{Attribute: "name", Index: -1, Summary: "Volume name Fly does not accept",
			Detail: fmt.Sprintf("name = %q: a Fly volume name is 1 to 30 letters, digits and underscores (no '-' or '.'). "+
				"Use, for example, %q.", spec.Name, flyVolumeName(spec.Name))})
	}
	if spec.FromSnapshotID != "" && spec.SizeGB > 0 {
		sn, err := (&volumes{p: r.p}).findSnapshot(ctx, spec.FromSnapshotID)
		if err != nil {
			return out // an unreadable snapshot is judged at apply
		}
		if minGB := snapshotGB(sn); spec.SizeGB < minGB {
			out = append(out, platform.Problem{Attribute: "size_gb", Index: -1, Summary: "Restore smaller than the snapshot's volume",
				Detail: fmt.Sprintf("size_gb = %d, but snapshot %s is of a %d GB volume: Fly restores a snapshot only into a volume "+
					"at least that large. Set size_gb = %d or more, or leave it out to get %d GB.", spec.SizeGB, spec.FromSnapshotID, minGB, minGB, minGB)})
		}
	}
	return out
}

// flyVolumeName is name with every character Fly refuses made '_', cut to
// 30: a suggestion for the error.
func flyVolumeName(name string) string {
	b := []rune(name)
	for i, c := range b {
		if c != '_' && (c < '0' || c > '9') && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
			b[i] = '_'
		}
	}
	if len(b) > 30 {
		b = b[:30]
	}
	if len(b) == 0 {
		return "data"
	}
	return string(b)
}
