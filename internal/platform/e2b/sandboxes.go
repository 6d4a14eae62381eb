package e2b

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/lostcreate"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/restplatform"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

type sandboxes struct{ p *Platform }

// Create makes the sandbox and brings it to spec.State. A box is never
// taken over by name: E2B lets several boxes share a name (it is only
// metadata), so a create_before_destroy replacement makes its new box
// beside the old one, and another state's box of the name is left alone.
// Only a box carrying this create's token (made by a request whose answer
// was lost) is taken up.
func (s *sandboxes) Create(ctx context.Context, spec platform.SandboxSpec) (*platform.Sandbox, error) {
	if err := checkSandboxSpec(spec, s.p.Capabilities()); err != nil {
		return nil, err
	}
	spec.Marks = spec.Marks.Ensure()
	mountNames, err := s.mountNames(ctx, spec.VolumeMounts)
	if err != nil {
		return nil, err
	}
	body, err := createRequest(spec, mountNames)
	if err != nil {
		return nil, err
	}
	id, err := s.createOnce(ctx, body, spec.Name, spec.Marks)
	if err != nil {
		return nil, err
	}
	return s.converge(ctx, id, spec.State)
}

// createOnce sends POST /sandboxes once. When the answer is lost after the
// server may have acted, it looks for the box by its create token, with
// backoff (E2B lists a new box only after a delay), and never sends the
// create again: a box not listed yet may still exist, and E2B would make a
// second one beside it. Not found within the bound, the create fails saying
// how to find the box.
func (s *sandboxes) createOnce(ctx context.Context, body newSandbox, name string, marks platform.Marks) (string, error) {
	var created sandboxCreated
	_, err := s.p.do(ctx, "POST", "/sandboxes", nil, body, &created)
	if err == nil {
		return created.SandboxID, nil
	}
	if !errors.Is(err, rest.ErrMaybeApplied) {
		return "", err
	}
	found, waited, ferr := lostcreate.FindSandbox(ctx, s.p.lookupSleep, s, marks.CreateToken)
	if found != nil {
		return found.ID, nil
	}
	what, find := lostcreate.DescribeSandbox(name, "E2B", "its metadata holds", marks)
	return "", lostCreate(what, err, waited, ferr, find)
}

// converge reads the box and moves it to want; the box is returned even
// when the move fails, so the caller can keep it in state.
func (s *sandboxes) converge(ctx context.Context, id string, want platform.SandboxState) (*platform.Sandbox, error) {
	if want == "" {
		want = platform.StateRunning
	}
	sb, err := s.Get(ctx, id)
	if err != nil {
		return &platform.Sandbox{ID: id, Status: platform.StateUnknown}, err
	}
	if sb.Status == want {
		return sb, nil
	}
	moved, err := s.SetState(ctx, id, want)
	if err != nil {
		return sb, err
	}
	return moved, nil
}

// mountNames maps the volume ids of the mounts to the names E2B mounts by.
func (s *sandboxes) mountNames(ctx context.Context, mounts []platform.VolumeMount) (map[string]string, error) {
	out := map[string]string{}
	for _, m := range mounts {
		v, err := (&volumes{p: s.p}).Get(ctx, m.VolumeID)
		if err != nil {
			return nil, fmt.Errorf("volume_mount %s: %w", m.Path, err)
		}
		out[m.VolumeID] = v.Name
	}
	return out, nil
}

// volumeIDs maps volume names back to ids for the mounts a box reports.
func (s *sandboxes) volumeIDs(ctx context.Context, d sandboxDetail) map[string]string {
	if len(d.VolumeMounts) == 0 {
		return nil
	}
	vols, err := (&volumes{p: s.p}).List(ctx, platform.VolumeFilter{})
	if err != nil {
		tflog.Warn(ctx, "cannot list volumes to name a sandbox's mounts: "+err.Error())
		return nil
	}
	out := make(map[string]string, len(vols))
	for _, v := range vols {
		out[v.Name] = v.ID
	}
	return out
}

func (s *sandboxes) detail(ctx context.Context, id string) (sandboxDetail, error) {
	var d sandboxDetail
	_, err := s.p.do(ctx, "GET", "/sandboxes/"+pathID(id), nil, nil, &d)
	return d, restplatform.NotFound(err, "sandbox", id)
}

// Get implements platform.SandboxService.
func (s *sandboxes) Get(ctx context.Context, id string) (*platform.Sandbox, error) {
	d, err := s.detail(ctx, id)
	if err != nil {
		return nil, err
	}
	return sandboxFromDetail(d, s.volumeIDs(ctx, d)), nil
}

// List reads every page of the managed boxes matching the filter (with
// filter.AnyMaker, of every box: the managed metadata is then not asked for).
func (s *sandboxes) List(ctx context.Context, filter platform.SandboxFilter) ([]platform.Sandbox, error) {
	md := url.Values{}
	if !filter.AnyMaker {
		md.Set(platform.LabelManaged, "true")
	}
	for k, v := range filter.Labels {
		md.Set(k, v)
	}
	q := url.Values{}
	if len(md) > 0 { // every box: no metadata filter at all, not an empty one
		q.Set("metadata", md.Encode())
	}
	// E2B cannot tell a stopped box from a paused one (both are "paused"),
	// so either filter asks for the paused boxes and keeps them all.
	pausedKind := filter.Status == platform.StatePaused || filter.Status == platform.StateStopped
	switch {
	case filter.Status == platform.StateRunning:
		q.Set("state", "running")
	case pausedKind:
		q.Set("state", "paused")
	default:
		q.Set("state", "running,paused")
	}
	rows, err := listAll[sandboxDetail](ctx, s.p, "/v2/sandboxes", q)
	if err != nil {
		return nil, err
	}
	out := make([]platform.Sandbox, 0, len(rows))
	for _, d := range rows {
		// The server filters too; checking again keeps a lenient server honest.
		if !platform.MatchLabels(d.Metadata, filter.Labels) {
			continue
		}
		sb := sandboxFromDetail(d, nil)
		matches := filter.Status == "" || sb.Status == filter.Status || (pausedKind && sb.Status == platform.StatePaused)
		if !matches {
			continue
		}
		out = append(out, *sb)
	}
	return out, nil
}

// SetState pauses (with memory), stops (pauses without memory) or resumes
// a box, keeping its id. E2B reports both kinds of pause as "paused", so a
// paused box asked to be paused or stopped is resumed and paused again with
// the memory flag wanted: right whichever way it was paused before, and the
// only way to switch between paused and stopped in place.
func (s *sandboxes) SetState(ctx context.Context, id string, state platform.SandboxState) (*platform.Sandbox, error) {
	d, err := s.detail(ctx, id)
	if err != nil {
		return nil, err
	}
	switch state {
	case platform.StateRunning:
		if d.State == "running" {
			return sandboxFromDetail(d, s.volumeIDs(ctx, d)), nil
		}
		err = s.resume(ctx, id, d)
	case platform.StatePaused, platform.StateStopped:
		if d.State == "paused" {
			if err = s.resume(ctx, id, d); err != nil {
				break
			}
		}
		err = s.pause(ctx, id, state == platform.StatePaused)
	default:
		return nil, fmt.Errorf("sandbox %s: cannot move to state %q", id, state)
	}
	if err != nil {
		return nil, restplatform.NotFound(err, "sandbox", id)
	}
	sb, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if sb.Status == platform.StatePaused && state == platform.StateStopped {
		// The pause just sent dropped the memory; E2B does not say so.
		sb.Status = platform.StateStopped
	}
	return sb, nil
}

// resume connects to a paused box with the timeout it was made with (E2B's
// own default is far too short for an agent box).
func (s *sandboxes) resume(ctx context.Context, id string, d sandboxDetail) error {
	body := timeoutRequest{Timeout: int64(defaultTimeout / time.Second)}
	if secs, perr := strconv.ParseInt(d.Metadata[labelTimeout], 10, 64); perr == nil && secs > 0 {
		body.Timeout = secs
	}
	_, err := s.p.do(ctx, "POST", "/sandboxes/"+pathID(id)+"/connect", nil, body, nil)
	return err
}

// pause pauses a running box, keeping its memory or not.
func (s *sandboxes) pause(ctx context.Context, id string, memory bool) error {
	_, err := s.p.do(ctx, "POST", "/sandboxes/"+pathID(id)+"/pause", nil, pauseRequest{Memory: memory}, nil)
	if rest.IsConflict(err) {
		return nil // already pausing: the read that follows shows where it went
	}
	return err
}

// Update makes the in-place changes E2B offers: the timeout (POST
// /sandboxes/{id}/timeout; the box now expires timeout from now) and the
// network (PUT /sandboxes/{id}/network). A box's size, labels (metadata),
// env and on_timeout are fixed at create: a change of any of them is
// ErrUnsupported.
func (s *sandboxes) Update(ctx context.Context, id string, change platform.SandboxUpdate) (*platform.Sandbox, error) {
	switch {
	case change.CPUCount != nil || change.MemoryMB != nil || change.DiskMB != nil:
		return nil, &platform.UnsupportedError{Platform: "e2b", Capability: "resizing a sandbox"}
	case change.Labels != nil || change.Env != nil:
		return nil, &platform.UnsupportedError{Platform: "e2b", Capability: "changing a sandbox's labels or env (replace the sandbox)"}
	}
	if change.Network != nil {
		if err := s.setNetwork(ctx, id, *change.Network); err != nil {
			return nil, err
		}
	}
	if change.Lifecycle == nil {
		return s.Get(ctx, id)
	}
	return s.setLifecycle(ctx, id, change.Lifecycle.Lifecycle)
}

// setNetwork replaces the box's egress settings. E2B changes them only on
// a running box (a paused one is "not found"), so a paused box is resumed
// for the change and paused again, with its memory (E2B does not say
// whether it had any), also when the change fails.
func (s *sandboxes) setNetwork(ctx context.Context, id string, n platform.Network) (err error) {
	if err := networkError(&n); err != nil {
		return err
	}
	defer s.p.lockBox(id)()
	d, err := s.detail(ctx, id)
	if err != nil {
		return err
	}
	if d.State != "running" {
		defer func() {
			if perr := s.pauseAfter(ctx, id, true); perr != nil {
				err = errors.Join(err, fmt.Errorf("sandbox %s was resumed to change its network and could not be paused "+
					"again (apply again to bring it back to its configured state): %w", id, perr))
			}
		}()
		if err := s.resume(ctx, id, d); err != nil {
			return fmt.Errorf("resume the %s sandbox to change its network (E2B changes it only on a running sandbox): %w",
				d.State, restplatform.NotFound(err, "sandbox", id))
		}
	}
	_, err = s.p.do(ctx, "PUT", "/sandboxes/"+pathID(id)+"/network", nil, networkUpdateRequest(n), nil)
	return restplatform.NotFound(err, "sandbox", id)
}

// pauseAfterGrace bounds the pause that puts back a box resumed for a
// change or a snapshot when the operation's own deadline has passed.
const pauseAfterGrace = 2 * time.Minute

// pauseAfter pauses a box resumed for a change or a snapshot again, within
// ctx's deadline, or, when that has passed (the operation failed on it),
// within pauseAfterGrace, so the box is never left running.
func (s *sandboxes) pauseAfter(ctx context.Context, id string, memory bool) error {
	if ctx.Err() != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), pauseAfterGrace)
		defer cancel()
	}
	return restplatform.NotFound(s.pause(ctx, id, memory), "sandbox", id)
}

// setLifecycle changes the timeout in place, refusing any other change.
func (s *sandboxes) setLifecycle(ctx context.Context, id string, lc platform.Lifecycle) (*platform.Sandbox, error) {
	d, err := s.detail(ctx, id)
	if err != nil {
		return nil, err
	}
	current := onTimeoutOf(d)
	if current == "" {
		current = platform.OnTimeoutKill
	}
	want := lc.OnTimeout
	if want == "" {
		want = platform.OnTimeoutKill
	}
	if want != current {
		return nil, &platform.UnsupportedError{Platform: "e2b", Capability: "changing on_timeout of an existing sandbox (replace the sandbox)"}
	}
	if lc.IdleTimeout != 0 || lc.AutoArchiveAfter != 0 || lc.AutoDeleteAfter != 0 {
		return nil, &platform.UnsupportedError{Platform: "e2b", Capability: "idle_timeout, auto_archive_after and auto_delete_after"}
	}
	if d.State == "running" {
		body := timeoutRequest{Timeout: createTimeout(lc)}
		if _, err := s.p.do(ctx, "POST", "/sandboxes/"+pathID(id)+"/timeout", nil, body, nil); err != nil {
			return nil, restplatform.NotFound(err, "sandbox", id)
		}
	}
	sb, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	// The timeout now in force, which E2B does not report back.
	sb.Lifecycle.Timeout = lc.Timeout
	return sb, nil
}

// Delete kills the box; one already gone is not an error.
func (s *sandboxes) Delete(ctx context.Context, id string) error {
	_, err := s.p.do(ctx, "DELETE", "/sandboxes/"+pathID(id), nil, nil, nil)
	if rest.IsNotFound(err) {
		return nil
	}
	return err
}

// lockBox takes the lock of box id and returns its release: operations
// that resume a paused box for a moment (a snapshot, a network change) run
// one at a time on it within this provider.
func (p *Platform) lockBox(id string) func() {
	v, _ := p.boxLocks.LoadOrStore(id, &sync.Mutex{})
	mu, ok := v.(*sync.Mutex)
	if !ok {
		return func() {} // boxLocks holds only mutexes
	}
	mu.Lock()
	return mu.Unlock
}
