package daytona

import (
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// maxAutoArchive is the longest auto-archive interval Daytona keeps:
// MAX_AUTO_ARCHIVE_INTERVAL, 43200 minutes by default (apps/api/src/config/
// configuration.ts:97); a longer one is clamped (sandbox.service.ts).
const maxAutoArchive = 30 * 24 * time.Hour

// gib is the step of Daytona's memory and disk sizes, in MiB.
const gib = 1024

// Why an attribute or value is refused on Daytona, and what to do instead.
const (
	whyReadyCmd     = "Daytona has no readiness check for a snapshot; remove ready_cmd (wait for readiness inside the sandbox)"
	whyTplLabels    = "Daytona snapshots carry no labels; remove labels (find a template by its name with the sbx_template data source)"
	whyTplPublic    = "only Daytona itself publishes general snapshots; remove public"
	whyFromTemplate = "Daytona builds a snapshot from a Dockerfile or an image, not on another snapshot; remove from_template and " +
		"start the Dockerfile FROM the image the other template was built from"
	whyVolumeSize          = "Daytona volumes are S3-backed and have no size; remove size_gb"
	whyVolumeRegion        = "Daytona volumes have no region; remove region"
	whyVolumeLabels        = "Daytona volumes carry no labels; remove labels (find a volume by its name with the sbx_volume data source)"
	whyVolumeRestore       = "Daytona cannot restore a volume from a snapshot; remove from_snapshot_id"
	whyVolumeSnapRetention = "Daytona takes no snapshots of volumes; remove snapshot_retention"
	whySandboxSize         = "Daytona sizes a new sandbox from its template: set it on the sbx_template; on a live sandbox a change resizes it where the organisation has resize enabled"
	whyReadOnly            = "Daytona mounts volumes read-write only; remove read_only or set it to false"
	whyTimeout             = "Daytona has no absolute runtime limit; remove timeout and use idle_timeout (Daytona's auto-stop), auto_archive_after or auto_delete_after"
	whyOnTimeout           = "Daytona has no absolute runtime limit, so nothing happens at a timeout; remove on_timeout (idle_timeout stops an idle sandbox)"
	whyDenyOut             = "Daytona filters outbound traffic by an allow list only; remove deny_out and list what the sandbox may reach in allow_out with internet = false"
	whyAutoResume          = "Daytona does not resume a paused sandbox on traffic; remove auto_resume and set state = \"running\""
	whyMemorySnapshots     = "Daytona's memory snapshots need no opt-in when a sandbox is created (a Windows-class sandbox takes them as it is); remove memory_snapshots or set it to false"
	whyVolumeSnapshot      = "Daytona cannot snapshot volumes; snapshot the sandbox that mounts it with sandbox_id"
	whySnapshotTTL         = "Daytona snapshots do not expire (an unused one is deactivated after 14 days, not deleted); remove ttl and destroy the snapshot when it is no longer needed"
	whySnapshotLabels      = "Daytona snapshots carry no labels; remove labels (find snapshots by name with the sbx_snapshot(s) data sources)"
)

// What the documentation of an attribute says of Daytona besides the
// row's support and limits (platform.Attribute.Doc).
const (
	docDockerfile = "sent as Daytona's build info (the Dockerfile and the hashes of its context), the files each COPY or ADD reads " +
		"uploaded as Daytona's SDKs upload them (`.dockerignore` honoured, a part Daytona holds already is not sent again); " +
		"Daytona snapshots cannot be rebuilt, so any change builds a new one; a build that fails keeps the template in state, " +
		"tainted, with Daytona's reason and the last lines of the build log"
	docImage      = "a tag `latest`, `lts` or `stable`, or none, is a plan-time error: Daytona refuses moving tags, so pin a version"
	docStartCmd   = "the snapshot's entrypoint, run by `sh -c`; with a Dockerfile it is written into it as an ENTRYPOINT line"
	docTplSize    = "a new sandbox takes its size from its template on Daytona, so this sizes every sandbox of the template"
	docTplGiB     = "whole GB on Daytona; " + docTplSize
	docState      = "`paused` keeps the memory and needs a VM-class sandbox (Daytona refuses to pause a container); `stopped` keeps the disk; a sandbox Daytona archived reads as `archived` and counts as stopped, and `running` starts it again in place"
	docSandboxGiB = "changed in place by Daytona's resize: a growth on a running sandbox is made live, a shrink (or any disk change) stops the sandbox for the resize and starts it again"
	docRegion     = "sent as Daytona's target; when omitted the provider block's `target` (or the organisation's default region)"
	docSubpath    = "mounts that directory (S3 prefix) of the volume instead of its root"
	docIdle       = "the sandbox is stopped once idle that long (Daytona's auto-stop, whole minutes; 15m when unset); only API, preview, SSH and toolbox traffic counts as activity"
	docArchive    = "in whole minutes; a sandbox stopped that long is archived (its disk moved to object storage; 7 days when unset)"
	docAutoDelete = "in whole minutes; a sandbox stopped that long is deleted (never when unset)"
	docInternet   = "`false` blocks all outbound traffic but `allow_out` (Daytona's networkBlockAll / networkAllowList), changed in place"
	docAllowOut   = "only CIDR blocks and addresses (Daytona's networkAllowList): with `internet = false` they are all the sandbox reaches; with the internet reachable they restrict nothing, and Daytona is not given them"
	docSnapSource = "the snapshot is a Daytona snapshot that new sandboxes start from (`from_snapshot_id`); Daytona snapshots a started or " +
		"stopped sandbox, so a paused or archived one is brought to an accepted state for it and back afterwards"
	docSnapMemory = "only Windows-class sandboxes (Daytona refuses memory snapshots of others: a plan-time error); a memory snapshot " +
		"needs the sandbox started and a filesystem one needs it stopped, and the provider moves it there for the snapshot and back"
)

// attributes is Daytona's attribute table.
func attributes() platform.Attributes {
	sizeInPlace := func(step int64, growOnly bool) platform.Attribute {
		return platform.Attribute{Support: platform.InPlace, UpdateOnly: true, Step: step, GrowOnly: growOnly,
			Why: whySandboxSize, Doc: docSandboxGiB}
	}
	return platform.Attributes{
		// POST /snapshots: snapshots are immutable (no update endpoint).
		// Unreported: Daytona keeps the Dockerfile it built with the
		// provider's ENTRYPOINT line in it, and not the context directory
		// nor the provider's hash of it, so an import cannot read back what
		// a configuration says; it takes them from the configuration.
		platform.AttrTemplateDockerfile:   {Support: platform.Replace, Unreported: true, Doc: docDockerfile},
		platform.AttrTemplateImage:        {Support: platform.Replace, Doc: docImage},
		platform.AttrTemplateStartCmd:     {Support: platform.Replace, Doc: docStartCmd},
		platform.AttrTemplateReadyCmd:     {Why: whyReadyCmd},
		platform.AttrTemplateCPUCount:     {Support: platform.Replace, Min: 1, Doc: docTplSize},
		platform.AttrTemplateMemoryMB:     {Support: platform.Replace, Step: gib, Min: gib, Doc: docTplGiB},
		platform.AttrTemplateDiskMB:       {Support: platform.Replace, Step: gib, Min: gib, Doc: docTplGiB},
		platform.AttrTemplateLabels:       {Why: whyTplLabels},
		platform.AttrTemplatePublic:       {Why: whyTplPublic},
		platform.AttrTemplateFromTemplate: {Why: whyFromTemplate},

		// Volume is {name} only.
		platform.AttrVolumeSizeGB:            {Why: whyVolumeSize},
		platform.AttrVolumeRegion:            {Why: whyVolumeRegion},
		platform.AttrVolumeLabels:            {Why: whyVolumeLabels},
		platform.AttrVolumeFromSnapshotID:    {Why: whyVolumeRestore},
		platform.AttrVolumeSnapshotRetention: {Why: whyVolumeSnapRetention},

		// POST /sandbox {snapshot: <name>}.
		platform.AttrSandboxFromSnapshotID: {Support: platform.Replace},
		platform.AttrSandboxState:          {Support: platform.InPlace, Values: platform.DesiredStates, Doc: docState},
		// CreateSandbox.target; a box does not move between regions.
		platform.AttrSandboxRegion: {Support: platform.Replace, Doc: docRegion},
		// CreateSandbox refuses cpu/memory/disk with a snapshot
		// (sandbox.service.ts); POST /sandbox/{id}/resize changes them.
		platform.AttrSandboxCPUCount: sizeInPlace(0, false),
		platform.AttrSandboxMemoryMB: sizeInPlace(gib, false),
		platform.AttrSandboxDiskMB:   sizeInPlace(gib, true),
		// Sandbox.env is reported back.
		platform.AttrSandboxEnv:           {Support: platform.Replace},
		platform.AttrSandboxEnvWOVersion:  {Support: platform.Replace, Unreported: true},
		platform.AttrSandboxLabels:        {Support: platform.InPlace}, // PUT /sandbox/{id}/labels
		platform.AttrSandboxVolumeMount:   {Support: platform.Replace}, // volumes are given at create only
		platform.AttrSandboxMountReadOnly: {Support: platform.Replace, Values: []string{"false"}, Why: whyReadOnly},
		platform.AttrSandboxMountSubpath:  {Support: platform.Replace, Doc: docSubpath},
		platform.AttrSandboxTimeout:       {Why: whyTimeout},
		platform.AttrSandboxOnTimeout:     {Why: whyOnTimeout},
		// POST /sandbox/{id}/autostop|autoarchive|autodelete/{minutes}.
		platform.AttrSandboxIdleTimeout:      {Support: platform.InPlace, Doc: docIdle},
		platform.AttrSandboxAutoArchiveAfter: {Support: platform.InPlace, MaxDuration: maxAutoArchive, Doc: docArchive},
		platform.AttrSandboxAutoDeleteAfter:  {Support: platform.InPlace, Doc: docAutoDelete},
		// POST /sandbox/{id}/network-settings.
		platform.AttrSandboxNetworkInternet: {Support: platform.InPlace, Doc: docInternet},
		platform.AttrSandboxNetworkAllowOut: {Support: platform.InPlace, Doc: docAllowOut},
		platform.AttrSandboxNetworkDenyOut:  {Why: whyDenyOut},
		platform.AttrSandboxAutoResume:      {Why: whyAutoResume},
		// Accepted as false only: includeMemory is chosen per snapshot.
		platform.AttrSandboxMemorySnapshots: {Support: platform.Replace, Values: []string{"false"}, Why: whyMemorySnapshots},

		// POST /sandbox/{id}/snapshot {name, includeMemory}.
		platform.AttrSnapshotSandboxID: {Support: platform.Replace, Doc: docSnapSource},
		// SnapshotDto does not say whether it holds memory.
		platform.AttrSnapshotIncludeMemory: {Support: platform.Replace, Unreported: true, Doc: docSnapMemory},
		platform.AttrSnapshotVolumeID:      {Why: whyVolumeSnapshot},
		platform.AttrSnapshotTTL:           {Why: whySnapshotTTL},
		platform.AttrSnapshotLabels:        {Why: whySnapshotLabels},
	}
}

// capabilities is what Daytona can do.
func capabilities() platform.Capabilities {
	return platform.Capabilities{
		Attributes: attributes(),
		// started / paused / stopped are distinct states.
		PauseKindUnreported: false,
		// The daemon's process execute, through the toolbox proxy
		// (sandbox_exec.go).
		Exec: execSupport,
		// Daytona stops, archives and deletes boxes itself.
		EnforcesDeadlines: true,
		TemplatesListed:   true, // GET /snapshots, by name
		VolumeCreatedAt:   true, // VolumeDto.createdAt

		SnapshotDelete:      true, // DELETE /snapshots/{id}
		SnapshotNames:       true, // SnapshotDto.name
		SnapshotNamesUnique: true, // a taken name is a 409 (snapshot.service.ts)
		SnapshotCreatedAt:   true, // SnapshotDto.createdAt
		SnapshotSize:        true, // SnapshotDto.size (GB)
		// SnapshotDto names no source sandbox, and GET /snapshots filters
		// by name only.
		SnapshotSourceReported: false,
		SnapshotListsBySource:  false,
	}
}
