package fly

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/lostcreate"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/restplatform"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

// labelTemplate is the machine metadata key holding the template id the
// machine was made from (a Fly machine knows only its image).
const labelTemplate = platform.LabelPrefix + "template"

// labelLaunch is the machine metadata key that remembers what the create
// asked of Fly: launchLaunched (no skip_launch: Fly launches the machine,
// which reads "created" until it is "starting", then "started") or
// launchSkipped (skip_launch: "created" is a machine at rest that never
// ran). Fly's machine does not say which it is (its config has no
// skip_launch, and both have one "launch" event until the launch starts),
// so the provider writes it in the create, atomically with the machine.
// A "created" machine without it (made outside the provider, or by a
// provider before this key) reads as at rest, as Fly's docs define
// "created"; a start that Fly refuses because it is launching after all
// ("machine still active") waits for the launch instead.
const labelLaunch = platform.LabelPrefix + "launch"

const (
	launchLaunched = "launched"
	launchSkipped  = "skipped"
)

// launching: m was created to launch and has not started yet.
func launching(m *machine) bool {
	return m.State == flyCreated && m.Config.Metadata[labelLaunch] == launchLaunched
}

// Fly machine states (spec Machine.state; fly-go machine_types.go adds
// suspending and suspended).
const (
	flyCreated    = "created"
	flyStarting   = "starting"
	flyStarted    = "started"
	flyStopping   = "stopping"
	flyStopped    = "stopped"
	flySuspending = "suspending"
	flySuspended  = "suspended"
	flyUpdating   = "updating"
	flyReplacing  = "replacing"
	flyDestroying = "destroying"
	flyDestroyed  = "destroyed"
	flyFailed     = "failed"
)

// noteColdBoot is added to PlatformStatus when Fly's events say the
// machine's suspend snapshot was discarded: its next start (or the one that
// followed) is a cold boot, its memory lost.
const noteColdBoot = " (Fly discarded the suspend snapshot: the machine resumes with a cold boot, its memory lost)"

type sandboxes struct{ p *Platform }

// Create implements platform.SandboxService: POST /apps/{app}/machines
// with config {image, guest, env, metadata, mounts}, then brings the
// machine to spec.State.
func (s *sandboxes) Create(ctx context.Context, spec platform.SandboxSpec) (*platform.Sandbox, error) {
	if spec.FromSnapshotID != "" {
		return nil, &platform.UnsupportedError{Platform: platformName, Capability: "starting a sandbox from a snapshot (Fly restores volumes, not machines)"}
	}
	if len(spec.VolumeMounts) > 1 {
		return nil, fmt.Errorf("a Fly machine mounts at most one volume, not %d", len(spec.VolumeMounts))
	}
	_, image := parseTemplateID(spec.TemplateID)
	if image == "" {
		return nil, fmt.Errorf("sandbox: template %q names no image", spec.TemplateID)
	}
	if err := s.p.ensureApp(ctx); err != nil {
		return nil, err
	}
	marks := spec.Marks.Ensure()
	md := map[string]string{}
	maps.Copy(md, spec.Labels)
	maps.Copy(md, marks.Labels())
	md[platform.LabelManaged] = "true"
	md[platform.LabelKind] = platform.KindSandbox
	md[labelTemplate] = spec.TemplateID
	if spec.Name != "" {
		md[platform.LabelName] = spec.Name
	}
	region := spec.Region
	if region == "" {
		region = s.p.region
	}
	cfg := machineConfig{Image: image, Env: spec.Env, Metadata: md, Guest: guestOf(spec.CPUCount, spec.MemoryMB)}
	for _, m := range spec.VolumeMounts {
		if m.ReadOnly || m.Subpath != "" {
			return nil, &platform.UnsupportedError{Platform: platformName, Capability: "read-only or subpath volume mounts"}
		}
		if err := s.checkMountRegion(ctx, m.VolumeID, region, spec.Name); err != nil {
			return nil, err
		}
		cfg.Mounts = append(cfg.Mounts, mount{Volume: m.VolumeID, Path: m.Path})
	}
	want := spec.State
	if want == "" {
		want = platform.StateRunning
	}
	// A machine wanted stopped is made without launching it (skip_launch:
	// state created, at rest, which reads as stopped). Any other is
	// launched by the create itself: Fly answers "created" and boots it,
	// and a start sent meanwhile is refused (412 "machine still active,
	// refusing to start"), so the create waits for the launch instead, as
	// flyctl does (WaitForStartOrStop after a launch).
	skip := want == platform.StateStopped
	md[labelLaunch] = launchLaunched
	if skip {
		md[labelLaunch] = launchSkipped
	}
	body := createMachine{Name: spec.Name, Region: region, Config: cfg, SkipLaunch: skip}
	var created machine
	_, err := s.p.do(ctx, http.MethodPost, s.p.appPath("machines"), nil, body, &created)
	if rest.IsConflict(err) && spec.Name != "" {
		// The name is taken (machine names are unique in an app): by a
		// machine of this create only if it carries this create's token.
		id, cerr := s.nameTaken(ctx, spec.Name, marks)
		if cerr != nil {
			return nil, cerr
		}
		created.ID, err = id, nil
	}
	if err != nil {
		// Fly answers 408 when a create outlasts its deadline, which
		// flyctl treats as "may have happened".
		if !errors.Is(err, rest.ErrMaybeApplied) && !rest.IsStatus(err, http.StatusRequestTimeout) {
			return nil, fmt.Errorf("creating the machine: %s", flyError(err))
		}
		// flyctl: a 408 on create may have made the machine. Find it by
		// this create's token before anything else; never send it again.
		found, waited, ferr := lostcreate.FindSandbox(ctx, s.p.lookupSleep, s, marks.CreateToken)
		if found == nil {
			what, find := lostcreate.DescribeSandbox(spec.Name, "Fly", "its metadata holds", marks)
			return nil, &lostcreate.Error{What: what, Err: err, Waited: waited, Lookup: ferr, Find: find,
				NotListed: fmt.Sprintf("After looking for it for %s, Fly still does not list it.", waited)}
		}
		created.ID = found.ID
	}
	s.p.remember(created.ID, spec.Name)
	if !skip {
		// GET .../wait?state=started, bounded by ctx (the create timeout).
		if err := s.p.waitMachine(ctx, created.ID, "", flyStarted); err != nil {
			sb := &platform.Sandbox{ID: created.ID, Status: platform.StateStarting}
			if got, gerr := s.Get(ctx, created.ID); gerr == nil {
				sb = got
			}
			return sb, fmt.Errorf("waiting for machine %s to launch: %w", created.ID, err)
		}
	}
	sb, err := s.SetState(ctx, created.ID, want)
	if err != nil {
		if sb == nil {
			sb = &platform.Sandbox{ID: created.ID, Status: platform.StateUnknown}
			if got, gerr := s.Get(ctx, created.ID); gerr == nil {
				sb = got
			}
		}
		return sb, err
	}
	return sb, nil
}

// checkMountRegion refuses a volume in another region than the machine's
// (Fly: a machine mounts a volume of its own region), with a clear error,
// and a volume another machine mounts (Fly: one machine per volume).
func (s *sandboxes) checkMountRegion(ctx context.Context, volumeID, region, name string) error {
	v, err := (&volumes{p: s.p}).get(ctx, volumeID)
	if err != nil {
		return err
	}
	if region != "" && v.Region != region {
		return fmt.Errorf("volume %s is in region %s, the machine in %s: Fly mounts a volume only on a machine of its region; "+
			"set the sandbox's region to %q or make the volume in %q", volumeID, v.Region, region, v.Region, region)
	}
	if v.AttachedMachineID != "" {
		return s.mountedBy(ctx, volumeID, v.AttachedMachineID, name)
	}
	return nil
}

// mountedBy is the error of a create whose volume machineID already
// mounts. A machine the provider made is most likely this configuration's
// box, made by an apply killed before it saved it: the error then says
// how to import it, rather than only that the volume is taken.
func (s *sandboxes) mountedBy(ctx context.Context, volumeID, machineID, name string) error {
	if holder, here := s.p.madeHere(machineID); here {
		// Both boxes are of this apply: two sbx_sandbox mount one volume.
		who := "machine " + machineID
		if holder != "" {
			who += fmt.Sprintf(" (sandbox %q)", holder)
		}
		return &platform.ConflictError{Kind: "volume", ID: volumeID, Reason: "already mounted by " + who +
			", which this apply created: two sbx_sandbox mount this volume, and Fly mounts a volume on one machine only; give each sandbox its own sbx_volume"}
	}
	taken := &platform.ConflictError{Kind: "volume", ID: volumeID, Reason: "already mounted by machine " + machineID + " (Fly: one machine per volume)"}
	m, err := s.Get(ctx, machineID)
	if err != nil || m.Labels[platform.LabelManaged] != "true" {
		return taken
	}
	if name == "" {
		name = m.Name
	}
	return &platform.NotOwnedError{Kind: "sandbox", Name: name, ID: machineID,
		Detail: fmt.Sprintf("machine %s, made by the provider (create token %s), already mounts volume %s, and Fly mounts a volume "+
			"on one machine only; if no state holds it, an apply was interrupted before saving it", machineID, m.Labels[platform.LabelCreateToken], volumeID)}
}

// guestOf is the machine's guest for a size (nil: Fly's default,
// shared-cpu-1x with 256 MB).
func guestOf(cpus, memoryMB int64) *guest {
	if cpus == 0 && memoryMB == 0 {
		return nil
	}
	g := &guest{CPUKind: "shared", CPUs: cpus, MemoryMB: memoryMB}
	if g.CPUs == 0 {
		g.CPUs = 1
	}
	if g.MemoryMB == 0 {
		g.MemoryMB = 256 * g.CPUs
	}
	return g
}

func (s *sandboxes) read(ctx context.Context, id string) (*machine, error) {
	var m machine
	_, err := s.p.do(ctx, http.MethodGet, s.p.itemPath("machines", id), nil, nil, &m)
	if err != nil {
		return nil, restplatform.NotFound(err, "sandbox", id)
	}
	if m.State == flyDestroyed || m.State == flyDestroying {
		return nil, &platform.NotFoundError{Kind: "sandbox", ID: id}
	}
	return &m, nil
}

// Get implements platform.SandboxService.
func (s *sandboxes) Get(ctx context.Context, id string) (*platform.Sandbox, error) {
	m, err := s.read(ctx, id)
	if err != nil {
		return nil, err
	}
	return toSandbox(m), nil
}

// List implements platform.SandboxService: the app's machines the
// provider manages (with filter.AnyMaker, every machine of the app),
// filtered by metadata.{key}=value as Fly does.
func (s *sandboxes) List(ctx context.Context, filter platform.SandboxFilter) ([]platform.Sandbox, error) {
	q := url.Values{}
	for k, v := range filter.Labels {
		q.Set("metadata."+k, v)
	}
	var ms []machine
	if _, err := s.p.do(ctx, http.MethodGet, s.p.appPath("machines"), q, nil, &ms); err != nil {
		if rest.IsNotFound(err) { // no app yet: no machines
			return nil, nil
		}
		return nil, err
	}
	var out []platform.Sandbox
	for i := range ms {
		m := &ms[i]
		if m.State == flyDestroyed || m.State == flyDestroying || (!filter.AnyMaker && m.Config.Metadata[platform.LabelManaged] != "true") {
			continue
		}
		if !platform.MatchLabels(m.Config.Metadata, filter.Labels) {
			continue
		}
		sb := toSandbox(m)
		if filter.Status != "" && sb.Status != filter.Status {
			continue
		}
		out = append(out, *sb)
	}
	return out, nil
}

// SetState implements platform.SandboxService: start, stop or suspend,
// then GET .../wait for the state, bounded by ctx.
func (s *sandboxes) SetState(ctx context.Context, id string, state platform.SandboxState) (*platform.Sandbox, error) {
	target := map[platform.SandboxState]string{platform.StateRunning: flyStarted, platform.StatePaused: flySuspended, platform.StateStopped: flyStopped}[state]
	if target == "" {
		return nil, fmt.Errorf("sandbox %s: cannot move to %q", id, state)
	}
	for range 4 {
		m, err := s.settled(ctx, id)
		if err != nil {
			return nil, err
		}
		cur := m.State
		if cur == flyCreated { // at rest: settled waited out a launch
			cur = flyStopped
		}
		if cur == target {
			return toSandbox(m), nil
		}
		var action string
		switch {
		case target == flyStarted:
			action = "start"
		case target == flyStopped:
			action = "stop"
		case target == flySuspended && cur == flyStarted:
			action = "suspend" // fly-go flaps_machines.go Suspend
		default:
			// Fly suspends only a started machine: start it first.
			action = "start"
		}
		if _, err := s.p.do(ctx, http.MethodPost, s.p.itemPath("machines", id, action), nil, nil, nil); err != nil {
			if action != "start" || !stillActive(err) {
				return nil, fmt.Errorf("%s machine %s: %s", action, id, flyError(restplatform.NotFound(err, "sandbox", id)))
			}
			// Fly says the machine is active: a "created" machine the
			// provider did not mark (see labelLaunch) was launching after
			// all. Wait for the launch rather than fail.
		}
		waitState := map[string]string{"start": flyStarted, "stop": flyStopped, "suspend": flySuspended}[action]
		if err := s.p.waitMachine(ctx, id, m.InstanceID, waitState); err != nil {
			return nil, err
		}
	}
	m, err := s.read(ctx, id)
	if err != nil {
		return nil, err
	}
	return toSandbox(m), fmt.Errorf("machine %s did not reach %s (it is %s)", id, target, m.State)
}

// settled reads the machine until it is in no transitional state:
// starting, stopping, suspending, updating, replacing, or created while it
// launches (see labelLaunch). A launch is waited out with GET .../wait
// for started, as flyctl does; the others by reading again.
func (s *sandboxes) settled(ctx context.Context, id string) (*machine, error) {
	for {
		m, err := waitFor(ctx, s.p, func(ctx context.Context) (*machine, error) { return s.read(ctx, id) },
			func(m *machine) (bool, error) { return !transitional(m.State), nil })
		if err != nil || !launching(m) {
			return m, err
		}
		if err := s.p.waitMachine(ctx, id, "", flyStarted); err != nil {
			return nil, err
		}
	}
}

// transitional: a state Fly leaves on its own (docs machines/machine-states,
// transient states), which the provider waits out.
func transitional(state string) bool {
	switch state {
	case flyStarting, flyStopping, flySuspending, flyUpdating, flyReplacing:
		return true
	}
	return false
}

// betweenStates: Fly refused an action because the machine is in a
// transitional state (412 "failed_precondition: unable to ... from current
// state").
func betweenStates(err error) bool {
	var api *rest.APIError
	return errors.As(err, &api) && api.StatusCode == http.StatusPreconditionFailed && strings.Contains(api.Message, "current state")
}

// stillActive: Fly refused a start because the machine is launching,
// starting or started (412 "failed_precondition: machine still active,
// refusing to start").
func stillActive(err error) bool {
	var api *rest.APIError
	return errors.As(err, &api) && api.StatusCode == http.StatusPreconditionFailed && strings.Contains(api.Message, "still active")
}

// Update implements platform.SandboxService: a full-config machine update
// (POST /apps/{app}/machines/{id}): same id, new version. A machine not
// started is updated with skip_launch and stays down; a suspended one
// loses its suspend snapshot to the update, so it is started and
// suspended again.
func (s *sandboxes) Update(ctx context.Context, id string, change platform.SandboxUpdate) (*platform.Sandbox, error) {
	if change.DiskMB != nil || change.Lifecycle != nil || change.Network != nil {
		return nil, &platform.UnsupportedError{Platform: platformName, Capability: "changing a machine's disk, lifecycle or network"}
	}
	m, err := s.settled(ctx, id)
	if err != nil {
		return nil, err
	}
	var raw struct {
		Config map[string]any `json:"config"`
	}
	if _, err := s.p.do(ctx, http.MethodGet, s.p.itemPath("machines", id), nil, nil, &raw); err != nil {
		return nil, restplatform.NotFound(err, "sandbox", id)
	}
	cfg := raw.Config
	if cfg == nil {
		cfg = map[string]any{}
	}
	if change.CPUCount != nil || change.MemoryMB != nil {
		cpus, mem := int64(0), int64(0)
		if m.Config.Guest != nil {
			cpus, mem = m.Config.Guest.CPUs, m.Config.Guest.MemoryMB
		}
		if change.CPUCount != nil {
			cpus = *change.CPUCount
		}
		if change.MemoryMB != nil {
			mem = *change.MemoryMB
		}
		if g := guestOf(cpus, mem); g != nil {
			cfg["guest"] = g
		} else {
			cfg["guest"] = guestOf(1, 256)
		}
	}
	if change.Env != nil {
		cfg["env"] = *change.Env
	}
	if change.Labels != nil {
		md := map[string]string{}
		for k, v := range m.Config.Metadata {
			if platform.IsReservedLabel(k) || !isUserKey(k) {
				md[k] = v
			}
		}
		maps.Copy(md, *change.Labels)
		cfg["metadata"] = md
	}
	body := map[string]any{"config": cfg, "skip_launch": m.State != flyStarted}
	var updated machine
	_, err = s.p.doRepeatable(ctx, http.MethodPost, s.p.itemPath("machines", id), body, &updated)
	if betweenStates(err) {
		// The machine is between states: most likely this very update,
		// whose first answer was lost and which the client sent again
		// while Fly applied it. Wait for it to settle and send the same
		// config once more (an update sets the whole config: sent twice,
		// it changes nothing more).
		if m, err = s.settled(ctx, id); err != nil {
			return nil, err
		}
		body["skip_launch"] = m.State != flyStarted
		_, err = s.p.doRepeatable(ctx, http.MethodPost, s.p.itemPath("machines", id), body, &updated)
	}
	if err != nil {
		return nil, fmt.Errorf("updating machine %s: %s", id, flyError(restplatform.NotFound(err, "sandbox", id)))
	}
	want := toSandbox(m).Status
	switch want {
	case platform.StateRunning, platform.StatePaused, platform.StateStopped:
	default:
		want = platform.StateRunning
	}
	if m.State == flyStarted {
		if err := s.p.waitMachine(ctx, id, updated.InstanceID, flyStarted); err != nil {
			return nil, err
		}
	}
	return s.SetState(ctx, id, want)
}

// isUserKey tells a user label from metadata Fly itself writes
// (fly_platform_version, fly_process_group, ...), which an update keeps.
func isUserKey(k string) bool { return !strings.HasPrefix(k, "fly_") }

// Delete implements platform.SandboxService: DELETE ?kill=true (fly-go
// flaps_machines.go Destroy; the docs' force=true), no stop grace period.
func (s *sandboxes) Delete(ctx context.Context, id string) error {
	q := url.Values{"kill": {"true"}, "force": {"true"}}
	_, err := s.p.do(ctx, http.MethodDelete, s.p.itemPath("machines", id), q, nil, nil)
	if rest.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("destroying machine %s: %s", id, flyError(err))
	}
	// Wait until it is destroyed, so that its volume is free for the next
	// machine (a replacement mounts it at once).
	_, err = waitFor(ctx, s.p, func(ctx context.Context) (string, error) {
		var m machine
		_, err := s.p.do(ctx, http.MethodGet, s.p.itemPath("machines", id), nil, nil, &m)
		if rest.IsNotFound(err) {
			return flyDestroyed, nil
		}
		return m.State, err
	}, func(state string) (bool, error) { return state == flyDestroyed, nil })
	if err != nil {
		return fmt.Errorf("waiting for machine %s to be destroyed: %w", id, err)
	}
	return nil
}

// toSandbox converts a Fly machine.
func toSandbox(m *machine) *platform.Sandbox {
	sb := &platform.Sandbox{
		ID: m.ID, Name: m.Config.Metadata[platform.LabelName], TemplateID: m.Config.Metadata[labelTemplate],
		PlatformStatus: m.State, Region: m.Region, Env: m.Config.Env, CreatedAt: m.CreatedAt,
		Labels: map[string]string{}, MadeWith: platform.MarksOf(m.Config.Metadata),
		Managed: m.Config.Metadata[platform.LabelManaged] == "true",
	}
	if sb.Name == "" {
		sb.Name = m.Name
	}
	if sb.TemplateID == "" {
		// No record of the provider's (a machine made by flyctl or the
		// API): its template is its image. A Fly template is a record in
		// state of an image reference, and an image alone is the id of the
		// unnamed template of that image (parseTemplateID), so configured
		// as template_id it starts the same machine: the import of a
		// machine made by hand plans no replacement.
		sb.TemplateID = m.Config.Image
	}
	for k, v := range m.Config.Metadata {
		if k == labelTemplate {
			continue
		}
		if platform.IsReservedLabel(k) || isUserKey(k) {
			sb.Labels[k] = v
		}
	}
	if g := m.Config.Guest; g != nil {
		// A size at what a create without it makes (guestOf: 1 shared CPU,
		// 256 MB per CPU) reads as unset (0), as Daytona's default sizes
		// do: a machine made without them reads, and imports, as made
		// without them, and a configuration that states them keeps them.
		sb.CPUCount, sb.MemoryMB = g.CPUs, g.MemoryMB
		if g.CPUs == 1 && (g.CPUKind == "" || g.CPUKind == "shared") {
			sb.CPUCount = 0
		}
		if g.CPUs > 0 && g.MemoryMB == 256*g.CPUs {
			sb.MemoryMB = 0
		}
	}
	for _, mt := range m.Config.Mounts {
		sb.VolumeMounts = append(sb.VolumeMounts, platform.VolumeMount{VolumeID: mt.Volume, Path: mt.Path})
	}
	switch m.State {
	case flyStarted:
		sb.Status = platform.StateRunning
	case flySuspended:
		sb.Status = platform.StatePaused
	case flyCreated:
		// At rest (skip_launch), or launching (see labelLaunch).
		sb.Status = platform.StateStopped
		if launching(m) {
			sb.Status = platform.StateStarting
		}
	case flyStopped:
		sb.Status = platform.StateStopped
	case flyStarting, flyUpdating, flyReplacing:
		sb.Status = platform.StateStarting
	case flyStopping, flySuspending:
		sb.Status = platform.StateStopping
	case flyFailed:
		sb.Status = platform.StateFailed
	default:
		sb.Status = platform.StateUnknown
	}
	sb.PlatformStatus += coldBootNote(m)
	for _, e := range m.Events {
		at := time.UnixMilli(e.Timestamp)
		if sb.StartedAt.IsZero() && e.Type == "start" {
			sb.StartedAt = at
		}
		if sb.StatusSince.IsZero() && stateEvent(e, m.State) {
			sb.StatusSince = at
		}
	}
	return sb
}

// stateEvent: e is the event that entered state.
func stateEvent(e machineEvent, state string) bool {
	switch state {
	case flyStarted:
		return e.Type == "start"
	case flyStopped:
		return e.Type == "exit"
	case flySuspended:
		return e.Type == "suspend" && e.Status == flySuspended
	case flyCreated:
		return e.Type == "launch"
	}
	return false
}

// parseTemplateID splits a template id, "<name>=<image>" (or the image
// alone), into its parts.
func parseTemplateID(id string) (name, image string) {
	if n, img, ok := strings.Cut(id, "="); ok {
		return n, img
	}
	return "", id
}

// templateID is the id of the template called name recording image.
func templateID(name, image string) string {
	if name == "" {
		return image
	}
	return name + "=" + image
}

// noteColdBooted is added to PlatformStatus of a started machine whose
// last start was a cold boot of a suspended machine.
const noteColdBooted = " (resumed with a cold boot: Fly had discarded the suspend snapshot, so the memory was lost)"

// coldBootNote reads Fly's events (newest first) for a lost suspend
// snapshot: on a suspended machine, a "snapshot_discarded" suspend event
// since it was suspended; on a started one, a cold "started" start that
// directly followed one.
func coldBootNote(m *machine) string {
	for i, e := range m.Events {
		switch {
		case m.State == flySuspended && e.Type == "suspend" && e.Status == "snapshot_discarded":
			return noteColdBoot
		case m.State == flySuspended && (e.Type == "start" || e.Type == "launch"):
			return ""
		case m.State == flyStarted && e.Type == "start":
			if e.Status == "started" && i+1 < len(m.Events) && m.Events[i+1].Status == "snapshot_discarded" {
				return noteColdBooted
			}
			return ""
		}
	}
	return ""
}

// nameTaken finds the machine called name: this create's (its token in
// the metadata) is adopted, any other is a NotOwnedError.
func (s *sandboxes) nameTaken(ctx context.Context, name string, marks platform.Marks) (string, error) {
	var taken *machine
	// Fly's list may lag the create that took the name: look again, with
	// the lost-create backoff, before saying it is not listed.
	_, waited, err := lostcreate.Find(ctx, s.p.lookupSleep, func(ctx context.Context) (bool, error) {
		var ms []machine
		if _, err := s.p.do(ctx, http.MethodGet, s.p.appPath("machines"), nil, nil, &ms); err != nil {
			return false, fmt.Errorf("looking for the machine named %q: %w", name, err)
		}
		for i := range ms {
			if ms[i].Name == name && ms[i].State != flyDestroyed {
				taken = &ms[i]
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		return "", err
	}
	if taken == nil {
		return "", fmt.Errorf("fly says a machine named %q exists, but has not listed it in %s; apply again", name, waited)
	}
	if marks.MadeBy(taken.Config.Metadata) {
		return taken.ID, nil
	}
	detail := ""
	if taken.Config.Metadata[platform.LabelManaged] != "true" {
		detail = "made outside Terraform (no sbx metadata)"
	}
	return "", &platform.NotOwnedError{Kind: "sandbox", Name: name, ID: taken.ID, Detail: detail}
}
