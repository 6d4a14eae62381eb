package docker

import "github.com/sbxhq/terraform-provider-sbx/internal/platform"

// Why an attribute or value is refused on Docker, and what to do instead.
const (
	whyVolumeSize        = "Docker volumes have no size (they grow with their content); remove size_gb"
	whyVolumeRegion      = "this platform has no regions for volumes; remove region"
	whySubpath           = "the provider mounts whole volumes on Docker (engines before 26, API 1.45, cannot mount a volume's sub-directory and would ignore it); mount the volume and use the directory inside it, or remove subpath"
	whyRegion            = "a sandbox runs on the Docker engine the provider talks to; remove region (point the provider at another engine with docker { host })"
	whySnapshotRetention = "the provider keeps a volume's snapshots on Docker until they are destroyed; remove snapshot_retention"
	whyDiskMB            = "the platform sizes a sandbox's disk itself; remove disk_mb"
	whyTemplateDisk      = "sandbox disks cannot be sized here; remove `disk_mb`"
	// whyTemplatePublic: images stay in the local engine.
	whyTemplatePublic = "templates are images of the local engine, shared with no one else; remove public"
	whyIdle           = "this platform stops no idle sandboxes and reports no activity inside one, so no idle deadline " +
		"can be tracked; remove idle_timeout (timeout bounds how long a box runs)"
	whyArchive     = "this platform has no archived state; remove auto_archive_after"
	whyMemorySnap  = "snapshots hold the filesystem only; remove `include_memory` (a filesystem snapshot is planned) or set it to false"
	whySnapshotTTL = "snapshots do not expire here; remove `ttl` and destroy the snapshot when it is no longer needed"
	whyBoxMemory   = "this platform has no memory snapshots (a snapshot holds the filesystem only); remove memory_snapshots or set it to false"
	whyAutoResume  = "the engine resumes no paused container by itself; remove auto_resume or set it to false (set state = \"running\" to resume a box)"
	whyEgressRules = "the engine filters no outbound traffic by destination; remove allow_out and deny_out " +
		"(`internet = false` cuts the box off the network entirely)"
)

// What the documentation of an attribute says of Docker besides the row's
// support and limits (platform.Attribute.Doc).
const (
	docTemplateID = "the template is the local image `sbx/<name>:latest` (an adopted `image` too), whose tag is the " +
		"template's id: a rebuild moves it to the new build, so the id stays the same and is known at plan time; " +
		"the image records the build's `context_hash`, so after an import a configuration of the same hash is kept " +
		"without a rebuild"
	docTemplateImage = "the image must be present in the local engine (e.g. `my-agent:1.2`); importing any other " +
		"image reference (or an image id) takes the image as it is, and the provider never removes or changes it"
	docFromTemplate = "the build is `FROM` the base template's current image, then the Dockerfile's steps; a rebuild " +
		"of the base rebuilds nothing built on it (a change of `from_template`, or of any other input, does), and the " +
		"base is recorded on the image, so an import reads it back"
	docTemplateSize   = "recorded on the image as the default of its sandboxes, whose own setting wins"
	docTemplateLabels = "labels are part of the image"
	docVolumeLabels   = "the volume keeps its name and data"
	docVolumeRestore  = "the snapshot's files are copied into the new volume"
	docSandboxRestore = "an image that is not a snapshot of a box the provider took (a template's id, a volume's " +
		"snapshot) fails the create saying what it is; so does a snapshot's id as `template_id`"
	docState = "`paused` freezes the container's processes with their memory (`docker pause`), `stopped` " +
		"stops the container and keeps its disk"
	docSandboxEnv    = "read back on import: the container's variables that differ from its image's"
	docSandboxLabels = "container labels are fixed at create"
	// The lifecycle settings: kept by the provider, acted on by nobody.
	docTracked = "tracked, not enforced: `expires_at`, plan warnings and the drift detector " +
		"follow it, nothing stops the box"
	docTimeout    = "when omitted the box has no timeout; " + docTracked
	docAutoDelete = "tracked, not enforced: `expires_at`, plan warnings and the drift detector " +
		"follow it, nothing deletes the box"
	docSnapshotSandbox = "the sandbox's name works too, and is kept as written; the snapshot is a `docker commit` " +
		"of the container written anew as an image, whose id (`sha256:...`) is the snapshot's, that keeps no value " +
		"of the sandbox's `env` (the variables stay, blank), no record of the container and none of its ownership " +
		"labels, and shares its layers with the sandbox's image without a parent link (a snapshot can be deleted " +
		"while later snapshots of boxes restored from it remain)"
	docNetworkInternet = "`false` creates the container with no network at all (network mode `none`), `true` on " +
		"the engine's default network; fixed at create"
	docSnapshotVolume = "the snapshot is an archive of the volume imported as an image, whose id (`sha256:...`) is the snapshot's"
)

// attributes is Docker's attribute table. Lifecycle settings are kept by
// the provider (Docker acts on no deadline: they are tracked, not
// enforced), so they change in place and are not reported back by the
// engine. Container labels and env are fixed at create.
var attributes = platform.Attributes{
	platform.AttrTemplateDockerfile:   {Support: platform.InPlace, Doc: docTemplateID},    // the tag (template id) moves to the new image
	platform.AttrTemplateImage:        {Support: platform.Replace, Doc: docTemplateImage}, // another image is another template
	platform.AttrTemplateFromTemplate: {Support: platform.InPlace, Doc: docFromTemplate},  // a new build, same tag
	platform.AttrTemplateStartCmd:     {Support: platform.InPlace},
	platform.AttrTemplateReadyCmd:     {Support: platform.InPlace},
	platform.AttrTemplateCPUCount:     {Support: platform.InPlace, Doc: docTemplateSize}, // recorded on the image: its sandboxes' default size
	platform.AttrTemplateMemoryMB:     {Support: platform.InPlace, Min: minMemoryMB, Doc: docTemplateSize},
	platform.AttrTemplateDiskMB:       {Why: whyTemplateDisk},
	platform.AttrTemplateLabels:       {Support: platform.InPlace, Doc: docTemplateLabels}, // image labels, set by the rebuild
	platform.AttrTemplatePublic:       {Why: whyTemplatePublic},

	platform.AttrVolumeSizeGB:            {Why: whyVolumeSize},
	platform.AttrVolumeRegion:            {Why: whyVolumeRegion},
	platform.AttrVolumeLabels:            {Support: platform.InPlace, Doc: docVolumeLabels}, // copied into a relabelled volume of the same name
	platform.AttrVolumeFromSnapshotID:    {Support: platform.Replace, Doc: docVolumeRestore},
	platform.AttrVolumeSnapshotRetention: {Why: whySnapshotRetention},

	platform.AttrSandboxFromSnapshotID: {Support: platform.Replace, Doc: docSandboxRestore},
	// docker pause freezes the cgroup (memory kept); stop keeps the disk.
	platform.AttrSandboxState:         {Support: platform.InPlace, Values: platform.DesiredStates, Doc: docState},
	platform.AttrSandboxRegion:        {Why: whyRegion},
	platform.AttrSandboxCPUCount:      {Support: platform.InPlace}, // docker update
	platform.AttrSandboxMemoryMB:      {Support: platform.InPlace, Min: minMemoryMB},
	platform.AttrSandboxDiskMB:        {Why: whyDiskMB},
	platform.AttrSandboxEnv:           {Support: platform.Replace, Doc: docSandboxEnv},
	platform.AttrSandboxEnvWOVersion:  {Support: platform.Replace, Unreported: true},
	platform.AttrSandboxLabels:        {Support: platform.Replace, Doc: docSandboxLabels},
	platform.AttrSandboxVolumeMount:   {Support: platform.Replace},
	platform.AttrSandboxMountReadOnly: {Support: platform.Replace},
	platform.AttrSandboxMountSubpath:  {Why: whySubpath},
	platform.AttrSandboxTimeout:       {Support: platform.InPlace, Unreported: true, Doc: docTimeout},
	platform.AttrSandboxOnTimeout: {Support: platform.InPlace, Unreported: true, Doc: docTracked,
		Values: []string{string(platform.OnTimeoutKill), string(platform.OnTimeoutPause), string(platform.OnTimeoutStop)}},
	// Not even tracked: an idle deadline counts from a box's last use, and
	// the engine reports no activity inside a container (exec, network,
	// stdin), so the provider could never compute one.
	platform.AttrSandboxIdleTimeout:      {Why: whyIdle},
	platform.AttrSandboxAutoArchiveAfter: {Why: whyArchive},
	platform.AttrSandboxAutoDeleteAfter:  {Support: platform.InPlace, Unreported: true, Doc: docAutoDelete},
	// network mode "none" at create; a container's network mode is fixed.
	platform.AttrSandboxNetworkInternet: {Support: platform.Replace, Doc: docNetworkInternet},
	platform.AttrSandboxNetworkAllowOut: {Why: whyEgressRules},
	// Accepted as false only: nothing resumes a container by itself.
	platform.AttrSandboxAutoResume:     {Support: platform.Replace, Values: []string{"false"}, Why: whyAutoResume},
	platform.AttrSandboxNetworkDenyOut: {Why: whyEgressRules},
	// Accepted as false only: a commit holds no memory.
	platform.AttrSandboxMemorySnapshots: {Support: platform.Replace, Values: []string{"false"}, Why: whyBoxMemory},

	platform.AttrSnapshotSandboxID:     {Support: platform.Replace, Doc: docSnapshotSandbox},
	platform.AttrSnapshotVolumeID:      {Support: platform.Replace, Doc: docSnapshotVolume},
	platform.AttrSnapshotIncludeMemory: {Support: platform.Replace, Values: []string{"false"}, Why: whyMemorySnap},
	platform.AttrSnapshotTTL:           {Why: whySnapshotTTL},
	platform.AttrSnapshotLabels:        {Support: platform.Replace}, // image labels
}

// minMemoryMB is the engine's own floor for --memory.
const minMemoryMB = 6

// capabilities is what Docker can do.
var capabilities = platform.Capabilities{
	Attributes:          attributes,
	Exec:                execSupport,
	PauseKindUnreported: false, // inspect tells paused from exited
	EnforcesDeadlines:   false,
	TemplatesListed:     true, // images of the local engine

	VolumeLabelsNeedIdle: true,
	VolumeCreatedAt:      true,

	SnapshotDelete:         true,
	SnapshotNames:          true, // recorded in image labels
	SnapshotCreatedAt:      true, // image created time
	SnapshotSize:           true,
	SnapshotSourceReported: true, // recorded in image labels
	SnapshotListsBySource:  true, // by the same labels
	// An image is a snapshot only by the provider's labels.
	SnapshotsByMarksOnly: true,
}
