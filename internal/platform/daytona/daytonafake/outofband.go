package daytonafake

// Changes made "outside Terraform": what a user does in the dashboard or
// another client, or what the platform does on its own. They are changes
// that have finished by the time the test looks, as a client that made
// them has waited for them (the SDKs' stop() and start() wait until the box
// is stopped or started, sdk-typescript Sandbox.ts:275-336), so they take
// effect at once, with no transitional state. An unknown id is a test bug
// and fails the test.

func (s *Server) sandboxForOOB(op, id string) *sandbox {
	sb, ok := s.sandboxes[id]
	if !ok || !sb.live() {
		s.t.Errorf("daytonafake: %s: no sandbox %q", op, id)
		return nil
	}
	return sb
}

// StopOutOfBand stops a sandbox (an ephemeral one is deleted, as stop()
// does).
func (s *Server) StopOutOfBand(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sb := s.sandboxForOOB("StopOutOfBand", id); sb != nil {
		now := s.clock.Now()
		sb.tr, sb.updatedAt, sb.lastActivityAt = nil, now, now
		if sb.ephemeral() {
			s.softDelete(sb)
			sb.state = stateDestroyed
			return
		}
		sb.state, sb.desired = stateStopped, stateStopped
	}
}

// ArchiveOutOfBand archives a sandbox, whatever its state.
func (s *Server) ArchiveOutOfBand(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sb := s.sandboxForOOB("ArchiveOutOfBand", id); sb != nil {
		sb.tr, sb.state, sb.desired, sb.updatedAt = nil, stateArchived, stateArchived, s.clock.Now()
	}
}

// PauseOutOfBand pauses a sandbox, whatever its class (the platform may
// pause boxes a client could not).
func (s *Server) PauseOutOfBand(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sb := s.sandboxForOOB("PauseOutOfBand", id); sb != nil {
		sb.tr, sb.state, sb.desired, sb.updatedAt = nil, statePaused, statePaused, s.clock.Now()
	}
}

// DeleteSandboxOutOfBand destroys a sandbox: lookups stop finding it.
func (s *Server) DeleteSandboxOutOfBand(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sb := s.sandboxForOOB("DeleteSandboxOutOfBand", id); sb != nil {
		s.softDelete(sb)
		sb.tr, sb.state, sb.updatedAt = nil, stateDestroyed, s.clock.Now()
	}
}

// FailSandbox puts a sandbox in the error state with reason; recoverable
// says whether POST .../recover may bring it back.
func (s *Server) FailSandbox(id, reason string, recoverable bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sb := s.sandboxForOOB("FailSandbox", id); sb != nil {
		sb.tr, sb.state, sb.errorReason, sb.recoverable, sb.updatedAt = nil, stateError, reason, recoverable, s.clock.Now()
	}
}

func (s *Server) snapshotForOOB(op, idOrName string) *snapshot {
	sn := s.findSnapshot(idOrName)
	if sn == nil {
		s.t.Errorf("daytonafake: %s: no snapshot %q", op, idOrName)
	}
	return sn
}

// DeactivateSnapshotOutOfBand makes a snapshot (by id or name) inactive, as
// the deactivation cron or a dashboard user does.
func (s *Server) DeactivateSnapshotOutOfBand(idOrName string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sn := s.snapshotForOOB("DeactivateSnapshotOutOfBand", idOrName); sn != nil {
		sn.tr, sn.state, sn.updatedAt = nil, snapInactive, s.clock.Now()
	}
}

// DeleteSnapshotOutOfBand removes a snapshot (by id or name) at once.
func (s *Server) DeleteSnapshotOutOfBand(idOrName string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sn := s.snapshotForOOB("DeleteSnapshotOutOfBand", idOrName); sn != nil {
		sn.tr, sn.removed = nil, true
	}
}

// DeleteVolumeOutOfBand deletes a volume (by id) at once, mounted or not:
// it is "deleted" and renamed "<name>-deleted" as the volume manager leaves
// it (volume.manager.ts:272-284).
func (s *Server) DeleteVolumeOutOfBand(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.volumes[id]
	if !ok {
		s.t.Errorf("daytonafake: DeleteVolumeOutOfBand: no volume %q", id)
		return
	}
	s.beginVolumeDelete(v, s.clock.Now())
	settle(&v.tr, &v.state, s.clock.Now())
}

// FailNextBuild makes the next snapshot created by POST /snapshots fail:
// a buildInfo build ends in "build_failed", an image pull in "error", with
// reason as errorReason and logTail appended to the build logs.
func (s *Server) FailNextBuild(reason, logTail string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failNext = &buildFailure{reason: reason, logTail: logTail}
}

// SettleAll finishes every transition in progress at once, as if every
// object had been polled enough.
func (s *Server) SettleAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	for _, sb := range s.sandboxes {
		settle(&sb.tr, &sb.state, now)
	}
	for _, sn := range s.snapshots {
		settle(&sn.tr, &sn.state, now)
	}
	for _, v := range s.volumes {
		settle(&v.tr, &v.state, now)
	}
	s.advanceClock(now)
}

// ContextFiles is the content of the build context uploaded under hash
// (path → file content), or nil when none was.
func (s *Server) ContextFiles(hash string) map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	files, ok := s.storage.contexts[hash]
	if !ok {
		return nil
	}
	return copyMap(files)
}

// Uploads counts the objects put into the fake's object storage.
func (s *Server) Uploads() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.storage.puts
}
