package modal

import (
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Modal's limits, from the SDK and Modal's docs (platform-apis.md §4).
const (
	// maxSandboxTimeout: "a timeout of up to 24 hours" (Modal's sandbox
	// guide); the SDK does not check it, the server refuses more.
	maxSandboxTimeout = 24 * time.Hour
	// defaultSandboxTimeout: the SDK's default when none is given.
	defaultSandboxTimeout = 300 * time.Second
	// defaultSnapshotTTL: how long a filesystem snapshot lasts when the
	// configuration gives no ttl. The SDK defaults to 30 days as a hard
	// cutoff; the provider always sends it explicitly.
	defaultSnapshotTTL = 30 * 24 * time.Hour
	// memorySnapshotLifetime: Modal keeps memory snapshots 7 days after
	// creation and cannot extend them.
	memorySnapshotLifetime = 7 * 24 * time.Hour
)

// Why an attribute or value is refused on Modal, and what to do instead.
const (
	whyTplCmd       = "a Modal Image has no start or ready command the SDK can set; bake the command into the Dockerfile (ENTRYPOINT/CMD)"
	whyTplSize      = "a Modal Image has no size; size each sandbox with its cpu_count and memory_mb"
	whyTplLabels    = "Modal Images carry no labels; remove labels"
	whyTplPublic    = "Modal Images are private to the workspace; remove public"
	whyVolSize      = "Modal volumes have no size: they grow as data is written; remove size_gb"
	whyVolRegion    = "Modal volumes have no region the SDK can set; remove region"
	whyVolLabels    = "Modal volumes carry no labels; remove labels (find a volume by its name with the sbx_volume data source)"
	whyVolRestore   = "Modal cannot restore a snapshot into a volume; restore a filesystem snapshot into a new sandbox with sbx_sandbox.from_snapshot_id"
	whyVolRetention = "Modal keeps volumes until they are deleted and has no volume snapshots; remove snapshot_retention"
	whyState        = "Modal has no pause or stop: a sandbox runs until it finishes; keep what it holds with sbx_snapshot (include_memory = true keeps its memory too) and start a new sandbox from it with from_snapshot_id"
	whyRegion       = "the provider leaves a Modal sandbox's placement to Modal; remove region"
	whyDiskMB       = "the SDK sets no sandbox disk size; remove disk_mb and keep data in a volume (volume_mount)"
	whyOnTimeout    = "Modal terminates a sandbox at its timeout; it cannot pause or stop it"
	whyArchive      = "Modal has no archive or delete deadline for sandboxes: a sandbox ends at its timeout or idle_timeout; remove it"
	whyDenyOut      = "Modal's outbound rules are allowlists only; list what the sandbox may reach in allow_out instead"
	whyAutoResume   = "Modal has no pause, so nothing resumes; remove auto_resume"
	whySnapVolume   = "Modal snapshots sandboxes, not volumes (a volume lasts until deleted); snapshot a sandbox with sandbox_id"
	whySnapLabels   = "Modal snapshots carry no labels; remove labels"
)

// What the documentation of an attribute says of Modal (platform.Attribute.Doc).
const (
	docImage        = "a registry reference Modal builds an Image from, with a last layer labelling it with the create's marks, so no two templates share an Image (Modal's images are content-addressed)"
	docDockerfile   = "its FROM line is the base image and every other instruction is built by Modal's image builder as a Dockerfile command; a COPY or ADD of local files is a plan-time error (the SDK uploads no build context; `COPY --from=` works), and the SDK gives no build log, so a failed build reports Modal's exception text"
	docFromTemplate = "the Dockerfile's instructions are built on the other template's Image"
	docState        = "`running` only: Modal has no pause or stop"
	docSize         = "the sandbox's request (the SDK sends cores as milli-CPU); not reported back, so the configured value is kept"
	docEnv          = "set when the sandbox is made (the SDK passes it as a secret) and never logged; not reported back"
	docLabels       = "the sandbox's Modal tags, set in place"
	docMount        = "a Modal volume (v2) by name, read-only where asked; the SDK reports no mounts, so the provider records them in the sandbox's tags, where a read and an import find them (a sandbox made outside the provider has none: an import takes them from the configuration)"
	docFromSnapshot = "a filesystem snapshot starts a new sandbox from its Image; a memory snapshot is restored by Modal as the sandbox it was taken of (its memory, files, size, env and deadlines), so volume_mount, cpu_count, memory_mb, env, timeout, idle_timeout, network and memory_snapshots with it are plan-time errors"
	docTimeout      = "300 s when omitted (the SDK's default), at most 24 h; Modal ends the sandbox then, and the next plan creates it again with a warning naming the deadline"
	docIdle         = "Modal ends the sandbox after this long without activity (an exec, stdin, an open tunnel connection)"
	docInternet     = "`false` blocks all of the sandbox's network traffic"
	docAllowOut     = "Modal's outbound allowlist: CIDRs go to its CIDR list, names (`*.example.com` allowed) to its domain list"
	docMemorySnaps  = "Modal's `enable_snapshot` (experimental in the SDK): needed by sbx_snapshot with include_memory = true"
	docSnapSandbox  = "the snapshot is taken through Modal's task command router; Modal cannot list snapshots, so the provider records each one it makes in the source sandbox's tags, which the sbx_snapshot(s) data sources read"
	docSnapMemory   = "`false` (the default) takes a filesystem snapshot (an Image, deleted on destroy); `true` a memory snapshot (experimental in the SDK): the sandbox needs memory_snapshots = true, Modal ends the sandbox when the snapshot is taken, keeps the snapshot 7 days and cannot delete it, so destroy forgets it with a warning"
	docSnapTTL      = "filesystem snapshots only, 30 days when omitted (always sent explicitly), a hard cutoff from creation; memory snapshots last 7 days whatever it says"
)

// attributes is Modal's attribute table. The SDK reports a sandbox's
// status and tags only: every other sandbox attribute is Unreported, so the
// configured value is kept in state.
func attributes() platform.Attributes {
	kept := func(a platform.Attribute) platform.Attribute { a.Unreported = true; return a }
	return platform.Attributes{
		// Images.FromRegistry / DockerfileCommands, then Image.Build.
		platform.AttrTemplateImage:        {Support: platform.Replace, Unreported: true, Doc: docImage},
		platform.AttrTemplateDockerfile:   {Support: platform.Replace, Unreported: true, Doc: docDockerfile},
		platform.AttrTemplateFromTemplate: {Support: platform.Replace, Unreported: true, Doc: docFromTemplate},
		platform.AttrTemplateStartCmd:     {Why: whyTplCmd},
		platform.AttrTemplateReadyCmd:     {Why: whyTplCmd},
		platform.AttrTemplateCPUCount:     {Why: whyTplSize},
		platform.AttrTemplateMemoryMB:     {Why: whyTplSize},
		platform.AttrTemplateDiskMB:       {Why: whyTplSize},
		platform.AttrTemplateLabels:       {Why: whyTplLabels},
		platform.AttrTemplatePublic:       {Why: whyTplPublic},

		// Volumes.FromName: a volume is a name.
		platform.AttrVolumeSizeGB:            {Why: whyVolSize},
		platform.AttrVolumeRegion:            {Why: whyVolRegion},
		platform.AttrVolumeLabels:            {Why: whyVolLabels},
		platform.AttrVolumeFromSnapshotID:    {Why: whyVolRestore},
		platform.AttrVolumeSnapshotRetention: {Why: whyVolRetention},

		// Sandboxes.Create (SandboxCreateV2, or SandboxCreate on the V1 path).
		platform.AttrSandboxState:            {Support: platform.Replace, Values: []string{string(platform.StateRunning)}, Why: whyState, Doc: docState},
		platform.AttrSandboxRegion:           {Why: whyRegion},
		platform.AttrSandboxCPUCount:         kept(platform.Attribute{Support: platform.Replace, Min: 1, Doc: docSize}),
		platform.AttrSandboxMemoryMB:         kept(platform.Attribute{Support: platform.Replace, Min: 1, Doc: docSize}),
		platform.AttrSandboxDiskMB:           {Why: whyDiskMB},
		platform.AttrSandboxEnv:              kept(platform.Attribute{Support: platform.Replace, Doc: docEnv}),
		platform.AttrSandboxEnvWOVersion:     kept(platform.Attribute{Support: platform.Replace}),
		platform.AttrSandboxLabels:           {Support: platform.InPlace, Doc: docLabels},
		platform.AttrSandboxVolumeMount:      kept(platform.Attribute{Support: platform.Replace, Doc: docMount}),
		platform.AttrSandboxMountReadOnly:    kept(platform.Attribute{Support: platform.Replace}),
		platform.AttrSandboxMountSubpath:     kept(platform.Attribute{Support: platform.Replace}),
		platform.AttrSandboxFromSnapshotID:   kept(platform.Attribute{Support: platform.Replace, Doc: docFromSnapshot}),
		platform.AttrSandboxTimeout:          kept(platform.Attribute{Support: platform.Replace, MaxDuration: maxSandboxTimeout, Doc: docTimeout}),
		platform.AttrSandboxOnTimeout:        kept(platform.Attribute{Support: platform.Replace, Values: []string{string(platform.OnTimeoutKill)}, Why: whyOnTimeout}),
		platform.AttrSandboxIdleTimeout:      kept(platform.Attribute{Support: platform.Replace, Doc: docIdle}),
		platform.AttrSandboxAutoArchiveAfter: {Why: whyArchive},
		platform.AttrSandboxAutoDeleteAfter:  {Why: whyArchive},
		platform.AttrSandboxNetworkInternet:  kept(platform.Attribute{Support: platform.Replace, Doc: docInternet}),
		platform.AttrSandboxNetworkAllowOut:  kept(platform.Attribute{Support: platform.Replace, Doc: docAllowOut}),
		platform.AttrSandboxNetworkDenyOut:   {Why: whyDenyOut},
		platform.AttrSandboxAutoResume:       {Why: whyAutoResume},
		platform.AttrSandboxMemorySnapshots:  {Support: platform.Replace, Doc: docMemorySnaps},

		// Sandbox.SnapshotFilesystem / ExperimentalSnapshot.
		platform.AttrSnapshotSandboxID:     {Support: platform.Replace, Doc: docSnapSandbox},
		platform.AttrSnapshotVolumeID:      {Why: whySnapVolume},
		platform.AttrSnapshotIncludeMemory: {Support: platform.Replace, Doc: docSnapMemory},
		platform.AttrSnapshotTTL:           {Support: platform.Replace, Doc: docSnapTTL},
		platform.AttrSnapshotLabels:        {Why: whySnapLabels},
	}
}

// capabilities is what Modal can do through its SDK.
func capabilities() platform.Capabilities {
	return platform.Capabilities{
		Attributes: attributes(),
		// Modal has no pause: nothing to tell apart.
		PauseKindUnreported: false,
		// Modal ends sandboxes at their timeouts and expires snapshots.
		EnforcesDeadlines: true,
		// Images are found by id only: the SDK lists no images.
		TemplatesListed: false,
		// The SDK reports a volume's id and name only.
		VolumeCreatedAt: false,

		SnapshotDelete: true, // filesystem snapshots: ImageDelete
		// Memory snapshots cannot be listed or deleted: they expire.
		SnapshotUndeletableKinds: []platform.SnapshotKind{platform.SnapshotMemory},
		SnapshotNames:            false, // Modal snapshots have no name
		SnapshotNamesUnique:      false,
		// From the record the provider keeps in the source sandbox's tags.
		SnapshotCreatedAt:      true,
		SnapshotSize:           false,
		SnapshotSourceReported: true,
		SnapshotListsBySource:  true,
		// Modal lists no snapshots: an Image is one only by that record.
		SnapshotsByMarksOnly: true,

		// Sandbox.Exec through the task command router (sandbox_exec.go).
		Exec: execSupport,
	}
}
