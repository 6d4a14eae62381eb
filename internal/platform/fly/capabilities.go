package fly

import "github.com/sbxhq/terraform-provider-sbx/internal/platform"

// Fly's volume snapshot retention: 1–60 days, 5 by default
// (platform-apis.md §3; Fly docs volumes/snapshots).
const (
	defaultRetentionDays = 5
	maxRetentionDays     = 60
)

// Why an attribute or value is refused on Fly, and what to do instead.
const (
	whyDockerfile   = "Fly has no template build API; build and push the image yourself (fly deploy --build-only --push, or any registry) and give it with image"
	whyFromTemplate = "Fly has no template build API; build the image yourself and give it with image"
	whyTplCmd       = "a Fly template is only an image reference; bake the command into the image (its ENTRYPOINT/CMD)"
	whyTplSize      = "a Fly template is only an image reference; size each sandbox with its cpu_count and memory_mb"
	whyTplLabels    = "a Fly template is a record in state, with nothing on Fly to label; remove labels"
	whyTplPublic    = "a Fly template is a record in state; who may pull the image is the registry's setting; remove public"
	whyVolumeLabels = "Fly volumes carry no labels; remove labels (find a volume by its name with the sbx_volume data source)"
	whyFromSnapshot = "Fly restores volume snapshots into new volumes, not machines; restore with sbx_volume.from_snapshot_id and mount that volume"
	whyDiskMB       = "a Fly machine's root filesystem is sized by Fly and not configurable; mount a volume for data (volume_mount)"
	whyReadOnly     = "Fly mounts volumes read-write only; remove read_only or set it to false"
	whySubpath      = "Fly mounts a volume's root only; remove subpath and use a directory under the mount path"
	whyDeadline     = "Fly has no per-machine deadline; remove it, and stop or destroy the sandbox yourself (or set state)"
	whyNetwork      = "Fly has no per-machine outbound network rules; remove the network block"
	whyAutoResume   = "Fly resumes a suspended machine on traffic only through Fly Proxy services, which the provider does not configure; remove auto_resume and set state = \"running\""
	whyMemorySnaps  = "Fly has no memory snapshots (it snapshots volumes only); remove memory_snapshots or set it to false"
	whySnapSandbox  = "Fly snapshots volumes, not machines; snapshot the sandbox's volume with volume_id"
	whySnapMemory   = "Fly volume snapshots hold the volume's data only; remove include_memory or set it to false"
	whySnapTTL      = "Fly keeps a volume's snapshots its snapshot_retention days; set snapshot_retention on the sbx_volume and remove ttl"
	whySnapLabels   = "Fly volume snapshots carry no labels; remove labels"
)

// What the documentation of an attribute says of Fly (platform.Attribute.Doc).
const (
	docImage     = "the template is only a record in state (status `recorded`) of the image reference machines are made from, as Fly has no template API"
	docState     = "`running` is Fly's started, `paused` is suspended (memory kept in a snapshot Fly may discard: the machine then resumes with a cold boot, shown in the `sbx_sandboxes` data source's `platform_status`), `stopped` is stopped; all changed in place"
	docRegion    = "a Fly region such as `iad`; when omitted the provider block's `region` (else Fly's choice); a machine mounts volumes of its region only"
	docGuest     = "the machine's guest (shared CPUs), changed by a machine update that keeps the machine id and restarts a started machine; Fly accepts the memory sizes it sells for the CPU count"
	docEnv       = "the machine config's env, changed by a machine update (same machine id, new version)"
	docLabels    = "the machine's metadata, changed by a machine update (same machine id, new version)"
	docMount     = "one volume per Fly machine, in the machine's region; changing it replaces the machine"
	docVolSize   = "grown in place by Fly's extend (1 GB when omitted); a started machine that mounts it is restarted when Fly says it needs one; Fly volumes cannot shrink"
	docVolRegion = "a Fly region such as `iad`; when omitted the provider block's `region`"
	docRetention = "days Fly keeps the volume's snapshots (5 when omitted), changed in place; a change applies to snapshots made after it"
	docRestore   = "the snapshot is restored by Fly into the new volume, which must be at least as large as the volume the snapshot was taken of"
	docSnapVol   = "the snapshot is taken by Fly asynchronously and found as the one that appeared after the request; Fly cannot delete snapshots, so destroy forgets it with a warning and it expires after the volume's snapshot_retention days"
)

// attributes is Fly's attribute table.
func attributes() platform.Attributes {
	deadline := platform.Attribute{Why: whyDeadline}
	return platform.Attributes{
		platform.AttrTemplateImage:        {Support: platform.Replace, Doc: docImage},
		platform.AttrTemplateDockerfile:   {Why: whyDockerfile},
		platform.AttrTemplateFromTemplate: {Why: whyFromTemplate},
		platform.AttrTemplateStartCmd:     {Why: whyTplCmd},
		platform.AttrTemplateReadyCmd:     {Why: whyTplCmd},
		platform.AttrTemplateCPUCount:     {Why: whyTplSize},
		platform.AttrTemplateMemoryMB:     {Why: whyTplSize},
		platform.AttrTemplateDiskMB:       {Why: whyTplSize},
		platform.AttrTemplateLabels:       {Why: whyTplLabels},
		platform.AttrTemplatePublic:       {Why: whyTplPublic},

		// PUT .../extend grows; PUT /volumes/{id} {snapshot_retention}.
		platform.AttrVolumeSizeGB:            {Support: platform.InPlace, GrowOnly: true, Min: 1, Max: 500, Doc: docVolSize},
		platform.AttrVolumeRegion:            {Support: platform.Replace, Doc: docVolRegion},
		platform.AttrVolumeSnapshotRetention: {Support: platform.InPlace, Min: 1, Max: maxRetentionDays, Doc: docRetention},
		platform.AttrVolumeLabels:            {Why: whyVolumeLabels},
		platform.AttrVolumeFromSnapshotID:    {Support: platform.Replace, Doc: docRestore},

		// POST /machines/{id}/start|stop|suspend.
		platform.AttrSandboxState:  {Support: platform.InPlace, Values: platform.DesiredStates, Doc: docState},
		platform.AttrSandboxRegion: {Support: platform.Replace, Doc: docRegion},
		// POST /machines/{id} with the full config (machine update).
		platform.AttrSandboxCPUCount:         {Support: platform.InPlace, Min: 1, Doc: docGuest},
		platform.AttrSandboxMemoryMB:         {Support: platform.InPlace, Min: 256, Step: 256, Doc: docGuest},
		platform.AttrSandboxEnv:              {Support: platform.InPlace, Doc: docEnv},
		platform.AttrSandboxEnvWOVersion:     {Support: platform.InPlace, Unreported: true, Doc: docEnv},
		platform.AttrSandboxLabels:           {Support: platform.InPlace, Doc: docLabels},
		platform.AttrSandboxVolumeMount:      {Support: platform.Replace, Max: 1, Doc: docMount},
		platform.AttrSandboxMountReadOnly:    {Support: platform.Replace, Values: []string{"false"}, Why: whyReadOnly},
		platform.AttrSandboxMountSubpath:     {Why: whySubpath},
		platform.AttrSandboxFromSnapshotID:   {Why: whyFromSnapshot},
		platform.AttrSandboxDiskMB:           {Why: whyDiskMB},
		platform.AttrSandboxTimeout:          deadline,
		platform.AttrSandboxOnTimeout:        deadline,
		platform.AttrSandboxIdleTimeout:      deadline,
		platform.AttrSandboxAutoArchiveAfter: deadline,
		platform.AttrSandboxAutoDeleteAfter:  deadline,
		platform.AttrSandboxNetworkInternet:  {Why: whyNetwork},
		platform.AttrSandboxNetworkAllowOut:  {Why: whyNetwork},
		platform.AttrSandboxNetworkDenyOut:   {Why: whyNetwork},
		platform.AttrSandboxAutoResume:       {Why: whyAutoResume},
		// Accepted as false only: a machine's memory is never snapshotted.
		platform.AttrSandboxMemorySnapshots: {Support: platform.Replace, Values: []string{"false"}, Why: whyMemorySnaps},

		// POST /volumes/{id}/snapshots (no body, no answer).
		platform.AttrSnapshotVolumeID:      {Support: platform.Replace, Doc: docSnapVol},
		platform.AttrSnapshotSandboxID:     {Why: whySnapSandbox},
		platform.AttrSnapshotIncludeMemory: {Support: platform.Replace, Values: []string{"false"}, Why: whySnapMemory},
		platform.AttrSnapshotTTL:           {Why: whySnapTTL},
		platform.AttrSnapshotLabels:        {Why: whySnapLabels},
	}
}

// capabilities is what Fly can do.
func capabilities() platform.Capabilities {
	return platform.Capabilities{
		Attributes: attributes(),
		// started, suspended and stopped are distinct states.
		PauseKindUnreported: false,
		// Fly itself expires volume snapshots and may discard a suspended
		// machine's memory (the retention rows are Enforced).
		EnforcesDeadlines: true,
		// A Fly template is a record in state (an image reference): Fly
		// has no templates to list.
		TemplatesListed: false,
		VolumeCreatedAt: true, // Volume.created_at
		// One machine per volume (Fly docs machines-resource, mounts).
		VolumeMountsExclusive: true,

		SnapshotDelete:         false, // Fly has no snapshot delete endpoint
		SnapshotNames:          false, // Fly volume snapshots have no name
		SnapshotNamesUnique:    false, // Fly snapshots have no name
		SnapshotCreatedAt:      true,  // VolumeSnapshot.created_at
		SnapshotSize:           true,  // VolumeSnapshot.size
		SnapshotSourceReported: true,  // the provider's id holds the volume
		SnapshotListsBySource:  true,  // GET /volumes/{id}/snapshots

		Exec: execSupport, // POST /machines/{id}/exec (sandbox_exec.go)
	}
}
