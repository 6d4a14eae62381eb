package daytonafake

import "time"

// settle finishes a transition at once.
func settle(tr **transition, state *string, now time.Time) {
	t := *tr
	if t == nil {
		return
	}
	*tr = nil
	*state = t.to
	if t.done != nil {
		t.done(now)
	}
}

// poll counts one read of an object in transition. Each of the
// transition's stages answers Options.Polls reads, in order; the read after
// the last finds the object settled. Daytona's managers move an object one
// step per cron run or job (sandbox.manager.ts:97, 173, 233, 831;
// snapshot.manager.ts; volume.manager.ts), so a client that reads often
// sees every step; the fake counts reads instead of seconds.
func (s *Server) poll(tr **transition, state *string, now time.Time) {
	t := *tr
	if t == nil {
		return
	}
	stage := t.reads / s.opts.Polls
	t.reads++
	if stage >= len(t.stages) {
		settle(tr, state, now)
		return
	}
	*state = t.stages[stage]
}

// startTransition puts t on an object. With Options.Instant it settles at
// once, inside the request that began it.
func (s *Server) startTransition(tr **transition, state *string, t *transition, now time.Time) {
	*tr = t
	if s.opts.Instant {
		settle(tr, state, now)
	}
}

// begin starts a sandbox transition toward to (desired), showing stages to
// the reads in between.
func (s *Server) begin(sb *sandbox, now time.Time, to string, done func(now time.Time), stages ...string) {
	s.startTransition(&sb.tr, &sb.state, &transition{stages: stages, to: to, done: func(now time.Time) {
		sb.updatedAt, sb.lastActivityAt = now, now
		if done != nil {
			done(now)
		}
	}}, now)
}

func (s *Server) pollSandbox(sb *sandbox, now time.Time) { s.poll(&sb.tr, &sb.state, now) }

func (s *Server) pollSnapshot(sn *snapshot, now time.Time) { s.poll(&sn.tr, &sn.state, now) }

func (s *Server) pollVolume(v *volume, now time.Time) { s.poll(&v.tr, &v.state, now) }

// advanceClock does, lazily on every request and view, what Daytona's crons
// would have done by now on the fake's clock.
func (s *Server) advanceClock(now time.Time) {
	for _, sb := range s.sandboxes {
		s.autoLifecycle(sb, now)
	}
	for _, sn := range s.snapshots {
		s.autoDeactivate(sn, now)
	}
}

// autoLifecycle applies the auto-stop, auto-archive and auto-delete crons
// (sandbox.manager.ts:97-171, 173-231, 233-298). Each looks only at boxes at
// rest (state = desiredState, not pending) and compares lastActivityAt with
// the interval in minutes, strictly ("lastActivityAt < NOW() - interval").
// A stop by the platform is a lifecycle update, so the archive and delete
// deadlines run from it; an ephemeral box (autoDeleteInterval 0) is deleted
// instead of stopped, as stop() does for it (sandbox.service.ts:2168-2173).
func (s *Server) autoLifecycle(sb *sandbox, now time.Time) {
	for sb.tr == nil && sb.state == sb.desired {
		switch sb.state {
		case stateStarted:
			if sb.autoStop == 0 {
				return
			}
			at := sb.lastActivityAt.Add(minutes(sb.autoStop))
			if !now.After(at) {
				return
			}
			if sb.ephemeral() {
				s.softDelete(sb)
				sb.state = stateDestroyed
			} else {
				sb.state, sb.desired = stateStopped, stateStopped
			}
			sb.lastActivityAt, sb.updatedAt = at, at
		case stateStopped:
			archiveAt := sb.lastActivityAt.Add(minutes(sb.autoArchive))
			if sb.autoDelete >= 0 {
				deleteAt := sb.lastActivityAt.Add(minutes(sb.autoDelete))
				if now.After(deleteAt) && !deleteAt.After(archiveAt) {
					s.softDelete(sb)
					sb.state, sb.updatedAt = stateDestroyed, deleteAt
					return
				}
			}
			if !now.After(archiveAt) || sb.ephemeral() {
				return
			}
			sb.state, sb.desired, sb.updatedAt = stateArchived, stateArchived, archiveAt
		default:
			return
		}
	}
}

// deactivationCron is how often the server's deactivateOldSnapshots runs
// (@Cron EVERY_10_MINUTES, snapshot.manager.ts:1361).
const deactivationCron = 10 * time.Minute

// autoDeactivate is deactivateOldSnapshots (snapshot.manager.ts:1361-1379):
// an active, non-general snapshot created and last used longer ago than the
// deactivation timeout becomes inactive at the cron's next run. (The
// server also spares snapshots sharing their ref with another active one;
// the fake's refs are unique.)
func (s *Server) autoDeactivate(sn *snapshot, now time.Time) {
	if sn.general || sn.removed || sn.tr != nil || sn.state != snapActive {
		return
	}
	last := sn.createdAt
	if sn.lastUsedAt != nil && sn.lastUsedAt.After(last) {
		last = *sn.lastUsedAt
	}
	due := last.Add(s.opts.SnapshotDeactivation)
	run := due.Truncate(deactivationCron).Add(deactivationCron)
	if !now.Before(run) {
		sn.state, sn.updatedAt = snapInactive, run
	}
}

func minutes(n int) time.Duration { return time.Duration(n) * time.Minute }

// activated is what every move of a snapshot to active records: the
// server's updateSnapshotState sets lastUsedAt whenever the state becomes
// ACTIVE (snapshot.manager.ts:1296-1302), after a build or pull and after
// an activation alike, so an activated snapshot has its full window again.
func (sn *snapshot) activated(now time.Time) {
	sn.updatedAt = now
	sn.lastUsedAt = timePtr(now)
}
