package e2b

import (
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// maxTimeoutByTier is the longest continuous runtime E2B allows per plan:
// "up to 24 hours (Pro) or 1 hour (Base)" (E2B sandbox docs).
var maxTimeoutByTier = map[string]time.Duration{
	TierBase: time.Hour,
	TierPro:  24 * time.Hour,
}

// Why an attribute or value is refused on E2B, and what to do instead.
const (
	whyTemplateDisk   = "sandbox disks cannot be sized here; remove `disk_mb`"
	whyTemplateLabels = "templates carry no labels on this platform; remove labels (find a template by its name with the sbx_template data source)"
	whyVolumeSize     = "volumes on this platform have no size; remove size_gb"
	whyVolumeRegion   = "this platform has no regions for volumes; remove region"
	whyVolumeRestore  = "this platform cannot restore a volume from a snapshot; remove from_snapshot_id"
	whyVolumeLabels   = "volumes carry no labels on this platform; remove labels (find a volume by its name with the sbx_volume data source)"
	whySandboxSize    = "a sandbox takes its size from its template; remove it and set it on the sbx_template"
	whySandboxRegion  = "E2B chooses where a sandbox runs; remove region"
	whyDiskMB         = "the platform sizes a sandbox's disk itself; remove disk_mb"
	whySubpath        = "a volume is mounted whole here; mount it and use the directory inside it, or remove subpath"
	whyReadOnly       = "volumes are always mounted read-write here; remove read_only or set it to false"
	whyIdle           = "this platform stops no idle sandboxes and reports no activity inside one, so no idle deadline " +
		"can be tracked; remove idle_timeout (timeout bounds how long a box runs)"
	whyArchive        = "this platform has no archived state; remove auto_archive_after"
	whyAutoDelete     = "this platform does not delete stopped sandboxes by itself; remove auto_delete_after"
	whyVolumeSnapshot = "this platform cannot snapshot volumes; snapshot the sandbox that mounts it with `sandbox_id`"
	whyFSOnlySnapshot = "snapshots always include memory; remove `include_memory` (a memory snapshot is planned) or set it to true"
	whyBoxMemory      = "memory snapshots need no opt-in when a sandbox is created here (every snapshot holds memory); remove memory_snapshots or set it to false"
	whySnapshotTTL    = "snapshots do not expire here; remove `ttl` and destroy the snapshot when it is no longer needed"
	whySnapshotLabels = "snapshots carry no labels on this platform; remove labels (find snapshots by name, name_regex or sandbox_id with the sbx_snapshot(s) data sources)"
)

// What the documentation of an attribute says of E2B besides the row's
// support and limits (platform.Attribute.Doc).
const (
	docDockerfile = "the Dockerfile becomes E2B build steps: an instruction E2B cannot express is a plan-time error naming its line; " +
		"each COPY or ADD step uploads only the files it copies (`.dockerignore` honoured), as one gzipped layer keyed as E2B's SDKs " +
		"key it, and only when E2B does not hold that layer already, so a rebuild after one file changed uploads that step's layer alone; " +
		"a build that fails keeps the template in state, tainted: the error names the failing step with the last lines of the build log, " +
		"the next apply builds it again and destroy removes it"
	// docFromTemplate: TemplateBuildStartV2's fromTemplate; GET /templates/{id} reports no base.
	docFromTemplate = "the build starts from the template (E2B's `fromTemplate`), whose newest build E2B takes when the " +
		"build starts, and runs the Dockerfile's steps on it as the base template's user in its working directory; " +
		"a rebuild of the base rebuilds nothing built on it (a change of `from_template`, or of any other input, does)"
	docTemplateSize = "a sandbox takes its size from its template, so this sizes every sandbox of the template"
	// docTemplatePublic: PATCH /templates/{templateID} after the build.
	docTemplatePublic = "`true` lets every E2B team start sandboxes from the template; a change is a rebuild in place (E2B reuses the cached layers), which then sets it"
	docState          = "`paused` keeps the box's memory, `stopped` is a pause that drops it (the box boots afresh when started)"
	docTimeout        = "the `pro` tier (`tier = \"pro\"`) allows 24h; when omitted the provider sends 300s (E2B's API " +
		"default, 15s, is too short for an agent; 300s is what its SDKs send)"
	docOnTimeout = "fixed when the box is created; `pause` keeps the box's memory, `stop` is a pause that keeps only " +
		"its filesystem (the box boots afresh when started)"
	docNetworkInternet = "`false` denies all outbound traffic but `allow_out` (E2B's `allow_internet_access`); the " +
		"network settings change in place on a running box, and a paused or stopped one is resumed for the change " +
		"and paused again"
	docNetworkAllowOut = "CIDR blocks, addresses or host names (`example.com`, `*.example.com`); a host name needs " +
		"`internet = false`, as E2B filters names only for a box denied everything else; an entry that is none of " +
		"these (`10.0.0.0/33`, `999.1.1.1`) is a plan-time error naming it"
	docNetworkDenyOut = "CIDR blocks or addresses only (E2B filters no host names out)"
	docAutoResume     = "fixed when the box is created; needs `on_timeout = \"pause\"` (a box paused without its memory " +
		"cannot be resumed by traffic)"
	docSnapshotSource = "the snapshot holds the sandbox's filesystem and memory, and is restored by starting a new sandbox " +
		"from it; E2B snapshots only running sandboxes, so a `paused` or `stopped` one is resumed for the snapshot and " +
		"paused again, also when the snapshot fails (E2B does not report which kind of pause a box had: one stopped " +
		"before this run is paused again keeping the memory of its fresh boot, and still reads as `stopped`)"
)

// attributesFor is E2B's attribute table for an account tier.
func attributesFor(tier string) platform.Attributes {
	return platform.Attributes{
		// A template build is a new build of the same template id. E2B
		// keeps neither the Dockerfile nor the commands of a build
		// (Unreported): an import takes them from the configuration.
		platform.AttrTemplateDockerfile: {Support: platform.InPlace, Unreported: true, Doc: docDockerfile},
		platform.AttrTemplateImage:      {Support: platform.Replace}, // a build with fromImage and no steps; another image is another template
		// A new build of the same template on another base (fromTemplate).
		platform.AttrTemplateFromTemplate: {Support: platform.InPlace, Unreported: true, Doc: docFromTemplate},
		platform.AttrTemplateStartCmd:     {Support: platform.InPlace, Unreported: true},
		platform.AttrTemplateReadyCmd:     {Support: platform.InPlace, Unreported: true},
		platform.AttrTemplateCPUCount:     {Support: platform.InPlace, Doc: docTemplateSize},
		platform.AttrTemplateMemoryMB:     {Support: platform.InPlace, Min: 128, Doc: docTemplateSize}, // MemoryMB minimum in the API spec
		platform.AttrTemplateDiskMB:       {Why: whyTemplateDisk},
		platform.AttrTemplateLabels:       {Why: whyTemplateLabels},                            // a template has names (aliases) only
		platform.AttrTemplatePublic:       {Support: platform.InPlace, Doc: docTemplatePublic}, // PATCH /templates/{id}

		platform.AttrVolumeSizeGB:            {Why: whyVolumeSize}, // Volume is {volumeID, name}
		platform.AttrVolumeRegion:            {Why: whyVolumeRegion},
		platform.AttrVolumeLabels:            {Why: whyVolumeLabels},
		platform.AttrVolumeFromSnapshotID:    {Why: whyVolumeRestore},
		platform.AttrVolumeSnapshotRetention: {Why: whyVolumeSnapshot},

		platform.AttrSandboxFromSnapshotID: {Support: platform.Replace}, // POST /sandboxes {templateID: <snapshot id>}
		// pause {memory: true} keeps memory; pause {memory: false} is a
		// filesystem-only pause, a cold boot on resume.
		platform.AttrSandboxState:    {Support: platform.InPlace, Values: platform.DesiredStates, Doc: docState},
		platform.AttrSandboxRegion:   {Why: whySandboxRegion},
		platform.AttrSandboxCPUCount: {Why: whySandboxSize}, // cpuCount / memoryMB belong to the template
		platform.AttrSandboxMemoryMB: {Why: whySandboxSize},
		platform.AttrSandboxDiskMB:   {Why: whyDiskMB},
		// envVars are set at create and never reported back.
		platform.AttrSandboxEnv:           {Support: platform.Replace, Unreported: true},
		platform.AttrSandboxEnvWOVersion:  {Support: platform.Replace, Unreported: true},
		platform.AttrSandboxLabels:        {Support: platform.Replace}, // metadata is set at create only
		platform.AttrSandboxVolumeMount:   {Support: platform.Replace},
		platform.AttrSandboxMountReadOnly: {Support: platform.Replace, Values: []string{"false"}, Why: whyReadOnly},
		platform.AttrSandboxMountSubpath:  {Why: whySubpath},
		// POST /sandboxes/{id}/timeout changes the end time of a live box.
		platform.AttrSandboxTimeout: {Support: platform.InPlace, MaxDuration: maxTimeoutByTier[tier], Doc: docTimeout},
		// on_timeout is the create request's autoPause (stop: with
		// autoPauseMemory = false), fixed at create.
		platform.AttrSandboxOnTimeout: {Support: platform.Replace, Doc: docOnTimeout,
			Values: []string{string(platform.OnTimeoutKill), string(platform.OnTimeoutPause), string(platform.OnTimeoutStop)}},
		// allow_internet_access and network {allowOut, denyOut} at create,
		// PUT /sandboxes/{id}/network on a running box.
		platform.AttrSandboxNetworkInternet: {Support: platform.InPlace, Doc: docNetworkInternet},
		platform.AttrSandboxNetworkAllowOut: {Support: platform.InPlace, Doc: docNetworkAllowOut},
		platform.AttrSandboxNetworkDenyOut:  {Support: platform.InPlace, Doc: docNetworkDenyOut},
		// The create request's autoResume {enabled}, fixed at create.
		platform.AttrSandboxAutoResume:       {Support: platform.Replace, Doc: docAutoResume},
		platform.AttrSandboxMemorySnapshots:  {Support: platform.Replace, Values: []string{"false"}, Why: whyBoxMemory}, // any box snapshots with its memory
		platform.AttrSandboxIdleTimeout:      {Why: whyIdle},
		platform.AttrSandboxAutoArchiveAfter: {Why: whyArchive},
		platform.AttrSandboxAutoDeleteAfter:  {Why: whyAutoDelete},

		// An E2B snapshot is taken like a pause: filesystem and memory,
		// restored by starting a new sandbox from it.
		platform.AttrSnapshotSandboxID:     {Support: platform.Replace, Doc: docSnapshotSource},
		platform.AttrSnapshotVolumeID:      {Why: whyVolumeSnapshot},
		platform.AttrSnapshotIncludeMemory: {Support: platform.Replace, Values: []string{"true"}, Why: whyFSOnlySnapshot},
		platform.AttrSnapshotTTL:           {Why: whySnapshotTTL},
		platform.AttrSnapshotLabels:        {Why: whySnapshotLabels}, // a snapshot has names only
	}
}

// capabilitiesFor is what E2B can do on an account tier.
func capabilitiesFor(tier string) platform.Capabilities {
	return platform.Capabilities{
		Attributes: attributesFor(tier),
		// GET /sandboxes/{id} says "paused" after pause {memory: true} and
		// {memory: false} alike; sandbox metadata is fixed at create, so the
		// kind cannot be recorded on the box either.
		PauseKindUnreported: true,
		EnforcesDeadlines:   true, // E2B kills (or pauses) the box at its end time itself
		TemplatesListed:     true, // GET /templates, by alias

		SnapshotDelete:      true, // DELETE /templates/{snapshotID}
		SnapshotNames:       true, // SnapshotInfo.names
		SnapshotNamesUnique: true, // a second snapshot of a name becomes a build of the first
		// SnapshotInfo is {snapshotID, names}: no time, size or source;
		// GET /snapshots filters by sandboxID but does not report it.
		SnapshotCreatedAt:      false,
		SnapshotSize:           false,
		SnapshotSourceReported: false,
		SnapshotListsBySource:  true, // GET /snapshots?sandboxID= filters on the server

		// Commands run through envd, the daemon in each box (a Connect RPC
		// process service on the box's own host), not through the API.
		Exec: platform.ExecSupport{Why: "E2B runs commands through envd, the daemon inside each sandbox, whose API " +
			"is not part of E2B's published API description; run them " +
			"with E2B's SDK or CLI"},
	}
}
