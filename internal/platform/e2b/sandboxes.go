package e2b

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

// maxCreateAttempts bounds how often a create whose answer was lost is
// looked up and sent again.
const maxCreateAttempts = 3

type sandboxes struct{ p *Platform }

// Create makes the sandbox, or finds the one an earlier interrupted create
// made under the same name, then brings it to spec.State.
func (s *sandboxes) Create(ctx context.Context, spec platform.SandboxSpec) (*platform.Sandbox, error) {
	if err := checkSandboxSpec(spec, s.p.Capabilities()); err != nil {
		return nil, err
	}
	if spec.Name != "" {
		found, err := s.findOne(ctx, map[string]string{platform.LabelName: spec.Name})
		if err != nil {
			return nil, err
		}
		if found != nil {
			tflog.Info(ctx, "adopting the sandbox an earlier create made", map[string]any{"id": found.ID, "name": spec.Name})
			return s.converge(ctx, found.ID, spec.State)
		}
	}
	mountNames, err := s.mountNames(ctx, spec.VolumeMounts)
	if err != nil {
		return nil, err
	}
	token := newToken()
	body, err := createRequest(spec, token, mountNames)
	if err != nil {
		return nil, err
	}
	id, err := s.createOnce(ctx, body, token)
	if err != nil {
		return nil, err
	}
	return s.converge(ctx, id, spec.State)
}

// createOnce sends POST /sandboxes; when the answer is lost after the
// server may have acted, it looks the box up by its create token before
// sending again, so an interrupted create never makes two boxes.
func (s *sandboxes) createOnce(ctx context.Context, body newSandbox, token string) (string, error) {
	var lastErr error
	for attempt := 0; attempt < maxCreateAttempts; attempt++ {
		var created sandboxCreated
		_, err := s.p.do(ctx, "POST", "/sandboxes", nil, body, &created)
		if err == nil {
			return created.SandboxID, nil
		}
		if !errors.Is(err, rest.ErrMaybeApplied) {
			return "", err
		}
		lastErr = err
		found, ferr := s.findOne(ctx, map[string]string{labelCreateToken: token})
		if ferr != nil {
			return "", fmt.Errorf("%w; looking for the sandbox it may have made also failed: %v", err, ferr)
		}
		if found != nil {
			tflog.Info(ctx, "the sandbox create's answer was lost; found the sandbox it made", map[string]any{"id": found.ID})
			return found.ID, nil
		}
	}
	return "", lastErr
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

// findOne returns the managed box whose metadata holds every label, or nil.
func (s *sandboxes) findOne(ctx context.Context, labels map[string]string) (*platform.Sandbox, error) {
	found, err := s.List(ctx, platform.SandboxFilter{Labels: labels})
	if err != nil || len(found) == 0 {
		return nil, err
	}
	return &found[0], nil
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
	return d, notFound(err, "sandbox", id)
}

// Get implements platform.SandboxService.
func (s *sandboxes) Get(ctx context.Context, id string) (*platform.Sandbox, error) {
	d, err := s.detail(ctx, id)
	if err != nil {
		return nil, err
	}
	return sandboxFromDetail(d, s.volumeIDs(ctx, d)), nil
}

// List reads every page of the managed boxes matching the filter.
func (s *sandboxes) List(ctx context.Context, filter platform.SandboxFilter) ([]platform.Sandbox, error) {
	md := url.Values{}
	md.Set(platform.LabelManaged, "true")
	for k, v := range filter.Labels {
		md.Set(k, v)
	}
	q := url.Values{"metadata": {md.Encode()}}
	switch filter.Status {
	case platform.StateRunning:
		q.Set("state", "running")
	case platform.StatePaused, platform.StateStopped:
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
		if filter.Status != "" && sb.Status != filter.Status {
			continue
		}
		out = append(out, *sb)
	}
	return out, nil
}

// SetState pauses (with memory), stops (pauses without memory) or resumes a box.
func (s *sandboxes) SetState(ctx context.Context, id string, state platform.SandboxState) (*platform.Sandbox, error) {
	d, err := s.detail(ctx, id)
	if err != nil {
		return nil, err
	}
	cur := sandboxStatus(d.State, d.Metadata)
	if cur == state {
		return sandboxFromDetail(d, s.volumeIDs(ctx, d)), nil
	}
	memory := d.Metadata[labelPauseMemory] != "false"
	switch state {
	case platform.StateRunning:
		body := timeoutRequest{Timeout: int64(defaultTimeout / time.Second)}
		if secs, perr := strconv.ParseInt(d.Metadata[labelTimeout], 10, 64); perr == nil && secs > 0 {
			body.Timeout = secs
		}
		_, err = s.p.do(ctx, "POST", "/sandboxes/"+pathID(id)+"/connect", nil, body, nil)
	case platform.StatePaused, platform.StateStopped:
		wantMemory := state == platform.StatePaused
		if wantMemory != memory {
			return nil, pauseKindConflict(id, state)
		}
		if d.State == "paused" {
			break
		}
		_, err = s.p.do(ctx, "POST", "/sandboxes/"+pathID(id)+"/pause", nil, pauseRequest{Memory: wantMemory}, nil)
		if rest.IsConflict(err) {
			err = nil // already pausing: the read below shows where it went
		}
	default:
		return nil, fmt.Errorf("sandbox %s: cannot move to state %q", id, state)
	}
	if err != nil {
		return nil, notFound(err, "sandbox", id)
	}
	return s.Get(ctx, id)
}

// pauseKindConflict explains why a box cannot switch between paused and
// stopped in place on E2B.
func pauseKindConflict(id string, state platform.SandboxState) error {
	made := "paused (memory kept)"
	if state == platform.StatePaused {
		made = "stopped (memory dropped)"
	}
	return &platform.ConflictError{Kind: "sandbox", ID: id, Reason: fmt.Sprintf(
		"E2B reports a paused box the same way whether its memory was kept or not, and a sandbox's metadata is fixed "+
			"when it is made, so the provider records at create whether this box is paused or stopped: it was made to be %s. "+
			"To make it %s, replace it (terraform apply -replace=...) with state = %q", made, state, state)}
}

// SetLifecycle changes the timeout in place: the box now expires timeout
// from now. Other settings cannot change on E2B.
func (s *sandboxes) SetLifecycle(ctx context.Context, id string, lc platform.Lifecycle) (*platform.Sandbox, error) {
	d, err := s.detail(ctx, id)
	if err != nil {
		return nil, err
	}
	current := platform.OnTimeoutKill
	if d.Lifecycle != nil && d.Lifecycle.OnTimeout == "pause" {
		current = platform.OnTimeoutPause
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
			return nil, notFound(err, "sandbox", id)
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

// Resize implements platform.SandboxService; E2B sizes boxes by template.
func (s *sandboxes) Resize(_ context.Context, _ string, _, _ int64) (*platform.Sandbox, error) {
	return nil, &platform.UnsupportedError{Platform: "e2b", Capability: "resizing a sandbox"}
}

// Delete kills the box; one already gone is not an error.
func (s *sandboxes) Delete(ctx context.Context, id string) error {
	_, err := s.p.do(ctx, "DELETE", "/sandboxes/"+pathID(id), nil, nil, nil)
	if rest.IsNotFound(err) {
		return nil
	}
	return err
}
