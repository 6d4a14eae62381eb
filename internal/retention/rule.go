// Package retention knows when a platform acts on a sandbox, snapshot or
// template by itself (kills, pauses, stops, archives, deletes, deactivates
// or expires it) and computes that deadline from recorded timestamps and
// settings.
//
// It holds no platform's rules: each platform package declares its own rows
// (platform.Definition.Retention), and callers build a Table from the rules
// of the platforms they register.
//
// It is pure: no I/O, no framework, no clock of its own. Callers pass `now`
// and the recorded facts, so the same inputs always give the same deadline.
package retention

import "time"

// Object kinds a rule applies to.
const (
	Sandbox  = "sandbox"
	Snapshot = "snapshot"
	// Template is a built template (sbx_template): what Daytona calls a
	// snapshot, an E2B template, a Docker image. Its rules count from its
	// creation or its last use, as a snapshot's do.
	Template = "template"
)

// Sandbox states, snapshot kinds and template states a rule applies to.
// Sandbox states match platform.SandboxState; snapshot kinds match
// platform.SnapshotKind; template states match platform.Template.Status.
const (
	StateRunning  = "running"
	StatePaused   = "paused"
	StateStopped  = "stopped"
	StateArchived = "archived"

	KindFilesystem = "filesystem"
	KindMemory     = "memory"
	KindVolume     = "volume"

	// TemplateReady is a built template boxes can start from (Daytona:
	// an active snapshot).
	TemplateReady = "ready"
)

// Since names the recorded moment a window counts from.
type Since string

// The moments a window can count from.
const (
	SinceCreated    Since = "created_at"
	SinceStarted    Since = "started_at"  // the last start or resume
	SinceStateSince Since = "state_since" // when the object entered its current state
	SinceLastUsed   Since = "last_used"   // the last activity the platform counts
)

// Action is what the platform does when the deadline passes.
type Action string

// The actions platforms take at a deadline.
const (
	ActionKill       Action = "kill"
	ActionPause      Action = "pause"
	ActionStop       Action = "stop"
	ActionArchive    Action = "archive"
	ActionDelete     Action = "delete"
	ActionDeactivate Action = "deactivate"
	ActionExpire     Action = "expire"
)

// Setting names the per-object user setting that replaces a rule's window.
// The names are sbx_sandbox / sbx_snapshot attribute names.
type Setting string

// The user settings that replace a window.
const (
	SettingNone             Setting = ""
	SettingTimeout          Setting = "timeout"
	SettingIdleTimeout      Setting = "idle_timeout"
	SettingAutoArchiveAfter Setting = "auto_archive_after"
	SettingAutoDeleteAfter  Setting = "auto_delete_after"
	SettingTTL              Setting = "ttl"
)

// Limits bound a user setting as the platform accepts it. Zero means no bound
// is known.
type Limits struct {
	Min     time.Duration
	Max     time.Duration
	Default time.Duration
}

// Rule is one row of the policy table: what one platform does to one kind of
// object in one state, and when.
type Rule struct {
	// Key is the user-facing override name (`retention { paused_sandbox = "720h" }`).
	// Rows of different platforms share a key when they mean the same thing.
	Key string
	// Platform is the platform's name, as its provider block spells it.
	Platform string
	// Object is Sandbox, Snapshot or Template.
	Object string
	// State is a sandbox state (running, paused, stopped, archived), a
	// snapshot kind (filesystem, memory, volume) or a template state (ready).
	State string
	// Window is how long after Since the platform acts; 0 = it sets no deadline.
	Window time.Duration
	Since  Since
	Action Action
	// ActionFromOnTimeout: the object's on_timeout setting (kill|pause|stop)
	// replaces Action, as E2B's lifecycle.onTimeout does.
	ActionFromOnTimeout bool
	// Setting replaces Window when the object sets it; Limits are what the
	// platform accepts for it (a larger value is cut to Max).
	Setting Setting
	Limits  Limits
	// Reported: the platform reports this deadline itself (e.g. E2B endAt, a
	// snapshot's expiry), and that reported time wins over the computed one.
	Reported bool
	// Enforced is false where the platform never acts by itself (Docker): the
	// deadline is tracked and warned about, nobody enforces it.
	Enforced bool
	// Source cites where the numbers come from; Note says what is uncertain.
	Source string
	Note   string
}
