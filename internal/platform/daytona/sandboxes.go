package daytona

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/lostcreate"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/restplatform"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

type sandboxes struct{ p *Platform }

// pageLimit is the largest page GET /sandbox serves.
const pageLimit = 200

// Create makes the sandbox, waits for Daytona to start it and brings it to
// spec.State. Daytona names are unique in an organisation: a box of the
// name that this create did not make is a NotOwnedError. A create whose
// answer was lost is found again by its create token, never sent twice.
func (s *sandboxes) Create(ctx context.Context, spec platform.SandboxSpec) (*platform.Sandbox, error) {
	switch {
	case spec.CPUCount != 0 || spec.MemoryMB != 0 || spec.DiskMB != 0:
		return nil, &platform.UnsupportedError{Platform: platformName,
			Capability: "sizing a new sandbox (Daytona sizes it from its template: set cpu_count, memory_mb and disk_mb on the sbx_template)"}
	case spec.Lifecycle.Timeout != 0 || spec.Lifecycle.OnTimeout != "":
		return nil, &platform.UnsupportedError{Platform: platformName, Capability: "timeout and on_timeout (use idle_timeout)"}
	case spec.AutoResume:
		return nil, &platform.UnsupportedError{Platform: platformName, Capability: "auto_resume"}
	}
	spec.Marks = spec.Marks.Ensure()
	body, err := s.p.createBody(spec)
	if err != nil {
		return nil, err
	}
	if spec.Name != "" {
		if err := s.refuseTakenName(ctx, spec.Name, spec.Marks); err != nil {
			return nil, err
		}
	}
	id, err := s.createOnce(ctx, body, spec.Name, spec.Marks)
	if err != nil {
		return nil, err
	}
	return s.converge(ctx, id, spec.State)
}

// refuseTakenName fails when a box of the name exists that this create
// did not make.
func (s *sandboxes) refuseTakenName(ctx context.Context, name string, marks platform.Marks) error {
	d, err := s.detail(ctx, name)
	if platform.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("looking for a sandbox named %q: %w", name, err)
	}
	if marks.MadeBy(d.Labels) {
		return nil
	}
	detail := ""
	if d.Labels[platform.LabelManaged] != "true" {
		detail = "made outside Terraform (no sbx labels)"
	}
	return &platform.NotOwnedError{Kind: "sandbox", Name: name, ID: d.ID, Detail: detail}
}

// createOnce sends POST /sandbox. When the answer is lost after the
// server may have acted, it looks for the box by its create token (the
// list is eventually consistent, so with backoff); not found, it sends the
// create once more: the box's name is unique, so a box the first send made
// after all turns the second into a 409, and the box is found by its name.
func (s *sandboxes) createOnce(ctx context.Context, body createSandbox, name string, marks platform.Marks) (string, error) {
	for send := 1; ; send++ {
		var created sandboxAPI
		_, err := s.p.do(ctx, http.MethodPost, "/sandbox", nil, body, &created)
		if err == nil {
			return created.ID, nil
		}
		if rest.IsConflict(err) {
			// The name is taken: by an earlier send of this create, or by
			// a box made meanwhile that is not this create's.
			d, derr := s.detail(ctx, body.Name)
			switch {
			case derr == nil && marks.MadeBy(d.Labels):
				return d.ID, nil
			case derr == nil:
				return "", &platform.NotOwnedError{Kind: "sandbox", Name: body.Name, ID: d.ID}
			}
			return "", err
		}
		if !errors.Is(err, rest.ErrMaybeApplied) {
			return "", err
		}
		found, waited, ferr := lostcreate.FindSandbox(ctx, s.p.lookupSleep, s, marks.CreateToken)
		if found != nil {
			return found.ID, nil
		}
		if ferr == nil && send < maxCreateSends {
			tflog.Info(ctx, "the sandbox create's answer was lost and no sandbox of it is listed; sending it again under the same name",
				map[string]any{"name": body.Name, "waited": waited.String()})
			continue
		}
		what, find := lostcreate.DescribeSandbox(name, "Daytona", "its labels hold", marks)
		return "", lostCreate(what, err, waited, ferr, find)
	}
}

// converge waits for a new box to settle and moves it to want; the box is
// returned even when that fails, so the caller can keep it in state.
func (s *sandboxes) converge(ctx context.Context, id string, want platform.SandboxState) (*platform.Sandbox, error) {
	if want == "" {
		want = platform.StateRunning
	}
	sb, err := s.SetState(ctx, id, want)
	if err != nil {
		if sb == nil {
			sb = &platform.Sandbox{ID: id, Status: platform.StateUnknown}
			if got, gerr := s.Get(ctx, id); gerr == nil {
				sb = got
			}
		}
		return sb, err
	}
	return sb, nil
}

func (s *sandboxes) detail(ctx context.Context, id string) (sandboxAPI, error) {
	var d sandboxAPI
	_, err := s.p.do(ctx, http.MethodGet, "/sandbox/"+pathID(id), nil, nil, &d)
	if err == nil && d.State == dtDestroyed {
		return d, &platform.NotFoundError{Kind: "sandbox", ID: id}
	}
	return d, restplatform.NotFound(err, "sandbox", id)
}

// Get implements platform.SandboxService. A size the box has from its
// template reads as 0 (the template's size, as SandboxUpdate has it): only
// a resize sets one of its own, and an imported box's configuration need
// not repeat its template's.
func (s *sandboxes) Get(ctx context.Context, id string) (*platform.Sandbox, error) {
	d, err := s.detail(ctx, id)
	if err != nil {
		return nil, err
	}
	sb := sandboxFromAPI(d)
	ref := d.Labels[labelTemplate]
	if ref == "" {
		ref = d.Labels[labelFromSnapshot]
	}
	if ref == "" {
		ref = d.Snapshot
	}
	if ref == "" {
		return sb, nil
	}
	tpl, terr := (&templates{p: s.p}).find(ctx, ref)
	if terr != nil {
		// Not worth failing the read: the sizes are reported as they are.
		tflog.Debug(ctx, "cannot read a sandbox's template to tell its own size from the template's",
			map[string]any{"template": ref, "error": terr.Error()})
	}
	if tpl == nil {
		return sb, nil
	}
	if int64(tpl.CPU) == sb.CPUCount {
		sb.CPUCount = 0
	}
	if int64(tpl.Mem*gib) == sb.MemoryMB {
		sb.MemoryMB = 0
	}
	if int64(tpl.Disk*gib) == sb.DiskMB {
		sb.DiskMB = 0
	}
	return sb, nil
}

// list reads every page of GET /sandbox whose boxes carry labels (the
// server filters on them).
func (s *sandboxes) list(ctx context.Context, labels map[string]string) ([]sandboxAPI, error) {
	q := url.Values{"limit": {strconv.Itoa(pageLimit)}}
	if len(labels) > 0 {
		b, err := json.Marshal(labels)
		if err != nil {
			return nil, err
		}
		q.Set("labels", string(b))
	}
	var all []sandboxAPI
	seen := map[string]bool{}
	for {
		var page sandboxPage
		if _, err := s.p.do(ctx, http.MethodGet, "/sandbox", q, nil, &page); err != nil {
			return nil, err
		}
		for _, d := range page.Items {
			if !seen[d.ID] {
				seen[d.ID] = true
				all = append(all, d)
			}
		}
		// An empty page ends the walk too, so a server that keeps handing
		// out cursors cannot keep the client looping.
		if page.NextCursor == nil || *page.NextCursor == "" || len(page.Items) == 0 {
			return all, nil
		}
		q.Set("cursor", *page.NextCursor)
	}
}

// List reads every page of the managed boxes matching the filter (with
// filter.AnyMaker, of every box: the managed label is then not asked for).
func (s *sandboxes) List(ctx context.Context, filter platform.SandboxFilter) ([]platform.Sandbox, error) {
	want := map[string]string{}
	if !filter.AnyMaker {
		want[platform.LabelManaged] = "true"
	}
	for k, v := range filter.Labels {
		want[k] = v
	}
	rows, err := s.list(ctx, want)
	if err != nil {
		return nil, err
	}
	out := make([]platform.Sandbox, 0, len(rows))
	for _, d := range rows {
		// The server filters too; checking again keeps a lenient server honest.
		if d.State == dtDestroyed || d.State == "destroying" || !platform.MatchLabels(d.Labels, want) {
			continue
		}
		sb := sandboxFromAPI(d)
		// The list leaves out env, volumes and network (SandboxListItem).
		sb.Env, sb.VolumeMounts, sb.Network = nil, nil, nil
		if filter.Status != "" && sb.Status != filter.Status &&
			(filter.Status != platform.StateStopped || sb.Status != platform.StateArchived) {
			continue
		}
		out = append(out, *sb)
	}
	return out, nil
}

// settle reads the box until it is settled (settled), recovering it from a
// recoverable error, and fails naming Daytona's reason when it stays in
// error. It returns the box as last read.
func (s *sandboxes) settle(ctx context.Context, id string) (sandboxAPI, error) {
	read := func(ctx context.Context) (sandboxAPI, error) { return s.detail(ctx, id) }
	d, err := waitFor(ctx, s.p, read, func(d sandboxAPI) (bool, error) { return settled(d), nil })
	if err != nil {
		return d, err
	}
	if d.State != dtError && d.State != dtBuildFail {
		return d, nil
	}
	if !d.Recoverable || d.State == dtBuildFail {
		return d, boxFailed(d)
	}
	tflog.Info(ctx, "the sandbox is in error and Daytona says it is recoverable; recovering it", map[string]any{"id": id, "reason": d.ErrorReason})
	if _, err := s.p.do(ctx, http.MethodPost, "/sandbox/"+pathID(id)+"/recover", nil, nil, nil); err != nil {
		return d, fmt.Errorf("%w; recovering it failed: %w", boxFailed(d), restplatform.NotFound(err, "sandbox", id))
	}
	d, err = waitFor(ctx, s.p, read, func(d sandboxAPI) (bool, error) { return settled(d), nil })
	if err != nil {
		return d, err
	}
	if d.State == dtError || d.State == dtBuildFail {
		return d, fmt.Errorf("%w (after a recover)", boxFailed(d))
	}
	return d, nil
}

// boxFailed is the error of a box in error, with Daytona's reason.
func boxFailed(d sandboxAPI) error {
	reason := d.ErrorReason
	if reason == "" {
		reason = "Daytona gave no reason"
	}
	return fmt.Errorf("sandbox %s is in Daytona state %q: %s", d.ID, d.State, reason)
}

// SetState moves a box to running, paused or stopped in place, following
// Daytona's rules (sandbox.service.ts): start takes a stopped, archived or
// paused box; stop a started or paused one; pause only a started VM-class
// box. An archived box counts as stopped.
func (s *sandboxes) SetState(ctx context.Context, id string, state platform.SandboxState) (*platform.Sandbox, error) {
	defer s.p.lockBox(id)()
	var want string
	switch state {
	case platform.StateRunning:
		want = dtStarted
	case platform.StatePaused:
		want = dtPaused
	case platform.StateStopped:
		want = dtStopped
	default:
		return nil, fmt.Errorf("sandbox %s: cannot move to state %q", id, state)
	}
	d, err := s.moveTo(ctx, id, want)
	if err != nil {
		if d.ID != "" {
			return sandboxFromAPI(d), err
		}
		return nil, err
	}
	return sandboxFromAPI(d), nil
}

// moveTo brings a box to a Daytona state (started, stopped, paused or
// archived) and waits until it is there. A stopped box is left stopped
// when archived is not asked; an archived one counts as stopped.
func (s *sandboxes) moveTo(ctx context.Context, id, want string) (sandboxAPI, error) {
	d, err := s.settle(ctx, id)
	if err != nil {
		return d, err
	}
	for moves := 0; ; moves++ {
		if d.State == want || (want == dtStopped && d.State == dtArchived) {
			return d, nil
		}
		if moves == 3 { // archived → started → paused is the longest way
			return d, fmt.Errorf("sandbox %s is %s, not %s, after the moves Daytona accepted", id, d.State, want)
		}
		var action string
		switch {
		case want == dtStarted:
			action = "start"
		case want == dtArchived && d.State == dtStopped:
			action = "archive"
		case want == dtStopped || want == dtArchived:
			action = "stop"
		case want == dtPaused && d.State == dtStarted:
			action = "pause"
		default: // paused asked of a stopped or archived box: start it, then pause it
			action = "start"
		}
		err := s.act(ctx, id, action)
		if err != nil && action == "start" && d.State == dtPaused && rest.IsStatus(err, http.StatusUnprocessableEntity) {
			// A paused box of a class Daytona cannot resume: stop it (stop
			// takes a paused box, dropping its memory), then start it.
			if serr := s.act(ctx, id, "stop"); serr != nil {
				return d, errors.Join(err, serr)
			}
			if d, err = s.settle(ctx, id); err != nil {
				return d, err
			}
			continue
		}
		if err != nil {
			return d, err
		}
		if d, err = s.settle(ctx, id); err != nil {
			return d, err
		}
	}
}

// act sends one lifecycle action. Daytona's refusal to pause or resume a
// box of a class that cannot be paused (422) becomes an error naming state.
func (s *sandboxes) act(ctx context.Context, id, action string) error {
	_, err := s.p.do(ctx, http.MethodPost, "/sandbox/"+pathID(id)+"/"+action, nil, nil, nil)
	switch {
	case err == nil:
		return nil
	case rest.IsStatus(err, http.StatusUnprocessableEntity) && (action == "pause" || action == "start"):
		return fmt.Errorf("state = \"paused\" needs a VM-class Daytona sandbox (linux-vm or windows); this one cannot be "+
			"paused or resumed: set state = \"stopped\" or \"running\" instead: %w", err)
	}
	return fmt.Errorf("%s sandbox %s: %w", action, id, restplatform.NotFound(err, "sandbox", id))
}

// restoreGrace bounds putting a box back after an operation whose own
// deadline has passed.
const restoreGrace = 5 * time.Minute

// restore brings a box back to the Daytona state it had before an
// operation moved it, within ctx or, when that has ended, restoreGrace.
func (s *sandboxes) restore(ctx context.Context, id, state string) error {
	if ctx.Err() != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), restoreGrace)
		defer cancel()
	}
	if _, err := s.moveTo(ctx, id, state); err != nil {
		return fmt.Errorf("sandbox %s was moved for the change and could not be brought back to %s "+
			"(apply again to bring it back to its configured state): %w", id, state, err)
	}
	return nil
}

// Update makes the in-place changes Daytona offers: labels, the
// auto-stop/archive/delete intervals, the network settings and a resize.
// env is fixed at create.
func (s *sandboxes) Update(ctx context.Context, id string, change platform.SandboxUpdate) (*platform.Sandbox, error) {
	if change.Env != nil {
		return nil, &platform.UnsupportedError{Platform: platformName, Capability: "changing a sandbox's env (replace the sandbox)"}
	}
	if change.Labels != nil {
		if err := s.setLabels(ctx, id, *change.Labels); err != nil {
			return nil, err
		}
	}
	if change.Lifecycle != nil {
		if err := s.setLifecycle(ctx, id, *change.Lifecycle); err != nil {
			return nil, err
		}
	}
	if change.Network != nil {
		ns, err := networkBody(*change.Network)
		if err != nil {
			return nil, err
		}
		if _, err := s.p.do(ctx, http.MethodPost, "/sandbox/"+pathID(id)+"/network-settings", nil, ns, nil); err != nil {
			return nil, fmt.Errorf("changing the network settings: %w", restplatform.NotFound(err, "sandbox", id))
		}
	}
	if change.CPUCount != nil || change.MemoryMB != nil || change.DiskMB != nil {
		if err := s.resize(ctx, id, change); err != nil {
			return nil, err
		}
	}
	return s.Get(ctx, id)
}

// setLabels replaces the box's user labels, keeping the provider's own.
func (s *sandboxes) setLabels(ctx context.Context, id string, user map[string]string) error {
	d, err := s.detail(ctx, id)
	if err != nil {
		return err
	}
	labels := map[string]string{}
	for k, v := range d.Labels {
		if platform.IsReservedLabel(k) {
			labels[k] = v
		}
	}
	for k, v := range user {
		if !platform.IsReservedLabel(k) {
			labels[k] = v
		}
	}
	if _, err := s.p.do(ctx, http.MethodPut, "/sandbox/"+pathID(id)+"/labels", nil, sandboxLabels{Labels: labels}, nil); err != nil {
		return fmt.Errorf("replacing the labels: %w", restplatform.NotFound(err, "sandbox", id))
	}
	return nil
}

// setLifecycle sets the changed intervals; an unset one gets Daytona's
// default back (15 min auto-stop, 7 days auto-archive, no auto-delete).
func (s *sandboxes) setLifecycle(ctx context.Context, id string, u platform.LifecycleUpdate) error {
	lc := u.Lifecycle
	for _, key := range u.Changed {
		var endpoint string
		var value int64
		var d time.Duration
		switch key {
		case platform.AttrSandboxIdleTimeout:
			endpoint, d, value = "autostop", lc.IdleTimeout, defaultAutoStop
		case platform.AttrSandboxAutoArchiveAfter:
			endpoint, d, value = "autoarchive", lc.AutoArchiveAfter, defaultAutoArchive
		case platform.AttrSandboxAutoDeleteAfter:
			endpoint, d, value = "autodelete", lc.AutoDeleteAfter, noAutoDelete
		case platform.AttrSandboxTimeout, platform.AttrSandboxOnTimeout:
			return &platform.UnsupportedError{Platform: platformName, Capability: "timeout and on_timeout (use idle_timeout)"}
		default:
			continue
		}
		if d != 0 {
			if !wholeMinutes(d) {
				return fmt.Errorf("%s = %s is not a whole number of minutes: Daytona sets its intervals in minutes", platform.AttrName(key), d)
			}
			value = minutes(d)
		}
		path := "/sandbox/" + pathID(id) + "/" + endpoint + "/" + strconv.FormatInt(value, 10)
		if _, err := s.p.do(ctx, http.MethodPost, path, nil, nil, nil); err != nil {
			return fmt.Errorf("setting %s: %w", platform.AttrName(key), restplatform.NotFound(err, "sandbox", id))
		}
	}
	return nil
}

// resize changes the box's cpu, memory and disk. Daytona resizes a
// started box live only upward in cpu and memory; a disk change or a
// decrease needs it stopped (sandbox.service.ts resize), so the box is
// stopped for it and brought back to its state afterwards, whatever
// happens. A size of 0 is the template's.
func (s *sandboxes) resize(ctx context.Context, id string, change platform.SandboxUpdate) (err error) {
	defer s.p.lockBox(id)()
	d, err := s.settle(ctx, id)
	if err != nil {
		return err
	}
	var tpl *snapshotAPI
	size := func(v *int64, pick func(snapshotAPI) float64, toGB func(int64) int64) (*int64, error) {
		if v == nil {
			return nil, nil
		}
		if *v != 0 {
			n := toGB(*v)
			return &n, nil
		}
		if tpl == nil {
			t, terr := (&templates{p: s.p}).read(ctx, d.Snapshot)
			if terr != nil {
				return nil, fmt.Errorf("reading the template's size: %w", terr)
			}
			tpl = &t
		}
		n := int64(pick(*tpl))
		return &n, nil
	}
	body := resizeSandbox{}
	ident := func(n int64) int64 { return n }
	if body.CPU, err = size(change.CPUCount, func(t snapshotAPI) float64 { return t.CPU }, ident); err != nil {
		return err
	}
	if body.Memory, err = size(change.MemoryMB, func(t snapshotAPI) float64 { return t.Mem }, gb); err != nil {
		return err
	}
	if body.Disk, err = size(change.DiskMB, func(t snapshotAPI) float64 { return t.Disk }, gb); err != nil {
		return err
	}
	// Only what changes is sent: Daytona refuses a resize that changes
	// nothing, and any disk field on a box not stopped.
	drop := func(v **int64, have float64) {
		if *v != nil && **v == int64(have) {
			*v = nil
		}
	}
	drop(&body.CPU, d.CPU)
	drop(&body.Memory, d.Memory)
	drop(&body.Disk, d.Disk)
	if body.CPU == nil && body.Memory == nil && body.Disk == nil {
		return nil
	}
	if body.Disk != nil && float64(*body.Disk) < d.Disk {
		return fmt.Errorf("disk_mb: Daytona cannot shrink a sandbox's disk (%d GB now, %d GB asked); replace the sandbox", int64(d.Disk), *body.Disk)
	}
	hot := body.Disk == nil && (body.CPU == nil || float64(*body.CPU) >= d.CPU) && (body.Memory == nil || float64(*body.Memory) >= d.Memory)
	need := dtStopped
	if hot && (d.State == dtStarted || d.State == dtPaused) {
		need = dtStarted
	}
	before := d.State
	if before != need {
		defer func() {
			if rerr := s.restore(ctx, id, before); rerr != nil {
				err = errors.Join(err, rerr)
			}
		}()
		if _, err := s.moveTo(ctx, id, need); err != nil {
			return fmt.Errorf("bringing the sandbox to %s for the resize: %w", need, err)
		}
	}
	if _, err := s.p.do(ctx, http.MethodPost, "/sandbox/"+pathID(id)+"/resize", nil, body, nil); err != nil {
		if rest.IsStatus(err, http.StatusForbidden) || rest.IsNotFound(err) {
			// The box was just read: a 404 here is the sandbox_resize
			// feature flag's guard (sandbox.controller.ts:609).
			return fmt.Errorf("the resize was refused: resizing may not be enabled on Daytona for this organisation "+
				"(set the size on the sbx_template and replace the sandbox instead): %w", err)
		}
		return fmt.Errorf("resizing the sandbox: %w", restplatform.NotFound(err, "sandbox", id))
	}
	if _, err := s.settle(ctx, id); err != nil {
		return fmt.Errorf("waiting for the resize: %w", err)
	}
	return nil
}

// Delete removes the box at once and waits until Daytona no longer has it
// (a box being destroyed still holds its volumes); one already gone is not
// an error.
func (s *sandboxes) Delete(ctx context.Context, id string) error {
	if err := s.deleteOnce(ctx, id); err != nil {
		return err
	}
	return s.p.waitGone(ctx, func(ctx context.Context) error {
		_, err := s.detail(ctx, id)
		return err
	})
}

func (s *sandboxes) deleteOnce(ctx context.Context, id string) error {
	_, err := s.p.do(ctx, http.MethodDelete, "/sandbox/"+pathID(id), nil, nil, nil)
	if rest.IsNotFound(err) {
		return nil
	}
	if rest.IsConflict(err) {
		// A state change in progress: the box may be on its way out
		// already (a delete whose answer was lost, or a second one).
		d, derr := s.detail(ctx, id)
		if platform.IsNotFound(derr) || (derr == nil && (d.DesiredState == dtDestroyed || d.State == "destroying")) {
			return nil
		}
		// Another change is under way: wait for it, then delete.
		if _, serr := s.settle(ctx, id); serr != nil && platform.IsNotFound(serr) {
			return nil
		}
		_, err = s.p.do(ctx, http.MethodDelete, "/sandbox/"+pathID(id), nil, nil, nil)
		if rest.IsNotFound(err) {
			return nil
		}
	}
	return err
}

// classOf returns the box's sandbox class ("" when Daytona does not say).
func (s *sandboxes) classOf(ctx context.Context, id string) (string, error) {
	d, err := s.detail(ctx, id)
	return d.SandboxClass, err
}
