package daytonafake

import (
	"regexp"
	"time"
)

// Sandbox states and desired states (spec SandboxState, SandboxDesiredState;
// sandbox-state.enum.ts).
const (
	stateCreating     = "creating"
	stateStarted      = "started"
	stateStarting     = "starting"
	stateStopped      = "stopped"
	stateStopping     = "stopping"
	statePausing      = "pausing"
	statePaused       = "paused"
	stateResuming     = "resuming"
	stateArchiving    = "archiving"
	stateArchived     = "archived"
	stateDestroying   = "destroying"
	stateDestroyed    = "destroyed"
	stateResizing     = "resizing"
	stateSnapshotting = "snapshotting"
	stateError        = "error"
	stateBuildFailed  = "build_failed"
	stateRestoring    = "restoring"
)

// Snapshot states (spec SnapshotState).
const (
	snapPending     = "pending"
	snapPulling     = "pulling"
	snapBuilding    = "building"
	snapActive      = "active"
	snapInactive    = "inactive"
	snapError       = "error"
	snapBuildFailed = "build_failed"
	snapRemoving    = "removing"
)

// Volume states (spec VolumeState).
const (
	volPendingCreate = "pending_create"
	volCreating      = "creating"
	volReady         = "ready"
	volPendingDelete = "pending_delete"
	volDeleting      = "deleting"
	volDeleted       = "deleted"
	volError         = "error"
)

// Sandbox classes (spec SandboxClass).
const (
	ClassContainer = "container"
	ClassLinuxVM   = "linux-vm"
	ClassWindows   = "windows"
	ClassAndroid   = "android"
)

// Entity defaults: Sandbox (sandbox.entity.ts:211-222) and Snapshot
// (snapshot.entity.ts:68-85).
const (
	defaultAutoStop    = 15
	defaultAutoArchive = 7 * 24 * 60
	defaultAutoDelete  = -1
	defaultSnapCPU     = 1
	defaultSnapMem     = 1
	defaultSnapDisk    = 3
	defaultUser        = "daytona" // sandbox.service.ts:652
	fakeRegion         = "us"
	fakeRunnerID       = "8f7b5c1e-2d3a-4b6c-9e0f-1a2b3c4d5e6f"
)

// transition is a state change in progress: the states it shows to reads
// until it settles, and what it becomes. The server's managers reconcile
// state toward desiredState on crons every 5-10 s (sandbox.manager.ts:97,
// 173, 233, 831); the fake moves on by reads instead (Options.Polls).
type transition struct {
	stages []string // shown in order, each to Options.Polls reads
	to     string   // the state it settles in
	reads  int
	// done applies what settling changes besides the state (resized
	// resources, a failed build's reason...).
	done func(now time.Time)
}

type sandbox struct {
	region           string // the target it was created in
	seq              int64
	id, name         string
	snapshot         string // the snapshot's name, as the server stores it (sandbox.service.ts:649)
	snapshotRef      string // the snapshot id or name the client sent
	user             string
	env, labels      map[string]string
	public           bool
	networkBlockAll  bool
	networkAllowList *string
	domainAllowList  *string
	class            string
	cpu, gpu         int
	mem, disk        int
	state, desired   string
	tr               *transition
	makingSnapshot   string // the name of the snapshot its job is making
	errorReason      string
	recoverable      bool
	autoStop         int
	autoArchive      int
	autoDelete       int
	volumes          []sandboxVolume
	createdAt        time.Time
	updatedAt        time.Time
	lastActivityAt   time.Time
	listedFrom       time.Time // hidden from GET /sandbox before (Options.ListLag)
	listedAfter      int       // hidden from lists up to this one (Options.ListLagLists)
}

// pending mirrors the entity's flag: a state change is under way. The
// entity's invariants clear it for errored boxes and for boxes heading to
// "archived" (sandbox.entity.ts:432-444), which is why start() may take an
// archiving box back.
func (sb *sandbox) pending() bool {
	if sb.state == stateError || sb.state == stateBuildFailed || sb.desired == stateArchived {
		return false
	}
	return sb.tr != nil
}

// ephemeral is isEphemeral (sandbox.util.ts): deleted on its first stop.
func (sb *sandbox) ephemeral() bool { return sb.autoDelete == 0 }

type sandboxVolume struct {
	VolumeID  string `json:"volumeId"`
	MountPath string `json:"mountPath"`
	Subpath   string `json:"subpath,omitempty"`
}

type snapshot struct {
	seq         int64
	id, name    string
	imageName   string
	general     bool
	state       string
	tr          *transition
	entrypoint  []string
	cpu, gpu    int
	mem, disk   int
	errorReason *string
	class       string
	build       *buildInfo
	createdAt   time.Time
	updatedAt   time.Time
	lastUsedAt  *time.Time
	ref         string
	logs        []string
	fromSandbox string
	removed     bool // hard-deleted after "removing" settled
}

type buildInfo struct {
	dockerfile string
	hashes     []string
	createdAt  time.Time
}

type volume struct {
	seq         int64
	id, name    string
	state       string
	tr          *transition
	createdAt   time.Time
	updatedAt   time.Time
	lastUsedAt  *time.Time
	errorReason *string
}

// buildFailure is the outcome FailNextBuild queued.
type buildFailure struct{ reason, logTail string }

func (s *Server) nextSeq() int64 {
	s.seq++
	return s.seq
}

var uuidRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// isUUID is the check behind ParseUUIDPipe and isValidUuid.
func isUUID(s string) bool { return uuidRE.MatchString(s) }

func copyMap(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func timePtr(t time.Time) *time.Time { return &t }

func strPtr(s string) *string { return &s }
