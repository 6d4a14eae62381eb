package platformtest

import "testing"

// What a fake recorded that the platform's own API does not show a client:
// optional hooks a kit's OutOfBand implements where its fake keeps the
// record, so the scenarios check what reached the platform. A scenario
// checks them where the kit gives them, and says so in its log where not.

// ExecRun is one command a platform ran in a box, as it reached the
// platform.
type ExecRun struct {
	// Command is the program and its arguments as the platform split them.
	Command []string
	// Dir is the directory it ran in ("" where the platform was not told
	// one and the fake does not say its default).
	Dir string
	// Env is what the command added to the box's environment (nil where
	// the platform takes none with a command).
	Env map[string]string
	// TimeoutSecs is the timeout the platform was given (0: none).
	TimeoutSecs int
	// Killed: the platform killed it (past its timeout).
	Killed bool
}

// ExecRecorder is an OutOfBand whose fake records the commands it ran.
type ExecRecorder interface {
	// ExecRuns are the commands run in the box, oldest first.
	ExecRuns(t *testing.T, sandboxID string) []ExecRun
}

// TakenSnapshot is a snapshot a fake holds of a box.
type TakenSnapshot struct {
	ID, Name string
	// Ready: settled, usable for a restore (Daytona active, Modal ready).
	Ready bool
}

// SnapshotRecorder is an OutOfBand whose fake can say which snapshots it
// holds of a box, also those in no Terraform state (an action's).
type SnapshotRecorder interface {
	// SnapshotsOf are the live snapshots taken of the box, oldest first.
	SnapshotsOf(t *testing.T, sandboxID string) []TakenSnapshot
}

// EnvRecorder is an OutOfBand that can say what environment a box was
// given, as it reached the platform.
type EnvRecorder interface {
	// SandboxEnv is the box's environment; false when there is no such box.
	SandboxEnv(t *testing.T, sandboxID string) (map[string]string, bool)
}
