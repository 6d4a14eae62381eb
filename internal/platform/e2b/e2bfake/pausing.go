package e2bfake

import (
	"fmt"
	"net/http"
)

// A sandbox that pauses on its own passes E2B's internal state "pausing"
// while its memory and disk are written out: the orchestrator's states are
// running → {pausing, killing, snapshotting}, pausing → killing only
// (e2b-dev/infra, packages/api/internal/sandbox/sandboxtypes/states.go,
// AllowedTransitions). The API's SandboxState has no "pausing": GET and the
// list show such a box as "paused" ("user can work with that as if it's
// paused": handlers/sandbox_get.go; handlers/sandboxes_list.go,
// instanceInfoToPaginatedSandboxes). What tells it apart is how actions on
// it are answered (see refusePausing and the handlers).
//
// A pause by request is not observed in between: POST /pause answers only
// once the box is paused (handlers/sandbox_pause.go calls
// orchestrator.RemoveSandbox, which returns after removeSandboxFromNode:
// orchestrator/delete_instance.go). Create and resume are synchronous too:
// POST /sandboxes answers 201 after the store holds the running box
// (orchestrator/create_instance.go, sandboxStore.Add before it returns), and
// connect waits out a pausing box and answers once it runs again
// (handlers/sandbox_connect.go, WaitForStateChange then startSandbox).
const statePausing = "pausing"

// beginPause starts a pause E2B makes on its own (timeout with autoPause)
// or a dashboard user makes: the box is pausing for Options.PauseReads
// reads, or paused at once when that is 0.
func (s *Server) beginPause(sb *sandbox, memory bool) {
	sb.pauseMemory = memory
	if s.opts.PauseReads <= 0 {
		sb.state = statePaused
		return
	}
	sb.state, sb.pausingReads = statePausing, s.opts.PauseReads
}

// finishPause settles a pausing box as paused.
func finishPause(sb *sandbox) {
	if sb.state == statePausing {
		sb.state, sb.pausingReads = statePaused, 0
	}
}

// observed counts one read of the box: a pausing box settles after
// Options.PauseReads of them.
func observed(sb *sandbox) {
	if sb.state != statePausing {
		return
	}
	sb.pausingReads--
	if sb.pausingReads <= 0 {
		finishPause(sb)
	}
}

// apiState is the state E2B reports: a pausing box is "paused"
// (handlers/sandbox_get.go maps StatePausing to api.Paused).
func apiState(sb *sandbox) string {
	if sb.state == statePausing {
		return statePaused
	}
	return sb.state
}

// refusePausing is E2B's answer to an action that needs a running box
// (timeout, network) on a pausing one: the store's update finds it not
// running and the API answers 409 with SandboxChangingStateMsg
// (orchestrator/keep_alive.go and orchestrator/update_network.go, the
// NotRunningError case; utils/messages.go).
func refusePausing(sb *sandbox) (reply, bool) {
	if sb.state != statePausing {
		return reply{}, false
	}
	return errorReply(http.StatusConflict, "Sandbox %q is being paused", sb.id), true
}

// refuseSnapshotOfPausing: a snapshot is a transition to "snapshotting",
// which a pausing box cannot take; E2B answers 409
// (handlers/snapshot_template_create.go, InvalidStateTransitionError).
func refuseSnapshotOfPausing(sb *sandbox) (reply, bool) {
	if sb.state != statePausing {
		return reply{}, false
	}
	return errorReply(http.StatusConflict, "%s", fmt.Sprintf("Sandbox '%s' cannot be snapshotted while in '%s' state", sb.id, statePausing)), true
}
