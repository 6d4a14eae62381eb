package fly

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/lostcreate"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/restplatform"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

// defaultVolumeGB is the size of a volume made without one (issue 11:
// size_gb defaults to 1; Fly's own default is 3).
const defaultVolumeGB = 1

type volumes struct{ p *Platform }

func (v *volumes) get(ctx context.Context, id string) (*volume, error) {
	var vol volume
	if _, err := v.p.do(ctx, http.MethodGet, v.p.itemPath("volumes", id), nil, nil, &vol); err != nil {
		return nil, restplatform.NotFound(err, "volume", id)
	}
	if gone(vol.State) {
		return nil, &platform.NotFoundError{Kind: "volume", ID: id}
	}
	return &vol, nil
}

// gone: a volume being destroyed, which Fly still reads for a while.
func gone(state string) bool {
	return state == "scheduling_destroy" || state == "destroying" || state == "destroyed" || state == "pending_destroy"
}

// Create implements platform.VolumeService: POST /apps/{app}/volumes;
// snapshot_id restores a snapshot into the new volume. Fly volumes carry no
// labels, so a lost answer cannot be told from another create's volume: the
// request is sent once, and its error says so.
func (v *volumes) Create(ctx context.Context, spec platform.VolumeSpec) (*platform.Volume, error) {
	if len(platform.UserLabels(spec.Labels)) > 0 {
		return nil, &platform.UnsupportedError{Platform: platformName, Capability: "volume labels"}
	}
	if err := v.p.ensureApp(ctx); err != nil {
		return nil, err
	}
	_, snapID := parseSnapshotID(spec.FromSnapshotID)
	body := createVolume{Name: spec.Name, Region: spec.Region, SizeGB: spec.SizeGB,
		SnapshotID: snapID, SnapshotRetention: spec.SnapshotRetentionDays}
	if body.Region == "" {
		body.Region = v.p.region
	}
	if spec.FromSnapshotID != "" {
		// Fly restores a snapshot only into a volume at least as large as
		// the one it was taken of (VolumeSnapshot.volume_size, fly-go), and
		// only once the snapshot is made: wait for it to be created.
		minGB, err := v.restorableSnapshot(ctx, spec.FromSnapshotID)
		if err != nil {
			return nil, err
		}
		if body.SizeGB == 0 {
			body.SizeGB = minGB
		}
		if minGB > 0 && body.SizeGB < minGB {
			return nil, fmt.Errorf("snapshot %s is of a %d GB volume: Fly restores it only into a volume of at least %d GB; set size_gb = %d or more",
				spec.FromSnapshotID, minGB, minGB, minGB)
		}
	}
	if body.SizeGB == 0 {
		body.SizeGB = defaultVolumeGB
	}
	// Fly volumes carry no labels and names are not unique, so the volume
	// of a create whose answer was lost is the one of its name that was
	// not there before it: note those that were.
	before, err := v.List(ctx, platform.VolumeFilter{Name: spec.Name})
	if err != nil {
		return nil, err
	}
	// A volume of the name made before this create is not this create's:
	// another state's, one made by hand, or left by an apply that was
	// killed before it saved the volume. Making a second one beside it
	// would leave that one behind unseen, so the create fails naming it.
	if len(before) > 0 {
		return nil, &platform.NotOwnedError{Kind: "volume", Name: spec.Name, ID: before[0].ID,
			Detail: fmt.Sprintf("Fly volume %s; Fly volumes carry no labels, so nothing tells which create made it", before[0].ID)}
	}
	var vol volume
	if _, err := v.p.do(ctx, http.MethodPost, v.p.appPath("volumes"), nil, body, &vol); err != nil {
		if !errors.Is(err, rest.ErrMaybeApplied) && !rest.IsStatus(err, http.StatusRequestTimeout) {
			return nil, fmt.Errorf("creating volume %q: %s", body.Name, flyError(err))
		}
		found, ferr := v.findLost(ctx, spec.Name, before, err)
		if ferr != nil {
			return nil, ferr
		}
		vol = *found
	}
	out := toVolume(&vol)
	out.FromSnapshotID = spec.FromSnapshotID
	return out, nil
}

// Get implements platform.VolumeService.
func (v *volumes) Get(ctx context.Context, id string) (*platform.Volume, error) {
	vol, err := v.get(ctx, id)
	if err != nil {
		return nil, err
	}
	return toVolume(vol), nil
}

// List implements platform.VolumeService.
func (v *volumes) List(ctx context.Context, filter platform.VolumeFilter) ([]platform.Volume, error) {
	var vols []volume
	if _, err := v.p.do(ctx, http.MethodGet, v.p.appPath("volumes"), nil, nil, &vols); err != nil {
		if rest.IsNotFound(err) {
			return nil, nil
		}
		return nil, err
	}
	var out []platform.Volume
	for i := range vols {
		if gone(vols[i].State) || (filter.Name != "" && vols[i].Name != filter.Name) {
			continue
		}
		if len(filter.Labels) > 0 { // Fly volumes carry no labels
			continue
		}
		out = append(out, *toVolume(&vols[i]))
	}
	return out, nil
}

// Update implements platform.VolumeService: PUT .../extend grows the volume
// (Fly cannot shrink one); PUT /apps/{app}/volumes/{id}
// {snapshot_retention} (fly-go flaps_volumes.go UpdateVolume; the old spec's
// POST) changes the retention of new snapshots. When Fly says the extend
// needs a restart, the started machine that mounts it is restarted.
func (v *volumes) Update(ctx context.Context, id string, change platform.VolumeUpdate) (*platform.Volume, error) {
	if change.Labels != nil {
		return nil, &platform.UnsupportedError{Platform: platformName, Capability: "volume labels"}
	}
	if change.SnapshotRetentionDays != nil {
		body := map[string]any{"snapshot_retention": *change.SnapshotRetentionDays}
		if _, err := v.p.do(ctx, http.MethodPut, v.p.itemPath("volumes", id), nil, body, nil); err != nil {
			return nil, fmt.Errorf("updating volume %s: %s", id, flyError(restplatform.NotFound(err, "volume", id)))
		}
	}
	if change.SizeGB != nil {
		cur, err := v.get(ctx, id)
		if err != nil {
			return nil, err
		}
		if *change.SizeGB < cur.SizeGB {
			return nil, fmt.Errorf("volume %s is %d GB: Fly volumes cannot shrink below that", id, cur.SizeGB)
		}
		if *change.SizeGB > cur.SizeGB {
			var out struct {
				NeedsRestart bool `json:"needs_restart"`
			}
			body := map[string]any{"size_gb": *change.SizeGB}
			if _, err := v.p.do(ctx, http.MethodPut, v.p.itemPath("volumes", id, "extend"), nil, body, &out); err != nil {
				// A retried extend whose first answer was lost is refused
				// (the volume is no longer smaller): the volume says
				// whether the extend landed.
				if now, gerr := v.get(ctx, id); gerr != nil || now.SizeGB < *change.SizeGB {
					return nil, fmt.Errorf("extending volume %s: %s", id, flyError(restplatform.NotFound(err, "volume", id)))
				}
				// Whether Fly wanted a restart was in the lost answer: a
				// started machine mounting it is restarted so it surely
				// sees the size the plan promised.
				out.NeedsRestart = cur.AttachedMachineID != ""
			}
			if out.NeedsRestart && cur.AttachedMachineID != "" {
				if err := v.restart(ctx, cur.AttachedMachineID); err != nil {
					return nil, fmt.Errorf("volume %s grew to %d GB, but Fly needs machine %s restarted to see it, and that failed: %w",
						id, *change.SizeGB, cur.AttachedMachineID, err)
				}
			}
		}
	}
	return v.Get(ctx, id)
}

// restart stops and starts a started machine, so that it sees its grown
// volume; a machine not started sees it at its next start.
func (v *volumes) restart(ctx context.Context, machineID string) error {
	boxes := &sandboxes{p: v.p}
	m, err := boxes.settled(ctx, machineID)
	if err != nil || m.State != flyStarted {
		return err
	}
	tflog.Info(ctx, "Fly needs the machine restarted to see its grown volume", map[string]any{"machine": machineID})
	if _, err := boxes.SetState(ctx, machineID, platform.StateStopped); err != nil {
		return err
	}
	_, err = boxes.SetState(ctx, machineID, platform.StateRunning)
	return err
}

// Delete implements platform.VolumeService. Fly refuses to delete a
// volume a machine mounts; the error says which machine.
func (v *volumes) Delete(ctx context.Context, id string) error {
	cur, err := v.get(ctx, id)
	if platform.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if cur.AttachedMachineID != "" {
		return &platform.ConflictError{Kind: "volume", ID: id, Reason: "machine " + cur.AttachedMachineID +
			" mounts it, and Fly deletes no volume a machine mounts: destroy or change that sandbox first"}
	}
	if _, err := v.p.do(ctx, http.MethodDelete, v.p.itemPath("volumes", id), nil, nil, nil); err != nil && !rest.IsNotFound(err) {
		if rest.IsStatus(err, http.StatusBadRequest) || rest.IsStatus(err, http.StatusConflict) || rest.IsStatus(err, http.StatusPreconditionFailed) {
			return &platform.ConflictError{Kind: "volume", ID: id, Reason: "Fly refused to delete it (" + flyError(err) + "); a volume a machine mounts cannot be deleted"}
		}
		return fmt.Errorf("deleting volume %s: %s", id, flyError(err))
	}
	return nil
}

// toVolume is v as the provider sees it. A size or snapshot retention at
// Fly's default (defaultVolumeGB, defaultRetentionDays: what a create
// without it makes) reads as unset (0), as Daytona's default template sizes
// do: a volume made without them reads, and imports, as made without them,
// and a configuration that states the default keeps it.
func toVolume(v *volume) *platform.Volume {
	out := &platform.Volume{ID: v.ID, Name: v.Name, SizeGB: v.SizeGB, Region: v.Region, State: v.State,
		CreatedAt: v.CreatedAt, SnapshotRetentionDays: v.SnapshotRetention, Labels: map[string]string{},
		// Fly volumes carry no labels: as on E2B and Daytona, every volume of
		// the app counts as the provider's (sbx_volume's managed).
		Managed: true}
	if out.SizeGB == defaultVolumeGB {
		out.SizeGB = 0
	}
	if out.SnapshotRetentionDays == defaultRetentionDays {
		out.SnapshotRetentionDays = 0
	}
	if v.AttachedMachineID != "" {
		out.AttachedTo = []string{v.AttachedMachineID}
	}
	return out
}

// snapshotGB is the size in GB of the volume a snapshot was taken of:
// Fly reports volume_size in bytes (flyctl prints it with humanize.IBytes),
// rounded up here to whole GB, which size_gb counts in; without it, the
// snapshot's own size in bytes, rounded up, is the least it can be.
func snapshotGB(sn *volumeSnapshot) int64 {
	b := sn.VolumeSize
	if b <= 0 {
		b = sn.Size
	}
	return max(1, (b+gib-1)/gib)
}

const gib = 1 << 30

// findSnapshot reads the snapshot with the provider's id (or a bare Fly
// id) from its volume's list, or every volume's.
func (v *volumes) findSnapshot(ctx context.Context, id string) (*volumeSnapshot, error) {
	volID, snapID := parseSnapshotID(id)
	snaps := &snapshots{p: v.p}
	var vols []string
	if volID != "" {
		vols = []string{volID}
	} else {
		all, err := v.List(ctx, platform.VolumeFilter{})
		if err != nil {
			return nil, err
		}
		for _, x := range all {
			vols = append(vols, x.ID)
		}
	}
	for _, vid := range vols {
		raw, err := snaps.list(ctx, vid)
		if platform.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for i := range raw {
			if raw[i].ID == snapID {
				return &raw[i], nil
			}
		}
	}
	return nil, &platform.NotFoundError{Kind: "snapshot", ID: id}
}

// restorableSnapshot waits, bounded by ctx, until the snapshot is created
// (an on-demand snapshot lists waiting, then running, then created: Fly
// docs volumes/snapshots; Fly refuses a restore from one not created), and
// returns the size in GB of the volume it was taken of.
func (v *volumes) restorableSnapshot(ctx context.Context, id string) (int64, error) {
	sn, err := waitFor(ctx, v.p, func(ctx context.Context) (*volumeSnapshot, error) { return v.findSnapshot(ctx, id) },
		func(sn *volumeSnapshot) (bool, error) {
			if sn.Status == "failed" {
				return false, fmt.Errorf("snapshot %s failed on Fly: it cannot be restored; take another", id)
			}
			return sn.Status == snapshotCreated, nil
		})
	if err != nil {
		return 0, err
	}
	return snapshotGB(sn), nil
}

// findLost looks, with lostcreate.Find's backoff, for the volume a create
// whose answer was lost (createErr) made: the one volume called name that
// was not listed before the create. Two new ones (another create of the
// name meanwhile) cannot be told apart, and neither is adopted.
func (v *volumes) findLost(ctx context.Context, name string, before []platform.Volume, createErr error) (*volume, error) {
	known := map[string]bool{}
	for _, b := range before {
		known[b.ID] = true
	}
	var found *volume
	var ambiguous []string
	_, waited, err := lostcreate.Find(ctx, v.p.lookupSleep, func(ctx context.Context) (bool, error) {
		now, err := v.List(ctx, platform.VolumeFilter{Name: name})
		if err != nil {
			return false, err
		}
		var fresh []string
		for _, x := range now {
			if !known[x.ID] {
				fresh = append(fresh, x.ID)
			}
		}
		switch len(fresh) {
		case 0:
			return false, nil
		case 1:
			found, err = v.get(ctx, fresh[0])
			return err == nil, err
		}
		ambiguous = fresh
		return true, nil
	})
	if found != nil {
		return found, nil
	}
	find := fmt.Sprintf("Fly volumes carry no labels: if it was made, `fly volumes list -a %s` shows a volume %q; "+
		"import it (terraform import <address> <volume id>) or delete it, then apply again.", v.p.app, name)
	if len(ambiguous) > 0 {
		find = fmt.Sprintf("Volumes %v of that name appeared meanwhile, and Fly does not say which is this create's; none was adopted. %s", ambiguous, find)
	}
	return nil, &lostcreate.Error{What: fmt.Sprintf("volume %q", name), Err: createErr, Waited: waited, Lookup: err, Find: find,
		NotListed: fmt.Sprintf("After looking for it for %s, Fly lists no new volume of that name.", waited)}
}
