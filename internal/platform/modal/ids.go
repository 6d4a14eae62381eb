package modal

import "github.com/sbxhq/terraform-provider-sbx/internal/platform"

// idPlanner plans a volume's id, its name (the SDK finds volumes by name
// only), so a volume made again under its name changes nothing that refers
// to it. Images, boxes and snapshots get ids Modal assigns.
type idPlanner struct{}

var _ platform.IDPlanner = idPlanner{}

// PlannedID implements platform.IDPlanner.
func (idPlanner) PlannedID(kind, name string) (string, bool) {
	if kind == platform.KindVolume && name != "" {
		return name, true
	}
	return "", false
}
