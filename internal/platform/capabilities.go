package platform

import "time"

// Capabilities is one platform's row of the capability matrix: what it can
// do, and the limits it enforces. Resources check requests against it at plan
// time, so a setting a platform cannot honour is an error, never a no-op.
type Capabilities struct {
	// Sandboxes
	PauseWithMemory      bool  // state = "paused" (memory kept)
	Stop                 bool  // state = "stopped" (disk kept)
	SandboxFromSnapshot  bool  // sbx_sandbox.from_snapshot_id
	SandboxLabelsMutable bool  // labels change in place (else: replace)
	SandboxEnvMutable    bool  // env changes in place (else: replace)
	SandboxResizeInPlace bool  // cpu_count / memory_mb change in place (else: replace)
	SandboxDiskSize      bool  // disk_mb accepted
	MinMemoryMB          int64 // smallest memory_mb accepted
	MaxCPUCount          int64 // largest cpu_count accepted; 0 = no limit known
	SandboxResources     bool  // cpu_count / memory_mb accepted on a sandbox (else: sized by its template)
	ReadOnlyMounts       bool  // volume_mount.read_only = true accepted
	// PauseKindUnreported: the platform reports a paused box the same way
	// whether its memory was kept (paused) or dropped (stopped), so a read
	// cannot tell the two apart and the resource keeps what it recorded.
	PauseKindUnreported bool

	// Sandbox lifecycle: which deadlines a user may set, their limits, and
	// whether the platform acts on them itself.
	EnforcesDeadlines bool              // false: deadlines are tracked by the provider only (Docker)
	OnTimeoutActions  []OnTimeoutAction // accepted on_timeout values; empty: timeout not supported
	MaxTimeout        time.Duration     // longest timeout accepted; 0 = no limit
	LifecycleMutable  bool              // timeout & co. change in place (else: replace)
	// LifecycleInPlace names the lifecycle attributes a live box changes in
	// place when LifecycleMutable (E2B: only "timeout"; its on_timeout is
	// fixed at create); empty means every one. The others replace the box.
	LifecycleInPlace []string
	IdleTimeout      bool          // idle_timeout accepted
	AutoArchive      bool          // auto_archive_after accepted
	MaxAutoArchive   time.Duration // 0 = no limit
	AutoDelete       bool          // auto_delete_after accepted

	// Templates
	TemplateFromDockerfile bool // dockerfile + context_dir
	TemplateFromImage      bool // image
	TemplateRebuildInPlace bool // a changed build keeps the template id
	TemplateResources      bool // cpu_count / memory_mb / disk_mb on a template
	TemplateLabels         bool // labels on a template

	// Volumes
	VolumeSizes          bool // size_gb accepted
	VolumeGrow           bool // size_gb grows in place
	VolumeRegions        bool // region accepted
	VolumeRestore        bool // sbx_volume.from_snapshot_id
	VolumeLabelsMutable  bool // labels change in place (else: replace)
	VolumeLabelsNeedIdle bool // relabelling needs the volume to be unmounted
	VolumeLabels         bool // labels on a volume
	VolumeCreatedAt      bool // the platform reports when a volume was made (created_at)

	// Snapshots
	SandboxSnapshot       bool // snapshot of a sandbox's filesystem
	SandboxMemorySnapshot bool // include_memory = true
	SandboxFSOnlySnapshot bool // include_memory = false
	VolumeSnapshot        bool // snapshot of a volume
	SnapshotDelete        bool // snapshots can be deleted (else: they expire)
	SnapshotTTL           bool // ttl accepted
	SnapshotLabels        bool // labels on a snapshot (and lookups by them)
	SnapshotNamesUnique   bool // a snapshot name identifies one snapshot: two resources may not share it
	// What the platform reports back about a snapshot it holds.
	SnapshotCreatedAt      bool // when it was made: created_at, and ordering for most_recent
	SnapshotSize           bool // its size (size_bytes)
	SnapshotSourceReported bool // the sandbox or volume it was taken from, on a lookup
}
