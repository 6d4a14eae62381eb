package docker

import "github.com/sbxhq/terraform-provider-sbx/internal/platform"

// capabilities is Docker's row of the capability matrix.
var capabilities = platform.Capabilities{
	PauseWithMemory:      true, // docker pause freezes the cgroup; memory stays
	Stop:                 true,
	SandboxFromSnapshot:  true,
	SandboxLabelsMutable: false, // container labels are fixed at create
	SandboxEnvMutable:    false,
	SandboxResizeInPlace: true, // docker update
	SandboxDiskSize:      false,
	MinMemoryMB:          6,    // the engine's own floor for --memory
	SandboxResources:     true, // --cpus / --memory
	ReadOnlyMounts:       true,
	PauseKindUnreported:  false, // inspect tells paused from exited

	// Docker acts on no deadline: timeout & co. are tracked by the provider
	// (expires_at, retention_status, plan warnings, drift), not enforced.
	EnforcesDeadlines: false,
	OnTimeoutActions:  []platform.OnTimeoutAction{platform.OnTimeoutKill, platform.OnTimeoutPause, platform.OnTimeoutStop},
	LifecycleMutable:  true,
	// Not even tracked: an idle deadline counts from a box's last use, and
	// the engine reports no activity inside a container (exec, network,
	// stdin), so the provider could never compute one. idle_timeout is a
	// plan-time error rather than a setting that silently does nothing.
	IdleTimeout: false,
	AutoArchive: false, // Docker has no archived state
	AutoDelete:  true,

	TemplateFromDockerfile: true,
	TemplateFromImage:      true,
	TemplateRebuildInPlace: true, // the tag (template id) moves to the new image
	TemplateResources:      true, // recorded on the image; the default size of its sandboxes
	TemplateLabels:         true, // image labels

	VolumeSizes:          false,
	VolumeGrow:           false,
	VolumeRegions:        false,
	VolumeRestore:        true,
	VolumeLabelsMutable:  true, // by copying into a relabelled volume of the same name
	VolumeLabelsNeedIdle: true,
	VolumeLabels:         true,
	VolumeCreatedAt:      true,

	SandboxSnapshot:        true,
	SandboxMemorySnapshot:  false,
	SandboxFSOnlySnapshot:  true,
	VolumeSnapshot:         true,
	SnapshotDelete:         true,
	SnapshotTTL:            false,
	SnapshotLabels:         true, // image labels
	SnapshotCreatedAt:      true, // image created time
	SnapshotSize:           true,
	SnapshotSourceReported: true, // recorded in image labels
}
