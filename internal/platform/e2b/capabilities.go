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

// capabilitiesFor is E2B's row of the capability matrix for a tier.
func capabilitiesFor(tier string) platform.Capabilities {
	return platform.Capabilities{
		PauseWithMemory:      true,  // POST /sandboxes/{id}/pause {memory: true}
		Stop:                 true,  // pause {memory: false}: filesystem only, cold boot on resume
		SandboxFromSnapshot:  true,  // POST /sandboxes {templateID: <snapshot id>}
		SandboxLabelsMutable: false, // metadata is set at create only
		SandboxEnvMutable:    false, // envVars are set at create only
		SandboxResizeInPlace: false, // a sandbox takes its size from its template
		SandboxDiskSize:      false,
		MinMemoryMB:          128, // MemoryMB minimum in the API spec
		MaxCPUCount:          0,
		SandboxResources:     false, // cpuCount / memoryMB belong to the template
		ReadOnlyMounts:       false, // volumeMounts have a name and a path only
		// GET /sandboxes/{id} says "paused" after pause {memory: true} and
		// {memory: false} alike; sandbox metadata is fixed at create, so the
		// kind cannot be recorded on the box either.
		PauseKindUnreported: true,

		EnforcesDeadlines: true, // E2B kills (or pauses) the box at its end time itself
		OnTimeoutActions:  []platform.OnTimeoutAction{platform.OnTimeoutKill, platform.OnTimeoutPause},
		MaxTimeout:        maxTimeoutByTier[tier],
		LifecycleMutable:  true,
		// The timeout only (POST /sandboxes/{id}/timeout); on_timeout is the
		// create request's autoPause, fixed at create, so a change replaces.
		LifecycleInPlace: []string{"timeout"},
		IdleTimeout:      false,
		AutoArchive:      false,
		AutoDelete:       false,

		TemplateFromDockerfile: true,
		TemplateFromImage:      true,  // a build with fromImage and no steps
		TemplateRebuildInPlace: true,  // a new build of the same template id
		TemplateResources:      true,  // cpuCount / memoryMB of the template
		TemplateLabels:         false, // a template has names (aliases) only

		VolumeSizes:          false, // E2B volumes have no size
		VolumeGrow:           false,
		VolumeRegions:        false,
		VolumeRestore:        false,
		VolumeLabelsMutable:  false,
		VolumeLabelsNeedIdle: false,
		VolumeLabels:         false, // a volume has a name only
		VolumeCreatedAt:      false, // Volume is {volumeID, name}

		// An E2B snapshot is taken like a pause: the sandbox's filesystem and
		// memory, restored by starting a new sandbox from it. There is no
		// filesystem-only variant.
		SandboxSnapshot:       true,
		SandboxMemorySnapshot: true,
		SandboxFSOnlySnapshot: false,
		VolumeSnapshot:        false,
		SnapshotDelete:        true, // DELETE /templates/{snapshotID}
		SnapshotTTL:           false,
		SnapshotLabels:        false, // a snapshot has names only
		SnapshotNamesUnique:   true,  // a second snapshot of a name becomes a build of the first
		// SnapshotInfo is {snapshotID, names}: no time, size or source;
		// GET /snapshots filters by sandboxID but does not report it.
		SnapshotCreatedAt:      false,
		SnapshotSize:           false,
		SnapshotSourceReported: false,
	}
}
