package docker

import "github.com/sbxhq/terraform-provider-sbx/internal/platform"

// Why an attribute or value is refused on Docker, and what to do instead.
const (
	whyVolumeSize   = "Docker volumes have no size (they grow with their content); remove size_gb"
	whyVolumeRegion = "this platform has no regions for volumes; remove region"
	whyDiskMB       = "the platform sizes a sandbox's disk itself; remove disk_mb"
	whyTemplateDisk = "sandbox disks cannot be sized here; remove `disk_mb`"
	whyIdle         = "this platform stops no idle sandboxes and reports no activity inside one, so no idle deadline " +
		"can be tracked; remove idle_timeout (timeout bounds how long a box runs)"
	whyArchive     = "this platform has no archived state; remove auto_archive_after"
	whyMemorySnap  = "snapshots hold the filesystem only; remove `include_memory` (a filesystem snapshot is planned) or set it to false"
	whySnapshotTTL = "snapshots do not expire here; remove `ttl` and destroy the snapshot when it is no longer needed"
)

// attributes is Docker's attribute table. Lifecycle settings are kept by
// the provider (Docker acts on no deadline: they are tracked, not
// enforced), so they change in place and are not reported back by the
// engine. Container labels and env are fixed at create.
var attributes = platform.Attributes{
	platform.AttrTemplateDockerfile: {Support: platform.InPlace}, // the tag (template id) moves to the new image
	platform.AttrTemplateImage:      {Support: platform.Replace}, // another image is another template
	platform.AttrTemplateStartCmd:   {Support: platform.InPlace},
	platform.AttrTemplateReadyCmd:   {Support: platform.InPlace},
	platform.AttrTemplateCPUCount:   {Support: platform.InPlace}, // recorded on the image: its sandboxes' default size
	platform.AttrTemplateMemoryMB:   {Support: platform.InPlace, Min: minMemoryMB},
	platform.AttrTemplateDiskMB:     {Why: whyTemplateDisk},
	platform.AttrTemplateLabels:     {Support: platform.InPlace}, // image labels, set by the rebuild

	platform.AttrVolumeSizeGB:         {Why: whyVolumeSize},
	platform.AttrVolumeRegion:         {Why: whyVolumeRegion},
	platform.AttrVolumeLabels:         {Support: platform.InPlace}, // copied into a relabelled volume of the same name
	platform.AttrVolumeFromSnapshotID: {Support: platform.Replace},

	platform.AttrSandboxFromSnapshotID: {Support: platform.Replace},
	// docker pause freezes the cgroup (memory kept); stop keeps the disk.
	platform.AttrSandboxState:         {Support: platform.InPlace, Values: platform.DesiredStates},
	platform.AttrSandboxCPUCount:      {Support: platform.InPlace}, // docker update
	platform.AttrSandboxMemoryMB:      {Support: platform.InPlace, Min: minMemoryMB},
	platform.AttrSandboxDiskMB:        {Why: whyDiskMB},
	platform.AttrSandboxEnv:           {Support: platform.Replace},
	platform.AttrSandboxLabels:        {Support: platform.Replace},
	platform.AttrSandboxMountReadOnly: {Support: platform.Replace},
	platform.AttrSandboxTimeout:       {Support: platform.InPlace, Unreported: true},
	platform.AttrSandboxOnTimeout: {Support: platform.InPlace, Unreported: true,
		Values: []string{string(platform.OnTimeoutKill), string(platform.OnTimeoutPause), string(platform.OnTimeoutStop)}},
	// Not even tracked: an idle deadline counts from a box's last use, and
	// the engine reports no activity inside a container (exec, network,
	// stdin), so the provider could never compute one.
	platform.AttrSandboxIdleTimeout:      {Why: whyIdle},
	platform.AttrSandboxAutoArchiveAfter: {Why: whyArchive},
	platform.AttrSandboxAutoDeleteAfter:  {Support: platform.InPlace, Unreported: true},

	platform.AttrSnapshotSandboxID:     {Support: platform.Replace},
	platform.AttrSnapshotVolumeID:      {Support: platform.Replace},
	platform.AttrSnapshotIncludeMemory: {Support: platform.Replace, Values: []string{"false"}, Why: whyMemorySnap},
	platform.AttrSnapshotTTL:           {Why: whySnapshotTTL},
	platform.AttrSnapshotLabels:        {Support: platform.Replace}, // image labels
}

// minMemoryMB is the engine's own floor for --memory.
const minMemoryMB = 6

// capabilities is what Docker can do.
var capabilities = platform.Capabilities{
	Attributes:          attributes,
	PauseKindUnreported: false, // inspect tells paused from exited
	EnforcesDeadlines:   false,

	VolumeLabelsNeedIdle: true,
	VolumeCreatedAt:      true,

	SnapshotDelete:         true,
	SnapshotCreatedAt:      true, // image created time
	SnapshotSize:           true,
	SnapshotSourceReported: true, // recorded in image labels
}
