package modal

import (
	"context"
	"fmt"
	"maps"
	"strings"

	modal "github.com/modal-labs/modal-client/go"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/lostcreate"
)

// platformRunning is the PlatformStatus of every box read: Modal has no
// sandbox states, only running (no result yet) and finished (gone, to the
// provider).
const platformRunning = "running"

// sandboxes are Modal Sandboxes of the platform's app. Modal reports of a
// box only whether it runs and its tags; everything else read back stays
// zero (the capabilities mark those attributes unreported).
type sandboxes struct{ p *Platform }

// isImageID reports whether a snapshot id is a filesystem snapshot (an
// image, im-…) rather than a memory snapshot.
func isImageID(id string) bool { return strings.HasPrefix(id, "im-") }

// isMemorySnapshotID tells a memory snapshot's id (Modal's sn- prefix).
func isMemorySnapshotID(id string) bool { return strings.HasPrefix(id, "sn-") }

// release lets go of the SDK's handle of a box: its command router
// connection, if one was opened, closes once idle.
func release(sb *modal.Sandbox) { _ = sb.Detach() }

// Create implements platform.SandboxService: a box from the template's (or
// filesystem snapshot's) image, or restored from a memory snapshot. Its
// tags carry the create's marks, so a create whose answer was lost is found
// by its token.
func (s *sandboxes) Create(ctx context.Context, spec platform.SandboxSpec) (*platform.Sandbox, error) {
	if err := refusedSettings(spec); err != nil {
		return nil, err
	}
	marks := spec.Marks.Ensure()
	tags := sandboxTags(spec, marks, s.p.now())
	if spec.FromSnapshotID != "" && !isImageID(spec.FromSnapshotID) {
		return s.restore(ctx, spec, marks, tags)
	}
	app, err := s.p.appFor(ctx, true)
	if err != nil {
		return nil, err
	}
	imageID, kind := spec.TemplateID, "template"
	if spec.FromSnapshotID != "" {
		imageID, kind = spec.FromSnapshotID, "snapshot"
	}
	image, err := s.p.client.Images.FromID(ctx, imageID, nil)
	if err != nil {
		return nil, notFoundOr(err, kind, imageID)
	}
	params, err := s.createParams(ctx, spec, tags)
	if err != nil {
		return nil, err
	}
	sb, err := s.p.client.Sandboxes.Create(ctx, app, image, params)
	if err != nil {
		return s.createFailed(ctx, spec, marks, err)
	}
	defer release(sb)
	return s.afterCreate(ctx, sb.SandboxID)
}

// refusedSettings refuses what Modal's boxes cannot be; the attribute
// table refuses these at plan time, so this guards other callers only.
func refusedSettings(spec platform.SandboxSpec) error {
	unsupported := func(what string) error {
		return &platform.UnsupportedError{Platform: platformName, Capability: what}
	}
	switch {
	case spec.State != "" && spec.State != platform.StateRunning:
		return unsupported("sandbox state " + string(spec.State) + " (a Modal sandbox only runs)")
	case spec.Region != "":
		return unsupported("region (the provider leaves placement to Modal)")
	case spec.DiskMB > 0:
		return unsupported("disk_mb")
	case spec.AutoResume:
		return unsupported("auto_resume")
	case spec.Lifecycle.OnTimeout != "" && spec.Lifecycle.OnTimeout != platform.OnTimeoutKill:
		return unsupported("on_timeout = " + string(spec.Lifecycle.OnTimeout))
	case spec.Lifecycle.AutoArchiveAfter > 0 || spec.Lifecycle.AutoDeleteAfter > 0:
		return unsupported("auto_archive_after and auto_delete_after")
	case spec.Network != nil && len(spec.Network.DenyOut) > 0:
		return unsupported("deny_out (Modal's outbound rules are allowlists)")
	}
	return nil
}

// createParams are the SDK's create parameters of a spec. A zero timeout
// leaves the SDK's (and Modal's) default, 300 seconds.
func (s *sandboxes) createParams(ctx context.Context, spec platform.SandboxSpec, tags map[string]string) (*modal.SandboxCreateParams, error) {
	params := &modal.SandboxCreateParams{
		CPU:                        float64(spec.CPUCount),
		MemoryMiB:                  int(spec.MemoryMB),
		Timeout:                    spec.Lifecycle.Timeout,
		IdleTimeout:                spec.Lifecycle.IdleTimeout,
		Env:                        maps.Clone(spec.Env),
		Name:                       spec.Name,
		Tags:                       tags,
		ExperimentalEnableSnapshot: spec.MemorySnapshots,
	}
	applyNetwork(params, spec.Network)
	for _, m := range spec.VolumeMounts {
		// A volume's id is its name: the SDK finds volumes by name only.
		vol, err := s.p.client.Volumes.FromName(ctx, m.VolumeID, nil)
		if err != nil {
			return nil, fmt.Errorf("volume_mount %s: %w", m.Path, notFoundOr(err, "volume", m.VolumeID))
		}
		if params.Volumes == nil {
			params.Volumes = map[string]*modal.Volume{}
		}
		readOnly, subpath := m.ReadOnly, m.Subpath
		params.Volumes[m.Path] = vol.WithMountOptions(&modal.VolumeMountOptionsParams{ReadOnly: &readOnly, SubPath: &subpath})
	}
	return params, nil
}

// afterCreate reads a box just made; it is returned even when the read
// fails, so the caller keeps it in state.
func (s *sandboxes) afterCreate(ctx context.Context, id string) (*platform.Sandbox, error) {
	s.p.recent.add(id)
	sb, err := s.Get(ctx, id)
	if err != nil {
		return &platform.Sandbox{ID: id, Status: platform.StateUnknown}, err
	}
	return sb, nil
}

// createFailed handles a create Modal refused or whose answer was lost:
// a taken name is this create's box only if it carries this create's
// token; a lost answer is looked for by the token and never sent again.
func (s *sandboxes) createFailed(ctx context.Context, spec platform.SandboxSpec, marks platform.Marks, err error) (*platform.Sandbox, error) {
	switch {
	case isAlreadyExists(err) && spec.Name != "":
		return s.nameTaken(ctx, spec.Name, marks)
	case mayHaveApplied(err):
		found, waited, ferr := lostcreate.FindSandbox(ctx, s.p.lookupSleep, s, marks.CreateToken)
		if found != nil {
			return s.afterCreate(ctx, found.ID)
		}
		what, find := lostcreate.DescribeSandbox(spec.Name, "Modal", "its tags hold", marks)
		return nil, &lostcreate.Error{What: what, Err: translate(err), Waited: waited, Lookup: ferr, Find: find,
			NotListed: fmt.Sprintf("After looking for it for %s, Modal does not list it.", waited)}
	}
	return nil, fmt.Errorf("creating the Modal sandbox: %w", translate(err))
}

// nameTaken is the box running under name: this create's (a retried
// create that was made after all), or a NotOwnedError.
func (s *sandboxes) nameTaken(ctx context.Context, name string, marks platform.Marks) (*platform.Sandbox, error) {
	sb, err := s.p.client.Sandboxes.FromName(ctx, s.p.appName, name, nil)
	if err != nil {
		return nil, fmt.Errorf("sandbox name %q is taken, and looking it up failed: %w", name, translate(err))
	}
	defer release(sb)
	tags, err := sb.GetTags(ctx, nil)
	if err != nil {
		return nil, notFoundOr(err, "sandbox", sb.SandboxID)
	}
	if !marks.MadeBy(tags) {
		return nil, notOwnedBox(name, sb.SandboxID, tags)
	}
	return s.afterCreate(ctx, sb.SandboxID)
}

// notOwnedBox is the NotOwnedError of the box id holding name, which
// another create made (its tags say so), or someone outside the provider.
func notOwnedBox(name, id string, tags map[string]string) error {
	detail := "made by another create"
	if tags[platform.LabelManaged] != "true" {
		detail = "made outside the provider (no sbx tags)"
	}
	return &platform.NotOwnedError{Kind: "sandbox", Name: name, ID: id, Detail: detail}
}

// Get implements platform.SandboxService. A finished box is gone to the
// provider: a NotFoundError whose Reason is what its exit code says.
func (s *sandboxes) Get(ctx context.Context, id string) (*platform.Sandbox, error) {
	sb, err := s.p.client.Sandboxes.FromID(ctx, id, nil)
	if err != nil {
		return nil, notFoundOr(err, "sandbox", id)
	}
	defer release(sb)
	tags, err := s.liveTags(ctx, sb)
	if err != nil {
		return nil, err
	}
	box := sandboxOf(id, tags)
	if err := s.foreignListed(ctx, box); err != nil {
		return nil, err
	}
	return box, nil
}

// liveTags are the tags of a running box; a finished one is a NotFoundError.
func (s *sandboxes) liveTags(ctx context.Context, sb *modal.Sandbox) (map[string]string, error) {
	code, err := sb.Poll(ctx, nil)
	if err != nil {
		return nil, notFoundOr(err, "sandbox", sb.SandboxID)
	}
	if code != nil {
		return nil, &platform.NotFoundError{Kind: "sandbox", ID: sb.SandboxID, Reason: finishedReason(*code)}
	}
	tags, err := sb.GetTags(ctx, nil)
	if err != nil {
		return nil, notFoundOr(err, "sandbox", sb.SandboxID)
	}
	return tags, nil
}

// finishedReason says how a box finished from the exit code the SDK gives:
// it maps Modal's timeout to 124 and termination to 137, and passes other
// codes through. Nothing more is known, so no cause is guessed.
func finishedReason(code int) string {
	switch code {
	case 124:
		return "finished: timed out (exit code 124)"
	case 137:
		return "finished: terminated (exit code 137)"
	}
	return fmt.Sprintf("finished (exit code %d)", code)
}

// sandboxOf is a running box as its tags describe it: Modal reports that
// it runs, and the tags what the provider recorded at its create.
func sandboxOf(id string, tags map[string]string) *platform.Sandbox {
	if tags == nil {
		tags = map[string]string{}
	}
	sb := &platform.Sandbox{
		ID: id, Name: tags[platform.LabelName],
		TemplateID: tags[tagTemplate], FromSnapshotID: tags[tagFromSnapshot],
		Status: platform.StateRunning, PlatformStatus: platformRunning,
		Labels:          tags,
		MemorySnapshots: tags[tagMemorySnapshots] == "true",
		VolumeMounts:    mountsOf(tags),
		CreatedAt:       unixTag(tags, tagCreated),
		MadeWith:        platform.MarksOf(tags),
		Unreported:      unreportedOf(tags),
	}
	sb.StartedAt = sb.CreatedAt
	sent := sentTimeout(tags)
	if sent > 0 && !sb.CreatedAt.IsZero() {
		sb.ExpiresAt = sb.CreatedAt.Add(sent)
	}
	sb.Lifecycle.Timeout = configuredTimeout(sent)
	return sb
}

// List implements platform.SandboxService: the app's running boxes that
// carry the managed tag (with filter.AnyMaker, made by anyone) and the
// filter's labels (Modal filters by tags), each read for its tags. Modal
// lists no finished box.
func (s *sandboxes) List(ctx context.Context, filter platform.SandboxFilter) ([]platform.Sandbox, error) {
	if filter.Status != "" && filter.Status != platform.StateRunning {
		return nil, nil
	}
	app, err := s.p.appFor(ctx, false)
	if err != nil || app == nil {
		return nil, err
	}
	want := maps.Clone(filter.Labels)
	if want == nil {
		want = map[string]string{}
	}
	if !filter.AnyMaker {
		want[platform.LabelManaged] = "true"
	}
	// The recorder keeps what each answer reports of a box beyond its id
	// (listed.go): a foreign box's name and image.
	rec := &listedRecorder{}
	listed, err := s.p.client.Sandboxes.List(withListedRecorder(ctx, rec), &modal.SandboxListParams{AppID: app.AppID, Tags: want})
	if err != nil {
		return nil, fmt.Errorf("listing Modal sandboxes: %w", translate(err))
	}
	var out []platform.Sandbox
	for sb, err := range listed {
		if err != nil {
			return nil, fmt.Errorf("listing Modal sandboxes: %w", translate(err))
		}
		tags, err := sb.GetTags(ctx, nil)
		release(sb)
		if isNotFound(err) {
			continue // gone since it was listed
		}
		if err != nil {
			return nil, fmt.Errorf("reading the tags of sandbox %s: %w", sb.SandboxID, translate(err))
		}
		// Modal filters by tags already; checking again keeps a lenient server honest.
		if platform.MatchLabels(tags, want) {
			box := sandboxOf(sb.SandboxID, tags)
			if b, ok := rec.box(sb.SandboxID); ok {
				withListed(box, b)
			}
			box.Managed = tags[platform.LabelManaged] == "true"
			out = append(out, *box)
		}
	}
	// Modal's list may not show a box made a moment ago (recent.go).
	return s.withRecent(ctx, out, want)
}

// SetState implements platform.SandboxService: a Modal box only runs (no
// pause, no stop that keeps it), so running is the box as it is and any
// other state is unsupported; the attribute table allows only running.
func (s *sandboxes) SetState(ctx context.Context, id string, state platform.SandboxState) (*platform.Sandbox, error) {
	if state == platform.StateRunning {
		return s.Get(ctx, id)
	}
	return nil, &platform.UnsupportedError{Platform: platformName, Capability: "sandbox state " + string(state) + " (a Modal sandbox only runs)"}
}

// Update implements platform.SandboxService: only labels change in place
// (the tags, replaced as a whole with the reserved ones kept).
func (s *sandboxes) Update(ctx context.Context, id string, change platform.SandboxUpdate) (*platform.Sandbox, error) {
	if change.CPUCount != nil || change.MemoryMB != nil || change.DiskMB != nil || change.Env != nil ||
		change.Lifecycle != nil || change.Network != nil {
		return nil, &platform.UnsupportedError{Platform: platformName, Capability: "changing a live sandbox other than its labels"}
	}
	if change.Labels == nil {
		return s.Get(ctx, id)
	}
	err := s.p.editTags(ctx, id, func(tags map[string]string) map[string]string {
		return relabelled(tags, *change.Labels)
	})
	if err != nil {
		return nil, err
	}
	return s.Get(ctx, id)
}

// Delete implements platform.SandboxService: it terminates the box at
// once; a box already gone is fine.
func (s *sandboxes) Delete(ctx context.Context, id string) error {
	sb, err := s.p.client.Sandboxes.FromID(ctx, id, nil)
	if err != nil {
		return translate(err)
	}
	defer release(sb)
	if _, err := sb.Terminate(ctx, nil); err != nil && !isNotFound(err) {
		return fmt.Errorf("terminating sandbox %s: %w", id, translate(err))
	}
	return nil
}
