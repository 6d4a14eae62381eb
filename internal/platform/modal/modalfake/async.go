package modalfake

// Modal is asynchronous, and so is the fake by default: every object that
// takes time on Modal passes through its unsettled state for at least one
// read before it settles. Transitions advance by the calls that read them,
// never by wall-clock time, so tests stay fast and deterministic. Sources
// are Modal's official Go SDK (github.com/modal-labs/modal-client/go
// v0.11.1, the version in go.mod) and the official protos in shared/specs:
//
//   - Image builds finish only when joined. ImageGetOrCreate answers a new
//     build's image_id without a result; the SDK then joins the build with
//     ImageJoinStreaming in a loop, and a join whose stream ends without a
//     result ("the stream ends without a result, requiring another
//     iteration") is joined again (image.go, Image.Build and
//     waitForBuildIteration). The fake's first join streams progress and
//     ends without a result; the next one builds and answers the result.
//   - A sandbox's create answers before its task is scheduled.
//     SandboxGetTaskId's task_id is optional, "None if the sandbox was
//     terminated before a task could be scheduled" (modal-api.proto,
//     SandboxGetTaskIdResponse), and the SDK polls it until a task_id or a
//     task_result comes (sandbox.go, waitForTaskID, every 500 ms; the V1
//     create waits there for scheduling, waitForScheduling). A V2 create's
//     answer may lack the task_id and router access: the SDK keeps what
//     it is given (sandbox.go, ExperimentalCreate, `sb.taskID =
//     createResp.GetTaskId()`) and polls for the rest (ensureTaskID). The
//     fake's new sandbox shows no task to its first SandboxGetTaskId or
//     SandboxWait read, then is scheduled.
//   - A list may omit a sandbox made a moment ago: the fake leaves a new
//     sandbox out of the first list call that would show it. Neither the
//     proto (SandboxListRequest) nor the SDK (sandbox.go,
//     ExperimentalList, paging SandboxListV2 by created_at) promises that
//     a list shows a create that has just answered, Modal documents that
//     "the Sandbox's corresponding container will be created
//     asynchronously" (modal.com/docs/reference/modal.Sandbox, create),
//     and Modal's server is not public: the fake takes the reading a
//     client must survive, as the project does for every platform's list
//     (DESIGN.md, "listings lag a create").
//   - A V1 memory snapshot is taken after SandboxSnapshot answers: "wait for
//     the snapshot to succeed. this is implemented as a second idempotent
//     rpc because the snapshot itself may take a while to complete"
//     (sandbox.go, ExperimentalSnapshot). SandboxSnapshotWait with a
//     timeout holds the call until the snapshot is done (the fake finishes
//     it there); with timeout 0 it answers without a result while the
//     snapshot is pending (once, then it is done). A restore from a
//     snapshot still pending is refused.
//   - V2 memory snapshots (router TaskSnapshotMemory) and filesystem
//     snapshots (router TaskSnapshotFilesystem) answer when the snapshot is
//     made: the SDK gives those calls 165 s and 55 s and uses the answer's
//     id at once, with no wait call (sandbox.go, ExperimentalSnapshot and
//     snapshotFilesystem). The control plane's SandboxSnapshotFs is not
//     called by that SDK and not served.
//
// Instant (Workspace.Instant) turns all of this off for the tests that need
// a settled object from its first read; each says why where it calls it.

// slowReads is how many reads show a new object unsettled in the slow
// (default) mode: one, the least that proves a client waits.
const slowReads = 1

// Instant makes the workspace settle every new object at once: builds
// finish on their first join, sandboxes are scheduled at their create and
// listed at once, V1 memory snapshots are done when taken. Only objects
// made after the call are affected.
func (w *Workspace) Instant() {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	w.instant = true
}

// unsettledReads is how many reads a new object stays unsettled; w.s.mu
// held.
func (w *Workspace) unsettledReads() int {
	if w.instant {
		return 0
	}
	return slowReads
}

// scheduled reports whether a sandbox has its task: false until it has
// been read pending.
func (sb *sandbox) scheduled() bool { return sb.pendingReads == 0 }

// readState is one read of a sandbox's scheduling (SandboxGetTaskId,
// SandboxWait): a pending sandbox shows pending to this read and is
// scheduled by the next. A finished sandbox is never scheduled later.
// It reports whether the sandbox was scheduled before this read; w.s.mu
// held.
func (sb *sandbox) readState() bool {
	if sb.scheduled() {
		return true
	}
	if !sb.finished {
		sb.pendingReads--
	}
	return false
}
