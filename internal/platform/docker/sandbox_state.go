package docker

import (
	"fmt"

	"github.com/docker/docker/api/types/container"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// normalizeStatus maps a container's state to the normalized sandbox state.
// A container created but never started counts as stopped: that is how
// Create makes a box whose desired state is "stopped".
func normalizeStatus(st *container.State) platform.SandboxState {
	if st == nil {
		return platform.StateUnknown
	}
	switch st.Status {
	case container.StateRunning:
		if st.Paused {
			return platform.StatePaused
		}
		return platform.StateRunning
	case container.StatePaused:
		return platform.StatePaused
	case container.StateCreated, container.StateExited:
		return platform.StateStopped
	case container.StateRestarting:
		return platform.StateStarting
	case container.StateRemoving:
		return platform.StateStopping
	case container.StateDead:
		return platform.StateFailed
	}
	return platform.StateUnknown
}

// stateAction is one engine call on the way from one state to another.
type stateAction string

const (
	actStart   stateAction = "start"
	actPause   stateAction = "pause"
	actUnpause stateAction = "unpause"
	actStop    stateAction = "stop"
)

// stateSteps is the sequence of engine calls that moves a container from one
// normalized state to a desired one, in place (the container id never
// changes). A stop always runs unpaused: the engine delivers the stop
// signal only to a running process.
func stateSteps(from, to platform.SandboxState) ([]stateAction, error) {
	if !isDesiredState(to) {
		return nil, fmt.Errorf("state %q is not one of running, paused, stopped", to)
	}
	switch from {
	case platform.StateRunning:
		switch to {
		case platform.StatePaused:
			return []stateAction{actPause}, nil
		case platform.StateStopped:
			return []stateAction{actStop}, nil
		}
		return nil, nil
	case platform.StatePaused:
		switch to {
		case platform.StateRunning:
			return []stateAction{actUnpause}, nil
		case platform.StateStopped:
			return []stateAction{actUnpause, actStop}, nil
		}
		return nil, nil
	case platform.StateStopped:
		switch to {
		case platform.StateRunning:
			return []stateAction{actStart}, nil
		case platform.StatePaused:
			return []stateAction{actStart, actPause}, nil
		}
		return nil, nil
	}
	return nil, fmt.Errorf("a sandbox that is %s cannot be made %s; wait for it to settle, or delete it", from, to)
}

func isDesiredState(s platform.SandboxState) bool {
	return s == platform.StateRunning || s == platform.StatePaused || s == platform.StateStopped
}
