package flyfake

// Changes made "outside Terraform": what a user does with flyctl or the
// dashboard, or what Fly does on its own. They take effect at once (no
// polls). An unknown id is a test bug and fails the test.

func (s *Server) machineForOOB(op, id string) *machine {
	m, found := s.machines[id]
	if !found || m.gone || m.state == StateDestroyed {
		s.t.Errorf("flyfake: %s: no machine %q", op, id)
		return nil
	}
	settle(m, s.clock.Now())
	return m
}

// CreateApp creates an app, as flyctl apps create would.
func (s *Server) CreateApp(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, taken := s.apps[name]; !taken {
		s.addApp(name, s.clock.Now())
	}
}

// SuspendOutOfBand suspends a started machine (Fly Proxy autostop with
// auto_stop_machines = "suspend" does that); the suspend snapshot is kept
// unless Options.LoseSuspendSnapshots.
func (s *Server) SuspendOutOfBand(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m := s.machineForOOB("SuspendOutOfBand", id); m != nil {
		now := s.clock.Now()
		m.state, m.updatedAt, m.suspendSnapshot = StateSuspended, now, !s.opts.LoseSuspendSnapshots
		m.addEvent("suspend", "suspended", "flyd", now)
	}
}

// StopOutOfBand stops a machine, whatever its state.
func (s *Server) StopOutOfBand(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m := s.machineForOOB("StopOutOfBand", id); m != nil {
		now := s.clock.Now()
		m.state, m.updatedAt, m.suspendSnapshot = StateStopped, now, false
		m.addEvent("exit", "stopped", "flyd", now)
	}
}

// LoseSuspendSnapshot discards a suspended machine's memory snapshot (Fly
// does on deploys, migrations and host maintenance: docs
// reference/suspend-resume): its next start is a cold boot. The loss is an
// event {type: "suspend", status: "snapshot_discarded", source: "flyd"}, the
// fake's wording.
func (s *Server) LoseSuspendSnapshot(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m := s.machineForOOB("LoseSuspendSnapshot", id); m != nil {
		if m.state != StateSuspended {
			s.t.Errorf("flyfake: LoseSuspendSnapshot: machine %s is %s, not suspended", id, m.state)
			return
		}
		m.suspendSnapshot = false
		m.addEvent("suspend", "snapshot_discarded", "flyd", s.clock.Now())
	}
}

// DestroyMachineOutOfBand destroys a machine at once; its volume is freed.
func (s *Server) DestroyMachineOutOfBand(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m := s.machineForOOB("DestroyMachineOutOfBand", id); m != nil {
		s.beginDestroy(m, s.clock.Now())
		settle(m, s.clock.Now())
		m.gone = true
	}
}

// DestroyVolumeOutOfBand destroys a volume at once, detaching it from its
// machine first (the machine's config still names it, as on Fly).
func (s *Server) DestroyVolumeOutOfBand(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, found := s.volumes[id]
	if !found || v.state != VolumeCreated {
		s.t.Errorf("flyfake: DestroyVolumeOutOfBand: no volume %q", id)
		return
	}
	s.destroyVolume(v, s.clock.Now())
	v.state = VolumeDestroyed
}

// SnapshotOutOfBand takes an on-demand snapshot of a volume, as
// `fly volumes snapshots create` would, and returns its id. Like one made
// through the API, it lists as waiting, then running, then created
// (Options.Instant: created at once).
func (s *Server) SnapshotOutOfBand(volumeID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, found := s.volumes[volumeID]
	if !found || v.state != VolumeCreated {
		s.t.Errorf("flyfake: SnapshotOutOfBand: no volume %q", volumeID)
		return ""
	}
	return s.addSnapshot(v, s.clock.Now(), false).id
}
