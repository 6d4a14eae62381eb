package e2bfake

// Changes made "outside Terraform": what a user does in the E2B dashboard or
// what E2B does on its own. An unknown ID is a test bug and fails the test.

// PauseOutOfBand pauses a running sandbox (with memory), as a dashboard user
// would: it is pausing for Options.PauseReads reads before it is paused.
func (s *Server) PauseOutOfBand(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sb, ok := s.sandboxes[id]
	if !ok {
		s.t.Errorf("e2bfake: PauseOutOfBand: no sandbox %q", id)
		return
	}
	s.beginPause(sb, true)
}

// KillOutOfBand removes a sandbox, running or paused.
func (s *Server) KillOutOfBand(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.sandboxes[id]; !ok {
		s.t.Errorf("e2bfake: KillOutOfBand: no sandbox %q", id)
		return
	}
	delete(s.sandboxes, id)
}

// DeleteTemplateOutOfBand removes a template or snapshot, by ID, name or snapshot ID.
func (s *Server) DeleteTemplateOutOfBand(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, _ := s.findTemplate(id)
	if t == nil {
		s.t.Errorf("e2bfake: DeleteTemplateOutOfBand: no template %q", id)
		return
	}
	delete(s.templates, t.id)
}

// DeleteVolumeOutOfBand removes a volume by ID.
func (s *Server) DeleteVolumeOutOfBand(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.volumes[id]; !ok {
		s.t.Errorf("e2bfake: DeleteVolumeOutOfBand: no volume %q", id)
		return
	}
	delete(s.volumes, id)
}

// FailNextBuild makes the next build started for a template (by ID or name)
// end in "error" with reason as its message. Builds whose files were never
// uploaded fail on their own.
func (s *Server) FailNextBuild(templateID, reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failNext[templateID] = reason
}
