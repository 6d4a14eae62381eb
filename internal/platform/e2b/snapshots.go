package e2b

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/restplatform"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

// snapshots are E2B sandbox snapshots. E2B stores a snapshot as a template
// holding the box's filesystem and memory; it reports only the snapshot's id
// and names (no time, size or labels), and keeps it until it is deleted.
type snapshots struct{ p *Platform }

// Create snapshots a sandbox. The box is paused briefly and resumed by E2B.
// E2B snapshots only running boxes (a paused one is "not found"), so a
// paused box is resumed for the snapshot and paused again afterwards, with
// its memory unless the provider recorded it as stopped, whatever happens
// to the snapshot.
func (s *snapshots) Create(ctx context.Context, spec platform.SnapshotSpec) (snap *platform.Snapshot, err error) {
	switch {
	case spec.VolumeID != "":
		return nil, &platform.UnsupportedError{Platform: "e2b", Capability: "volume snapshots"}
	case !spec.IncludeMemory:
		return nil, &platform.UnsupportedError{Platform: "e2b", Capability: "filesystem-only snapshots (E2B snapshots always hold memory; leave include_memory out or set it to true)"}
	case spec.TTL != 0:
		return nil, &platform.UnsupportedError{Platform: "e2b", Capability: "snapshot ttl (E2B keeps snapshots until they are deleted)"}
	case len(spec.Labels) > 0:
		return nil, &platform.UnsupportedError{Platform: "e2b", Capability: "snapshot labels (E2B snapshots have only a name)"}
	}
	// Alone on the box: another snapshot or network change of it would
	// find it running and leave it to this one to pause it again, or
	// find it paused again half-way.
	defer s.p.lockBox(spec.SandboxID)()
	boxes := &sandboxes{p: s.p}
	d, err := boxes.detail(ctx, spec.SandboxID)
	if err != nil {
		return nil, err
	}
	box := sandboxFromDetail(d, nil)
	if err := s.refuseTakenName(ctx, spec.Name); err != nil {
		return nil, err
	}
	// A box not running is resumed for the snapshot and paused again
	// afterwards, whatever happens, also after a resume whose answer was
	// lost (a box still paused answers the pause with a conflict, which is
	// no error).
	resumed := false
	defer func() {
		if !resumed {
			return
		}
		if perr := s.pauseAgain(ctx, spec); perr != nil {
			err = errors.Join(err, perr)
		}
	}()
	var info snapshotInfo
	for attempt := 1; ; attempt++ {
		if d.State != "running" {
			resumed = true
			if err := boxes.resume(ctx, spec.SandboxID, d); err != nil {
				return nil, fmt.Errorf("resume the %s sandbox to snapshot it (E2B snapshots only running sandboxes): %w",
					d.State, restplatform.NotFound(err, "sandbox", spec.SandboxID))
			}
		}
		made, retry, err := s.take(ctx, spec, attempt)
		if err != nil {
			return nil, err
		}
		if made != nil {
			info = *made
			break
		}
		d = *retry
	}
	snap = snapshotFromInfo(info)
	snap.SandboxID = spec.SandboxID
	snap.ParentSnapshotID = box.FromSnapshotID
	if snap.Name == "" {
		snap.Name = spec.Name
	}
	return snap, nil
}

// take sends the snapshot request once. A box that began to pause on its
// own (its timeout, a dashboard user) between the read and the request is
// answered 409: E2B cannot move a pausing box to snapshotting
// (e2b-dev/infra, handlers/snapshot_template_create.go). On the first
// attempt such a box is read again and, when it reads paused, returned as
// retry, to be resumed (E2B's connect waits out the pause) and snapshotted
// like any paused box.
func (s *snapshots) take(ctx context.Context, spec platform.SnapshotSpec, attempt int) (made *snapshotInfo, retry *sandboxDetail, err error) {
	// The box's earlier snapshots, so a create whose answer was lost can
	// tell the one it made from those.
	before, err := s.list(ctx, url.Values{"sandboxID": {spec.SandboxID}})
	if err != nil {
		return nil, nil, err
	}
	var info snapshotInfo
	_, err = s.p.do(ctx, "POST", "/sandboxes/"+pathID(spec.SandboxID)+"/snapshots", nil, snapshotRequest{Name: spec.Name}, &info)
	switch {
	case err == nil:
		return &info, nil, nil
	case errors.Is(err, rest.ErrMaybeApplied):
		made, lerr := s.findLost(ctx, spec, before, err)
		return made, nil, lerr
	case rest.IsConflict(err) && attempt == 1:
		d, gerr := (&sandboxes{p: s.p}).detail(ctx, spec.SandboxID)
		if gerr == nil && d.State != "running" {
			return nil, &d, nil
		}
	}
	return nil, nil, s.snapshotRefused(ctx, spec.SandboxID, err)
}

// snapshotRefused explains a refused snapshot. E2B answers "not found" for
// a box that exists but is not running (paused meanwhile, by its timeout or
// by someone else): that box is named as paused, never as missing.
func (s *snapshots) snapshotRefused(ctx context.Context, id string, err error) error {
	if !rest.IsNotFound(err) {
		return err
	}
	d, gerr := (&sandboxes{p: s.p}).detail(ctx, id)
	if gerr != nil || d.State == "running" {
		return restplatform.NotFound(err, "sandbox", id)
	}
	return fmt.Errorf("sandbox %s was %s while it was being snapshotted (E2B snapshots only running sandboxes); "+
		"apply again", id, d.State)
}

// pauseAgain pauses a box resumed for its snapshot again: without its
// memory when the provider recorded it stopped, else with it (E2B does not
// say which kind of pause a box had; keeping memory loses nothing), never
// leaving it running (sandboxes.pauseAfter).
func (s *snapshots) pauseAgain(ctx context.Context, spec platform.SnapshotSpec) error {
	memory := spec.SandboxState != platform.StateStopped
	if err := (&sandboxes{p: s.p}).pauseAfter(ctx, spec.SandboxID, memory); err != nil {
		kind := "paused"
		if !memory {
			kind = "stopped"
		}
		return fmt.Errorf("sandbox %s was resumed to be snapshotted and could not be %s again: %w (apply again to "+
			"bring it back to its configured state)", spec.SandboxID, kind, err)
	}
	return nil
}

// findLost finds the snapshot a create whose answer (createErr) was lost
// made: the new one among the box's snapshots (see newSnapshot), looked for
// with backoff, as E2B lists a new snapshot only after a delay. The create
// is never sent again: a snapshot not listed yet may still exist.
func (s *snapshots) findLost(ctx context.Context, spec platform.SnapshotSpec, before []snapshotInfo, createErr error) (*snapshotInfo, error) {
	var made *snapshotInfo
	var ambiguous error
	ok, waited, ferr := s.p.findLost(ctx, func(ctx context.Context) (bool, error) {
		after, lerr := s.list(ctx, url.Values{"sandboxID": {spec.SandboxID}})
		if lerr != nil {
			return false, lerr
		}
		made, ambiguous = newSnapshot(before, after, spec.Name)
		return made != nil || ambiguous != nil, nil
	})
	switch {
	case ambiguous != nil:
		return nil, fmt.Errorf("%w; %w", createErr, ambiguous)
	case ok:
		tflog.Info(ctx, "the snapshot create's answer was lost; found the snapshot it made", map[string]any{"id": made.SnapshotID, "waited": waited.String()})
		return made, nil
	}
	what, named := "snapshot", ""
	if spec.Name != "" {
		what, named = fmt.Sprintf("snapshot %q", spec.Name), fmt.Sprintf(" named %q", spec.Name)
	}
	return nil, lostCreate(what, createErr, waited, ferr, fmt.Sprintf(
		"If it was made, E2B will list a new snapshot%s of sandbox %s (the sbx_snapshots data source with sandbox_id finds it): "+
			"import it (terraform import <address> <snapshot id>) or delete it, then apply again.", named, spec.SandboxID))
}

// newSnapshot returns the snapshot a create whose answer was lost made: the
// one in after that is not in before and carries the name asked for. Another
// snapshot of the same box may have been taken meanwhile (a second resource,
// or a user outside Terraform), so when several new ones fit it cannot tell
// which is this create's and says so, rather than adopting another's snapshot
// (deleting it later would destroy theirs) or sending the create again.
func newSnapshot(before, after []snapshotInfo, name string) (*snapshotInfo, error) {
	var fits []snapshotInfo
	for _, a := range after {
		if slices.ContainsFunc(before, func(b snapshotInfo) bool { return b.SnapshotID == a.SnapshotID }) {
			continue
		}
		if name != "" && !slices.ContainsFunc(a.Names, func(n string) bool { return shortName(n) == name }) {
			continue
		}
		fits = append(fits, a)
	}
	if name == "" {
		// E2B names a snapshot only when asked to, so an unnamed create's
		// snapshot is among the unnamed ones, if any are.
		unnamed := slices.DeleteFunc(slices.Clone(fits), func(a snapshotInfo) bool { return len(a.Names) > 0 })
		if len(unnamed) > 0 {
			fits = unnamed
		}
	}
	switch len(fits) {
	case 0:
		return nil, nil
	case 1:
		return &fits[0], nil
	}
	ids := make([]string, len(fits))
	for i, f := range fits {
		ids[i] = f.SnapshotID
	}
	return nil, fmt.Errorf("%d new snapshots of the sandbox appeared meanwhile (%s) and none can be told apart as this one; "+
		"import the right one (terraform import) and delete the others, or give the snapshot a name", len(fits), strings.Join(ids, ", "))
}

func (s *snapshots) list(ctx context.Context, q url.Values) ([]snapshotInfo, error) {
	return listAll[snapshotInfo](ctx, s.p, "/snapshots", q)
}

// snapshotFromInfo normalizes a SnapshotInfo. Its name is the name part of
// its first full name ("team/name:tag" → "name").
func snapshotFromInfo(i snapshotInfo) *platform.Snapshot {
	snap := &platform.Snapshot{ID: i.SnapshotID, Kind: platform.SnapshotMemory, Labels: map[string]string{}}
	if len(i.Names) > 0 {
		snap.Name = shortName(i.Names[0])
	}
	return snap
}

// Get finds the snapshot by id; E2B has no endpoint for one snapshot, so
// the list is filtered by it.
func (s *snapshots) Get(ctx context.Context, id string) (*platform.Snapshot, error) {
	rows, err := s.list(ctx, url.Values{"name": {id}})
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		if r.SnapshotID == id {
			return snapshotFromInfo(r), nil
		}
	}
	return nil, &platform.NotFoundError{Kind: "snapshot", ID: id}
}

// List reads every page of snapshots; E2B returns no creation times, so the
// order is the platform's.
func (s *snapshots) List(ctx context.Context, filter platform.SnapshotFilter) ([]platform.Snapshot, error) {
	if filter.VolumeID != "" {
		return nil, nil // E2B has no volume snapshots
	}
	if len(filter.Labels) > 0 {
		return nil, nil // nor snapshot labels
	}
	q := url.Values{}
	if filter.SandboxID != "" {
		q.Set("sandboxID", filter.SandboxID)
	}
	if filter.Name != "" {
		q.Set("name", filter.Name)
	}
	rows, err := s.list(ctx, q)
	if err != nil {
		return nil, err
	}
	out := make([]platform.Snapshot, 0, len(rows))
	for _, r := range rows {
		snap := snapshotFromInfo(r)
		if filter.Name != "" && snap.Name != filter.Name {
			continue
		}
		snap.SandboxID = filter.SandboxID
		out = append(out, *snap)
	}
	return out, nil
}

// Delete removes the snapshot's template; one already gone is not an error.
func (s *snapshots) Delete(ctx context.Context, id string) error {
	_, err := s.p.do(ctx, "DELETE", "/templates/"+pathID(id), nil, nil, nil)
	if rest.IsNotFound(err) {
		return nil
	}
	return err
}

// refuseTakenName stops a snapshot under a name another snapshot already
// has. E2B stores a snapshot as a template, and a second snapshot under the
// same name becomes a new build of that template with the same id: two
// sbx_snapshot resources would then share one snapshot, and destroying
// either would delete the other's.
func (s *snapshots) refuseTakenName(ctx context.Context, name string) error {
	if name == "" {
		return nil
	}
	taken, err := s.list(ctx, url.Values{"name": {name}})
	if err != nil {
		return err
	}
	for _, t := range taken {
		if slices.ContainsFunc(t.Names, func(n string) bool { return shortName(n) == name }) {
			return &platform.NotOwnedError{Kind: "snapshot", Name: name, ID: t.SnapshotID,
				Detail: "on E2B a second snapshot under that name would become a new build of the same snapshot, shared by both"}
		}
	}
	return nil
}
