package daytonafake

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"
)

// assertNotErrored is assertSandboxNotErrored (sandbox.service.ts:164-168).
func assertNotErrored(sb *sandbox) (reply, bool) {
	if sb.state == stateError || sb.state == stateBuildFailed {
		return errorReply(http.StatusBadRequest, "Sandbox is in an errored state"), false
	}
	return reply{}, true
}

// supportsPause is the class check of pause() and of resuming in start():
// only VM-backed classes keep memory (sandbox.service.ts:2086, 2201).
func supportsPause(class string) bool { return class == ClassLinuxVM || class == ClassWindows }

// startSandbox is start() (sandbox.service.ts:2042-2149): a started box is
// answered as is; stopped, archived (or still archiving) and paused boxes
// start (resume); the answer shows the old state with desiredState
// "started".
func (s *Server) startSandbox(c *call) reply {
	sb, rep, ok := s.sandboxOr404(c)
	if !ok {
		return rep
	}
	if sb.state == stateStarted && sb.desired == stateStarted {
		return s.sandboxReply(sb)
	}
	if rep, ok := assertNotErrored(sb); !ok {
		return rep
	}
	if sb.state != sb.desired && (sb.desired != stateArchived || (sb.state != stateStopped && sb.state != stateArchiving)) {
		return stateChangeInProgress()
	}
	// The box shows what start.action.ts moves it through: starting for a
	// stopped box (sandbox-start.action.ts:584), restoring for an archived
	// one, whose filesystem comes back from object storage on a runner
	// (restoreSandboxOnNewRunner), resuming for a paused one.
	via := stateStarting
	switch sb.state {
	case stateStopped:
	case stateArchived, stateArchiving:
		via = stateRestoring
	case statePaused:
		via = stateResuming
	default:
		return errorReply(http.StatusBadRequest, "Sandbox is not in valid state")
	}
	if sb.pending() {
		return stateChangeInProgress()
	}
	if sb.state == statePaused && !supportsPause(sb.class) {
		return errorReply(http.StatusUnprocessableEntity, "Resuming is not supported for this sandbox")
	}
	if rep, ok := s.checkPerSandboxLimits(sb.cpu, sb.mem, sb.disk); !ok {
		return rep
	}
	sb.desired, sb.updatedAt, sb.lastActivityAt = stateStarted, c.now, c.now
	s.begin(sb, c.now, stateStarted, nil, via)
	return s.sandboxReply(sb)
}

// stopSandbox is stop() (sandbox.service.ts:2151-2188): started or paused
// boxes only; an ephemeral box is deleted instead.
func (s *Server) stopSandbox(c *call) reply {
	sb, rep, ok := s.sandboxOr404(c)
	if !ok {
		return rep
	}
	if rep, ok := assertNotErrored(sb); !ok {
		return rep
	}
	if sb.state != sb.desired {
		return stateChangeInProgress()
	}
	if sb.state != stateStarted && sb.state != statePaused {
		return errorReply(http.StatusBadRequest, "Sandbox is not in a stoppable state")
	}
	if sb.pending() {
		return stateChangeInProgress()
	}
	sb.updatedAt, sb.lastActivityAt = c.now, c.now
	// stop() only records the wish; the stop action moves the box to
	// stopping and the runner's answer to stopped (sandbox-stop.action.ts:
	// 38-60). An ephemeral box is soft-deleted instead.
	if sb.ephemeral() {
		s.softDelete(sb)
		s.begin(sb, c.now, stateDestroyed, nil, stateDestroying)
		return s.sandboxReply(sb)
	}
	sb.desired = stateStopped
	s.begin(sb, c.now, stateStopped, nil, stateStopping)
	return s.sandboxReply(sb)
}

// pauseSandbox is pause() (sandbox.service.ts:2190-2240): started boxes of a
// VM class only; the answer already says "pausing".
func (s *Server) pauseSandbox(c *call) reply {
	sb, rep, ok := s.sandboxOr404(c)
	if !ok {
		return rep
	}
	if sb.state != stateStarted {
		return errorReply(http.StatusBadRequest, "Sandbox must be in started state to pause")
	}
	if sb.pending() {
		return stateChangeInProgress()
	}
	if !supportsPause(sb.class) {
		return errorReply(http.StatusUnprocessableEntity, "Pausing is not supported for this sandbox")
	}
	sb.state, sb.desired, sb.updatedAt, sb.lastActivityAt = statePausing, statePaused, c.now, c.now
	s.begin(sb, c.now, statePaused, nil, statePausing)
	return s.sandboxReply(sb)
}

// archiveSandbox is archive() (sandbox.service.ts:355-388): stopped,
// non-ephemeral boxes only; the answer already says "archiving".
func (s *Server) archiveSandbox(c *call) reply {
	sb, rep, ok := s.sandboxOr404(c)
	if !ok {
		return rep
	}
	if rep, ok := assertNotErrored(sb); !ok {
		return rep
	}
	if sb.state != sb.desired {
		return stateChangeInProgress()
	}
	if sb.state != stateStopped {
		return errorReply(http.StatusBadRequest, "Sandbox is not stopped")
	}
	if sb.pending() {
		return stateChangeInProgress()
	}
	if sb.ephemeral() {
		return errorReply(http.StatusBadRequest, "Ephemeral sandboxes cannot be archived")
	}
	sb.state, sb.desired, sb.updatedAt = stateArchiving, stateArchived, c.now
	// The archive action moves the filesystem to object storage before the
	// box reads archived (sandbox-archive.action.ts:36-140).
	s.begin(sb, c.now, stateArchived, nil, stateArchiving)
	return s.sandboxReply(sb)
}

// resizeSandbox is resize() (sandbox.service.ts:2452-2686) behind the
// sandbox_resize feature flag (sandbox.controller.ts:609). The
// organization's per-sandbox quotas are not modelled.
func (s *Server) resizeSandbox(c *call) reply {
	if s.opts.ResizeDisabled {
		// @RequireFlagsEnabled (@openfeature/nestjs-sdk, an interceptor, so
		// after auth and body validation) throws its default exception when
		// the flag is off: new NotFoundException(`Cannot ${req.method}
		// ${req.url}`) (packages/nest/src/require-flags-enabled.decorator.ts).
		return errorReply(http.StatusNotFound, "Cannot %s %s", c.r.Method, c.r.URL.RequestURI())
	}
	sb, rep, ok := s.sandboxOr404(c)
	if !ok {
		return rep
	}
	var req struct{ CPU, Memory, Disk *int }
	if err := json.Unmarshal(c.body, &req); err != nil {
		return errorReply(http.StatusBadRequest, "invalid body: %v", err)
	}
	if sb.state != stateStarted && sb.state != stateStopped {
		return errorReply(http.StatusBadRequest, "Sandbox must be in started or stopped state to resize")
	}
	if sb.pending() {
		return stateChangeInProgress()
	}
	noChange := "No resource changes specified - sandbox is already at the desired configuration"
	if req.CPU == nil && req.Memory == nil && req.Disk == nil {
		return errorReply(http.StatusBadRequest, "%s", noChange)
	}
	if req.Disk != nil && sb.state != stateStopped {
		return errorReply(http.StatusBadRequest, "Disk resize can only be performed on a stopped sandbox")
	}
	if sb.state == stateStarted {
		if req.CPU != nil && *req.CPU < sb.cpu {
			return errorReply(http.StatusBadRequest, "Sandbox must be in stopped state to decrease the number of CPU cores")
		}
		if req.Memory != nil && *req.Memory < sb.mem {
			return errorReply(http.StatusBadRequest, "Sandbox must be in stopped state to decrease memory")
		}
	}
	if req.Disk != nil && *req.Disk < sb.disk {
		return errorReply(http.StatusBadRequest, "Sandbox disk size cannot be decreased")
	}
	cpu, mem, disk := intOr(req.CPU, sb.cpu), intOr(req.Memory, sb.mem), intOr(req.Disk, sb.disk)
	if cpu == sb.cpu && mem == sb.mem && disk == sb.disk {
		return errorReply(http.StatusBadRequest, "%s", noChange)
	}
	if rep, ok := s.checkPerSandboxLimits(cpu, mem, disk); !ok {
		return rep
	}
	previous := sb.state
	sb.state, sb.updatedAt = stateResizing, c.now
	s.begin(sb, c.now, previous, func(time.Time) { sb.cpu, sb.mem, sb.disk = cpu, mem, disk }, stateResizing)
	return s.sandboxReply(sb)
}

// replaceLabels is replaceLabels (sandbox.service.ts:2837-2849): the labels
// are replaced whole, whatever the state.
func (s *Server) replaceLabels(c *call) reply {
	sb, rep, ok := s.sandboxOr404(c)
	if !ok {
		return rep
	}
	var req struct {
		Labels map[string]string `json:"labels"`
	}
	if err := json.Unmarshal(c.body, &req); err != nil {
		return errorReply(http.StatusBadRequest, "invalid body: %v", err)
	}
	sb.labels, sb.updatedAt = copyMap(req.Labels), c.now
	return reply{status: http.StatusOK, body: map[string]any{"labels": copyMap(sb.labels)}}
}

func intervalParam(c *call) int {
	f, _ := strconv.ParseFloat(c.params["interval"], 64) // a number, checked by the validator
	return int(f)
}

// setAutoStop is setAutostopInterval (sandbox.service.ts:3033-3041).
func (s *Server) setAutoStop(c *call) reply {
	sb, rep, ok := s.sandboxOr404(c)
	if !ok {
		return rep
	}
	v := intervalParam(c)
	if v < 0 {
		return errorReply(http.StatusBadRequest, "Auto-stop interval must be non-negative")
	}
	sb.autoStop, sb.updatedAt = v, c.now
	return s.sandboxReply(sb)
}

// setAutoArchive is setAutoArchiveInterval (sandbox.service.ts:3043-3051).
func (s *Server) setAutoArchive(c *call) reply {
	sb, rep, ok := s.sandboxOr404(c)
	if !ok {
		return rep
	}
	v, rep, ok := s.resolveAutoArchive(intervalParam(c))
	if !ok {
		return rep
	}
	sb.autoArchive, sb.updatedAt = v, c.now
	return s.sandboxReply(sb)
}

// setAutoDelete is setAutoDeleteInterval (sandbox.service.ts:3053-3065):
// any value (negative disables), except that GPU boxes stay ephemeral.
func (s *Server) setAutoDelete(c *call) reply {
	sb, rep, ok := s.sandboxOr404(c)
	if !ok {
		return rep
	}
	if sb.gpu > 0 {
		return errorReply(http.StatusBadRequest, "GPU sandboxes must remain ephemeral")
	}
	sb.autoDelete, sb.updatedAt = intervalParam(c), c.now
	return s.sandboxReply(sb)
}

// recoverSandbox is recover() with recoverInPlace (sandbox.service.ts:
// 2242-2285, 2345-2450): a recoverable errored box is stopped with its error
// cleared, then started unless skipStart.
func (s *Server) recoverSandbox(c *call) reply {
	sb, rep, ok := s.sandboxOr404(c)
	if !ok {
		return rep
	}
	if !sb.recoverable {
		return errorReply(http.StatusBadRequest, "Sandbox is not in a recoverable state")
	}
	if sb.state != stateError {
		return errorReply(http.StatusBadRequest, "Sandbox must be in error state to recover")
	}
	sb.state, sb.desired, sb.errorReason, sb.recoverable, sb.tr = stateStopped, stateStopped, "", false, nil
	sb.updatedAt, sb.lastActivityAt = c.now, c.now
	if c.query.Get("skipStart") != "true" {
		sb.desired = stateStarted
		s.begin(sb, c.now, stateStarted, nil, stateStarting)
	}
	return s.sandboxReply(sb)
}

// snapshotSandbox is createSnapshotFromSandbox (sandbox.service.ts:
// 1297-1439): started or stopped boxes not in a state change; memory only for
// Windows, which needs started for memory and stopped for the filesystem.
// The box shows "snapshotting" until the runner's commit and push end
// (runV0SnapshotFromSandbox, 1441-1500); only then is the snapshot
// inserted, already "active" (persist-snapshot-from-sandbox.util.ts:56-76),
// so until then no read finds it. A name taken by then fails the insert
// (23505, :80-84): the box goes back to its state and no snapshot is made;
// the request itself checks no name.
func (s *Server) snapshotSandbox(c *call) reply {
	sb, rep, ok := s.sandboxOr404(c)
	if !ok {
		return rep
	}
	var req struct {
		Name          string `json:"name"`
		IncludeMemory bool   `json:"includeMemory"`
	}
	if err := json.Unmarshal(c.body, &req); err != nil {
		return errorReply(http.StatusBadRequest, "invalid body: %v", err)
	}
	if sb.state != stateStarted && sb.state != stateStopped {
		return errorReply(http.StatusBadRequest, "Sandbox must be in started or stopped state to create a snapshot")
	}
	if sb.pending() {
		return stateChangeInProgress()
	}
	if sb.class == ClassWindows {
		if req.IncludeMemory && sb.state != stateStarted {
			return errorReply(http.StatusBadRequest, "Snapshots with memory require the Windows sandbox to be running (STARTED)")
		}
		if !req.IncludeMemory && sb.state != stateStopped {
			return errorReply(http.StatusBadRequest, "Filesystem-only snapshots require the Windows sandbox to be stopped (STOPPED)")
		}
	} else if req.IncludeMemory {
		return errorReply(http.StatusBadRequest, "includeMemory is only supported for Windows sandboxes")
	}
	previous := sb.state
	sb.state, sb.updatedAt, sb.makingSnapshot = stateSnapshotting, c.now, req.Name
	s.begin(sb, c.now, previous, func(now time.Time) {
		sb.makingSnapshot = ""
		s.persistSnapshot(sb, req.Name, now)
	}, stateSnapshotting)
	return s.sandboxReply(sb)
}

// persistSnapshot inserts the snapshot a box's snapshot job made, unless
// its name was taken meanwhile.
func (s *Server) persistSnapshot(sb *sandbox, name string, now time.Time) {
	if s.snapshotByOwnName(name) != nil {
		return
	}
	sn := &snapshot{seq: s.nextSeq(), id: fakeapi.UUID(), name: name, state: snapActive, cpu: sb.cpu, gpu: sb.gpu,
		mem: sb.mem, disk: sb.disk, class: sb.class, createdAt: now, fromSandbox: sb.id}
	sn.ref = "daytona-internal/snapshot-" + sn.id[:8] + ":fake"
	sn.activated(now)
	s.snapshots[sn.id] = sn
}
