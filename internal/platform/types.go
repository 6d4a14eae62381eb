package platform

import "time"

// SandboxState is the normalized lifecycle state of a sandbox.
type SandboxState string

// The states a user can ask for, and the extra ones a platform may report.
const (
	StateRunning SandboxState = "running"
	StatePaused  SandboxState = "paused"
	StateStopped SandboxState = "stopped"

	// StateArchived is reported only: a stopped box whose disk the platform
	// moved to cheaper storage (Daytona archives boxes stopped for a while).
	// It reads as stopped (state = "stopped" plans no change); state =
	// "running" starts it again in place, slower than from stopped.
	StateArchived SandboxState = "archived"

	// Reported only: the platform is between states, or the box failed.
	StateStarting SandboxState = "starting"
	StateStopping SandboxState = "stopping"
	StateFailed   SandboxState = "failed"
	StateUnknown  SandboxState = "unknown"
)

// DesiredStates are the values users may give sbx_sandbox.state.
var DesiredStates = []string{string(StateRunning), string(StatePaused), string(StateStopped)}

// SnapshotKind says what a snapshot holds.
type SnapshotKind string

// Snapshot kinds.
const (
	SnapshotFilesystem SnapshotKind = "filesystem"
	SnapshotMemory     SnapshotKind = "memory"
	SnapshotVolume     SnapshotKind = "volume"
)

// TemplateSpec is what the user asked a template to be.
type TemplateSpec struct {
	// Marks are this create's provenance labels (owner, create token); the
	// platform puts them on what it makes and adopts an existing object of
	// the name only when it carries this token.
	Marks Marks
	Name  string
	// Dockerfile is the Dockerfile's content; exactly one of Dockerfile and Image is set.
	Dockerfile string
	// ContextDir is a local directory holding the files COPY and ADD read.
	ContextDir string
	// ContextHash is the provider's hash of the Dockerfile and the build
	// context (context_hash). A platform that can keep it with the build
	// does, and reports it back (Template.ContextHash), so an import can
	// tell whether a configuration describes what was built.
	ContextHash string
	// Image is a prebuilt image reference to adopt instead of building.
	Image string
	// FromTemplate is the id of the template to build on: Dockerfile's
	// steps (it has no FROM line) run on top of it.
	FromTemplate string
	StartCmd     string
	ReadyCmd     string
	CPUCount     int64
	MemoryMB     int64
	DiskMB       int64
	Labels       map[string]string
	// Public, when set, makes the template usable by every team of the
	// platform (true) or by its own only (false); nil leaves it as it is.
	Public *bool
}

// Template is a built template as the platform reports it.
type Template struct {
	ID      string
	Name    string
	BuildID string
	Status  string
	Image   string
	// FromTemplate is the template it was built on, where the platform
	// reports it ("" otherwise).
	FromTemplate string
	// ContextHash is the TemplateSpec.ContextHash of the build, where the
	// platform keeps it ("" otherwise, and for an adopted image).
	ContextHash string
	StartCmd    string
	ReadyCmd    string
	CPUCount    int64
	MemoryMB    int64
	// DiskMB is the disk of every box of the template, where the template
	// sizes it (0 otherwise).
	DiskMB    int64
	CreatedAt time.Time
	// LastUsedAt is when a box last started from the template, where the
	// platform reports it: Daytona deactivates templates unused for a while.
	LastUsedAt time.Time
	Labels     map[string]string
	Public     bool
	// Managed is true when this provider made the template (it carries
	// the managed label), where the platform labels templates.
	Managed bool
	// MadeWith are the marks of the create that made the template, where
	// the platform labels templates (zero otherwise).
	MadeWith Marks
	// ForeignBuild reports that the build under the template's own id is
	// not one the provider made for it: on Docker, an image tagged there by
	// hand (docker build -t, docker tag). Boxes made from the id would start
	// from that image. Only a platform that rebuilds templates in place
	// (TemplateService.Rebuild) reports it; the provider then plans a
	// rebuild back to the configuration.
	ForeignBuild bool
}

// TemplateReady is the Status of a template whose build boxes start from.
// Any other status but TemplateInactive (and a template that is a record
// in state only) is a build that has not finished or failed.
const TemplateReady = "ready"

// TemplateInactive is the Status of a template the platform deactivated
// (Daytona: unused for 14 days); no box starts from it until it is
// activated again (Extensions.TemplateActivation).
const TemplateInactive = "inactive"

// TemplateFilter selects templates; zero fields match everything. It asks
// for no maker: a platform that labels templates knows an image as one only
// by the provider's labels (Docker: any other image is just an image), and
// one that labels none lists every template of the account, each made by
// anyone.
type TemplateFilter struct {
	Name string
}

// VolumeSpec is what the user asked a volume to be.
type VolumeSpec struct {
	// Marks are this create's provenance labels (owner, create token); the
	// platform puts them on what it makes and adopts an existing object of
	// the name only when it carries this token.
	Marks          Marks
	Name           string
	SizeGB         int64
	Region         string
	FromSnapshotID string
	Labels         map[string]string
	// SnapshotRetentionDays is how long the platform keeps the volume's
	// snapshots (0: the platform's default).
	SnapshotRetentionDays int64
}

// Volume is a volume as the platform reports it.
type Volume struct {
	ID             string
	Name           string
	SizeGB         int64
	Region         string
	State          string
	FromSnapshotID string
	CreatedAt      time.Time
	// AttachedTo lists the ids of the sandboxes that mount this volume.
	AttachedTo []string
	Labels     map[string]string
	// Managed is true when this provider created the volume.
	Managed bool
	// MadeWith are the marks of the create that made the volume, where
	// the platform keeps labels on volumes (zero otherwise): an import
	// warns when another state may hold it.
	MadeWith Marks
	// SnapshotRetentionDays is how long the platform keeps the volume's
	// snapshots, where it has such a setting (0 otherwise).
	SnapshotRetentionDays int64
}

// VolumeFilter selects volumes; zero fields match everything.
type VolumeFilter struct {
	Name   string
	Labels map[string]string
}

// VolumeMount attaches a volume to a sandbox at an absolute path.
type VolumeMount struct {
	VolumeID string
	Path     string
	ReadOnly bool
	// Subpath mounts this directory of the volume instead of its root
	// ("" mounts the root).
	Subpath string
}

// SandboxSpec is what the user asked a sandbox to be.
type SandboxSpec struct {
	// Marks are this create's provenance labels (owner, create token); the
	// platform puts them on what it makes and adopts an existing object of
	// the name only when it carries this token.
	Marks Marks
	// Name is optional; platforms that name boxes use it, and it lets an
	// interrupted create be found again.
	Name string
	// Exactly one of TemplateID and FromSnapshotID is set.
	TemplateID     string
	FromSnapshotID string
	State          SandboxState
	// Region is where the box runs ("": the provider's or platform's default).
	Region       string
	Env          map[string]string
	Labels       map[string]string
	CPUCount     int64
	MemoryMB     int64
	DiskMB       int64
	VolumeMounts []VolumeMount
	Lifecycle    Lifecycle
	// Network is the box's outbound network; nil leaves the platform's
	// default (internet reachable, no rules).
	Network *Network
	// AutoResume: a paused box resumes by itself when traffic reaches it.
	AutoResume bool
	// MemorySnapshots: the box can take memory snapshots (made with
	// them enabled, where the platform needs that chosen at create).
	MemorySnapshots bool
}

// Network is what a box may reach: the sandbox resource's network block.
type Network struct {
	// Internet: false cuts the box off from the internet (except AllowOut);
	// nil is the platform's default, reachable.
	Internet *bool
	// AllowOut lists destinations (CIDR blocks, addresses, or host names
	// where the platform filters by name) the box may reach whatever else
	// is denied; DenyOut lists those it may not.
	AllowOut []string
	DenyOut  []string
}

// InternetOff reports whether n cuts the box off from the internet.
func (n *Network) InternetOff() bool { return n != nil && n.Internet != nil && !*n.Internet }

// Lifecycle holds the deadlines a user sets on a sandbox. Zero values mean
// "not set": the platform's own default applies (see Capabilities). A
// platform that enforces nothing (Docker) keeps them only so the provider can
// track the deadlines they imply.
type Lifecycle struct {
	// Timeout is how long the box may run before OnTimeout happens.
	Timeout time.Duration
	// OnTimeout is what happens at the timeout: kill, pause or stop.
	OnTimeout OnTimeoutAction
	// IdleTimeout is how long the box may sit idle before it is stopped.
	IdleTimeout time.Duration
	// AutoArchiveAfter is how long a stopped box stays stopped before it is archived.
	AutoArchiveAfter time.Duration
	// AutoDeleteAfter is how long a stopped box stays stopped before it is deleted.
	AutoDeleteAfter time.Duration
}

// OnTimeoutAction is what a platform does to a sandbox whose timeout ran out.
type OnTimeoutAction string

// The actions a user can choose for on_timeout.
const (
	OnTimeoutKill  OnTimeoutAction = "kill"
	OnTimeoutPause OnTimeoutAction = "pause"
	OnTimeoutStop  OnTimeoutAction = "stop"
)

// Sandbox is a sandbox as the platform reports it.
type Sandbox struct {
	ID             string
	Name           string
	TemplateID     string
	FromSnapshotID string
	// Status is the normalized state; PlatformStatus is the platform's own word.
	Status         SandboxState
	PlatformStatus string
	// Region is where the box runs, where the platform has regions.
	Region string
	Labels map[string]string
	// MadeWith are the marks of the create that made the box, where the
	// platform keeps labels or metadata on boxes (zero otherwise): an
	// import warns when another state may hold it.
	MadeWith Marks
	// Managed is true when this provider made the box (it carries the
	// managed label), where the platform keeps labels on boxes.
	Managed  bool
	CPUCount int64
	MemoryMB int64
	// DiskMB is the box's disk where the platform reports it (0 otherwise).
	DiskMB       int64
	VolumeMounts []VolumeMount
	// Env is the environment the sandbox was given, where the platform can
	// tell it apart from the image's own; nil where it cannot.
	Env       map[string]string
	Lifecycle Lifecycle
	CreatedAt time.Time
	StartedAt time.Time
	// StatusSince is when the box entered its current status, where the
	// platform reports it (zero otherwise).
	StatusSince time.Time
	// ExpiresAt is when the platform itself will act on the box; zero when it never will.
	ExpiresAt time.Time
	// Network is the box's outbound network as the platform reports it;
	// nil where it reports none.
	Network *Network
	// AutoResume: the box resumes by itself when traffic reaches it.
	AutoResume bool
	// MemorySnapshots: the box can take memory snapshots (made with
	// them enabled, where the platform needs that chosen at create).
	MemorySnapshots bool
	// Unreported lists the attributes (table keys, AttrSandboxName,
	// AttrSandboxTemplateID) the platform reports for the boxes the
	// provider made but not for this one: a box made outside the provider
	// lacks the records the provider keeps where the platform reports
	// nothing itself. Their fields above are zero, which means "not known",
	// not "none": an import takes them from the configuration, as for a
	// row marked Unreported.
	Unreported []string
}

// SandboxFilter selects sandboxes; zero fields match everything the provider manages.
type SandboxFilter struct {
	Labels map[string]string
	Status SandboxState
	// AnyMaker asks for every box the other fields match, made by anyone
	// (the platform's own command line, SDK or console, another tool),
	// each saying in Managed and MadeWith whether the provider made it:
	// the list resources ask so, since importing is how a team takes
	// ownership of what others made. Every other caller (the sbx_sandboxes
	// data source, the orphans command) leaves it false and gets only the
	// boxes the provider made.
	AnyMaker bool
}

// SnapshotSpec is what the user asked a snapshot to be.
type SnapshotSpec struct {
	// Marks are this create's provenance labels (owner, create token); the
	// platform puts them on what it makes and adopts an existing object of
	// the name only when it carries this token.
	Marks Marks
	// Exactly one of SandboxID and VolumeID is set.
	SandboxID     string
	VolumeID      string
	Name          string
	IncludeMemory bool
	TTL           time.Duration
	Labels        map[string]string
	// SandboxState is the state this provider last recorded for the source
	// box (StatePaused or StateStopped for a box not running), or "" when it
	// holds no record. A platform that snapshots only running boxes resumes
	// a paused one for the snapshot and pauses it again the way this says
	// (a platform that cannot tell paused from stopped: PauseKindUnreported).
	SandboxState SandboxState
}

// Snapshot is a snapshot as the platform reports it.
type Snapshot struct {
	ID        string
	Name      string
	Kind      SnapshotKind
	SandboxID string
	VolumeID  string
	// ParentSnapshotID is the snapshot the source sandbox was restored from, if any.
	ParentSnapshotID string
	// Managed is true when this provider made the snapshot (it carries
	// the managed label), where the platform labels snapshots.
	Managed bool
	// MadeWith are the marks of the create that made the snapshot, where
	// the platform labels snapshots (zero otherwise).
	MadeWith  Marks
	SizeBytes int64
	CreatedAt time.Time
	// ExpiresAt is when the platform deletes the snapshot; zero when it never will.
	ExpiresAt time.Time
	Labels    map[string]string
	// Unrecorded, where set, says what the object under this id is and
	// why the platform cannot take it for a snapshot the provider took:
	// the platform cannot tell such a snapshot from other objects of its
	// kind (Modal: an Image, which a template also is) and holds no record
	// of the provider taking this one. An import refuses it, and a destroy
	// of a snapshot the resource did not create itself forgets it, never
	// deleting it.
	Unrecorded string
}

// SnapshotFilter selects snapshots; zero fields match everything. As with
// TemplateFilter, it asks for no maker: where snapshots carry labels, an
// image is known as a snapshot only by the provider's (Docker: a commit made
// by hand is just an image); elsewhere every snapshot of the account is
// listed, made by anyone, or the snapshots are records the provider keeps
// on its boxes (Modal).
type SnapshotFilter struct {
	Name      string
	Labels    map[string]string
	SandboxID string
	VolumeID  string
}

// SandboxUpdate is an in-place change of a live box: each non-nil field is
// an attribute to change (see SandboxService.Update).
type SandboxUpdate struct {
	// CPUCount, MemoryMB and DiskMB resize the box; 0 means the template's size.
	CPUCount *int64
	MemoryMB *int64
	DiskMB   *int64
	Labels   *map[string]string
	Env      *map[string]string
	// Lifecycle holds every lifecycle setting as planned; Changed names
	// the ones that differ from the box's (timeout, on_timeout, ...). A
	// resume sets them again with Changed empty, so that the timeout
	// counts from the resume.
	Lifecycle *LifecycleUpdate
	// Network replaces the box's outbound network as a whole (a nil
	// Internet and no rules: the platform's default).
	Network *Network
}

// LifecycleUpdate is the lifecycle part of a SandboxUpdate.
type LifecycleUpdate struct {
	Lifecycle Lifecycle
	// Changed lists the changed attributes by table key
	// (AttrSandboxTimeout, ...).
	Changed []string
}

// VolumeUpdate is an in-place change of a volume: each non-nil field is an
// attribute to change (see VolumeService.Update).
type VolumeUpdate struct {
	// SizeGB grows the volume.
	SizeGB *int64
	// SnapshotRetentionDays changes how long new snapshots are kept.
	SnapshotRetentionDays *int64
	// Labels replaces its user labels.
	Labels *map[string]string
}
