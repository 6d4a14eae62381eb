package daytona

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/restplatform"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

// snapshots are Daytona snapshots taken of a sandbox (POST
// /sandbox/{id}/snapshot): regular Daytona snapshots, which new sandboxes
// start from. They carry no labels and name no source.
type snapshots struct{ p *Platform }

// noSnapshotPolls is how many reads of a settled box that made no
// snapshot are waited out before the snapshot is given up (the snapshot
// may be listed a moment after the box settles).
const noSnapshotPolls = 3

// Create snapshots a sandbox following Daytona's rules
// (createSnapshotFromSandbox): the box must be started or stopped; a
// Windows box needs started for a memory snapshot and stopped for a
// filesystem one; other classes take no memory. A box in another state is
// brought to an accepted one for the snapshot and back afterwards,
// whatever happens. It waits for the snapshot to be active.
func (s *snapshots) Create(ctx context.Context, spec platform.SnapshotSpec) (snap *platform.Snapshot, err error) {
	switch {
	case spec.VolumeID != "" || spec.SandboxID == "":
		return nil, &platform.UnsupportedError{Platform: platformName, Capability: "volume snapshots"}
	case spec.TTL != 0:
		return nil, &platform.UnsupportedError{Platform: platformName, Capability: "snapshot ttl (Daytona snapshots do not expire)"}
	case len(spec.Labels) > 0:
		return nil, &platform.UnsupportedError{Platform: platformName, Capability: "snapshot labels"}
	}
	defer s.p.lockBox(spec.SandboxID)()
	boxes := &sandboxes{p: s.p}
	tpls := &templates{p: s.p}
	d, err := boxes.settle(ctx, spec.SandboxID)
	if err != nil {
		return nil, err
	}
	windows := d.SandboxClass == classWindows
	if spec.IncludeMemory && !windows {
		return nil, fmt.Errorf("include_memory: Daytona snapshots a sandbox with its memory only when it is of the windows class; "+
			"sandbox %s is of the %q class: remove include_memory for a filesystem snapshot", d.ID, d.SandboxClass)
	}
	taken, err := tpls.find(ctx, spec.Name)
	if err != nil {
		return nil, fmt.Errorf("looking for a snapshot named %q: %w", spec.Name, err)
	}
	if taken != nil {
		return nil, &platform.NotOwnedError{Kind: "snapshot", Name: spec.Name, ID: taken.ID,
			Detail: "Daytona snapshot names are unique in an organisation"}
	}
	need := dtStarted
	switch {
	case windows && !spec.IncludeMemory:
		need = dtStopped
	case !windows && d.State == dtStopped:
		need = dtStopped
	}
	before := d.State
	if before != need {
		defer func() {
			if rerr := boxes.restore(ctx, spec.SandboxID, before); rerr != nil {
				err = errors.Join(err, rerr)
			}
		}()
		if _, err := boxes.moveTo(ctx, spec.SandboxID, need); err != nil {
			return nil, fmt.Errorf("bringing the sandbox to %s for the snapshot (Daytona snapshots only a started or stopped sandbox): %w", need, err)
		}
	}
	if err := s.send(ctx, spec); err != nil {
		return nil, err
	}
	made, err := s.wait(ctx, spec)
	// The box leaves snapshotting for the state it had before it.
	if _, serr := boxes.settle(ctx, spec.SandboxID); serr != nil && err == nil {
		err = fmt.Errorf("waiting for the sandbox after the snapshot: %w", serr)
	}
	if made == nil {
		return nil, err
	}
	out := snapshotFromAPI(*made)
	out.SandboxID = spec.SandboxID
	out.ParentSnapshotID = d.Labels[labelFromSnapshot]
	if spec.IncludeMemory {
		out.Kind = platform.SnapshotMemory
	}
	return out, err
}

// send sends POST /sandbox/{id}/snapshot. A lost answer is looked for (the
// snapshot by its name, free before, or the box snapshotting); not found,
// the request is sent once more, which a snapshot under way refuses (the
// box is no longer started or stopped) and a made one refuses by name.
func (s *snapshots) send(ctx context.Context, spec platform.SnapshotSpec) error {
	boxes := &sandboxes{p: s.p}
	tpls := &templates{p: s.p}
	body := createSandboxSnapshot{Name: spec.Name, IncludeMemory: spec.IncludeMemory}
	made := func(ctx context.Context) (bool, error) {
		f, lerr := tpls.find(ctx, spec.Name)
		if lerr != nil || f != nil {
			return f != nil, lerr
		}
		b, lerr := boxes.detail(ctx, spec.SandboxID)
		return lerr == nil && b.State == dtSnapshot, lerr
	}
	for sends := 1; ; sends++ {
		_, err := s.p.do(ctx, http.MethodPost, "/sandbox/"+pathID(spec.SandboxID)+"/snapshot", nil, body, nil)
		if err == nil {
			return nil
		}
		var ae *rest.APIError
		if sends > 1 && errors.As(err, &ae) && ae.StatusCode/100 == 4 {
			if ok, _ := made(ctx); ok {
				return nil // the first send made it after all
			}
		}
		if !errors.Is(err, rest.ErrMaybeApplied) {
			return fmt.Errorf("snapshotting sandbox %s: %w", spec.SandboxID, restplatform.NotFound(err, "sandbox", spec.SandboxID))
		}
		ok, waited, ferr := s.p.findLost(ctx, made)
		if ok {
			tflog.Info(ctx, "the snapshot create's answer was lost; found the snapshot it started", map[string]any{"name": spec.Name, "waited": waited.String()})
			return nil
		}
		if ferr == nil && sends < maxCreateSends {
			continue
		}
		return lostCreate(fmt.Sprintf("snapshot %q", spec.Name), err, waited, ferr, fmt.Sprintf(
			"If it was made, Daytona will list a snapshot named %q (the sbx_snapshot data source finds it by name): "+
				"import it (terraform import <address> <snapshot id>) or delete it, then apply again.", spec.Name))
	}
}

// wait follows the snapshot until it is active. Daytona may list it only
// once the runner has pushed it; until then the box reads snapshotting.
func (s *snapshots) wait(ctx context.Context, spec platform.SnapshotSpec) (*snapshotAPI, error) {
	tpls := &templates{p: s.p}
	boxes := &sandboxes{p: s.p}
	gone := 0
	for {
		f, err := tpls.find(ctx, spec.Name)
		if err != nil {
			return nil, err
		}
		if f != nil && !building(*f) {
			if f.State == snapActive || f.State == snapInactive {
				return f, nil
			}
			return f, tpls.snapshotFailure(*f)
		}
		if f == nil {
			b, err := boxes.detail(ctx, spec.SandboxID)
			if err != nil {
				return nil, fmt.Errorf("the snapshot is not listed and the sandbox cannot be read: %w", err)
			}
			if b.State != dtSnapshot && settled(b) {
				gone++
				if gone > noSnapshotPolls {
					reason := b.ErrorReason
					if reason == "" {
						reason = "Daytona gave no reason"
					}
					return nil, fmt.Errorf("sandbox %s finished snapshotting (now %s) but Daytona lists no snapshot named %q: %s",
						b.ID, b.State, spec.Name, reason)
				}
			}
		}
		if err := s.p.sleep(ctx, s.p.poll); err != nil {
			return f, fmt.Errorf("waiting for snapshot %q: %w", spec.Name, err)
		}
	}
}

// snapshotFailure is the error of a snapshot Daytona could not make.
func (t *templates) snapshotFailure(s snapshotAPI) error {
	reason := "Daytona gave no reason"
	if s.ErrorReason != nil && *s.ErrorReason != "" {
		reason = *s.ErrorReason
	}
	return fmt.Errorf("snapshot %s (%s) is in Daytona state %s: %s", s.ID, s.Name, s.State, reason)
}

// bytesPerGB: Daytona reports a snapshot's size in GB.
const bytesPerGB = 1 << 30

func snapshotFromAPI(s snapshotAPI) *platform.Snapshot {
	out := &platform.Snapshot{ID: s.ID, Name: s.Name, Kind: platform.SnapshotFilesystem, CreatedAt: s.CreatedAt.Time, Labels: map[string]string{}}
	if s.Size != nil {
		out.SizeBytes = int64(*s.Size * bytesPerGB)
	}
	return out
}

// Get implements platform.SnapshotService.
func (s *snapshots) Get(ctx context.Context, id string) (*platform.Snapshot, error) {
	a, err := (&templates{p: s.p}).read(ctx, id)
	if err != nil {
		return nil, restplatform.NotFound(err, "snapshot", id)
	}
	return snapshotFromAPI(a), nil
}

// List implements platform.SnapshotService: every page, newest first.
// Daytona snapshots name no source and carry no labels, so a filter on
// them matches nothing.
func (s *snapshots) List(ctx context.Context, filter platform.SnapshotFilter) ([]platform.Snapshot, error) {
	if filter.SandboxID != "" || filter.VolumeID != "" {
		// No snapshot names its source (Capabilities.SnapshotListsBySource
		// is false, so the provider never asks).
		return nil, &platform.UnsupportedError{Platform: platformName, Capability: "listing the snapshots of one sandbox"}
	}
	if len(filter.Labels) > 0 {
		return nil, nil // no snapshot carries labels, so none matches
	}
	rows, err := s.p.listSnapshots(ctx, filter.Name)
	if err != nil {
		return nil, err
	}
	var out []platform.Snapshot
	for _, r := range rows {
		if r.General || (filter.Name != "" && r.Name != filter.Name) {
			continue
		}
		out = append(out, *snapshotFromAPI(r))
	}
	return out, nil
}

// Delete implements platform.SnapshotService.
func (s *snapshots) Delete(ctx context.Context, id string) error {
	return (&templates{p: s.p}).Delete(ctx, id)
}
