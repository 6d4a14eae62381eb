package platform

import (
	"slices"
	"sort"
	"strings"
	"time"
)

// Support says what a platform does with one resource attribute.
type Support int

// The ways a platform can support an attribute. The zero value refuses it,
// so an attribute a platform's table leaves out is a plan-time error there,
// never a setting silently ignored.
const (
	// Refused: setting the attribute is a plan-time error naming it.
	Refused Support = iota
	// Replace: accepted; a change replaces the object.
	Replace
	// InPlace: accepted; a change is made on the live object by the
	// service's update call (SandboxService.Update, SetState for state,
	// VolumeService.Update, TemplateService.Rebuild) and keeps its id.
	InPlace
)

// String is the support as the documentation words it.
func (s Support) String() string {
	switch s {
	case Replace:
		return "replace"
	case InPlace:
		return "in place"
	default:
		return "refused"
	}
}

// Attribute is one row of a platform's attribute table: what the platform
// does with one attribute of one resource. Plan-time decisions (error,
// in-place update, replacement, keeping a configured value the platform
// cannot report) are derived from it in one place in the provider.
type Attribute struct {
	Support Support
	// Unreported: the platform does not report the value back (E2B keeps no
	// record of a box's env). The provider keeps the configured value in
	// state, also after an import, instead of planning a replacement.
	Unreported bool
	// Required: the platform needs a value; leaving it out is a plan-time error.
	Required bool
	// Min and Max bound a number, Max also the blocks of a list (0: no
	// bound known).
	Min, Max int64
	// MaxDuration bounds a duration (0: no bound).
	MaxDuration time.Duration
	// Step: a number must be a multiple of it (Daytona sizes memory and
	// disk in whole GiB: Step 1024 on a MiB attribute); 0: any number.
	Step int64
	// GrowOnly: a number may only grow in place; a smaller value than the
	// one in state is a plan-time error (a disk cannot shrink).
	GrowOnly bool
	// UpdateOnly: the platform refuses the attribute when the object is
	// made (Why says why and what to do) but changes it in place on a live
	// object (Daytona sizes a new box from its template, then resizes it).
	UpdateOnly bool
	// Values lists the accepted values, as Terraform writes them ("paused",
	// "true"); empty accepts any.
	Values []string
	// Why says, for a refused attribute or a refused value, why the
	// platform cannot honour it and what to do instead.
	Why string
	// Doc is one sentence the platform adds to the attribute's
	// documentation, lower-case and without a final period: what no other
	// field says (what a default or a limit comes from, how the platform
	// honours the value). The provider renders it after what the row's
	// other fields say, under the platform's title.
	Doc string
}

// Accepts reports whether value (as Terraform writes it, unquoted) is one
// of the accepted Values.
func (a Attribute) Accepts(value string) bool {
	return len(a.Values) == 0 || slices.Contains(a.Values, value)
}

// Attributes is a platform's attribute table, keyed by resource kind and
// attribute name: "sandbox.timeout", "volume.size_gb", ... (the Attr*
// constants). An attribute not in the table is Refused.
type Attributes map[string]Attribute

// Get returns the row of an attribute (Refused, with no reason, when absent).
func (t Attributes) Get(key string) Attribute { return t[key] }

// Keys returns the table's keys, sorted.
func (t Attributes) Keys() []string {
	out := make([]string, 0, len(t))
	for k := range t {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Where returns the sorted keys of kind whose support is s.
func (t Attributes) Where(kind string, s Support) []string {
	var out []string
	for _, k := range t.Keys() {
		if strings.HasPrefix(k, kind+".") && t[k].Support == s {
			out = append(out, k)
		}
	}
	return out
}

// AttrName is the attribute part of a table key ("sandbox.timeout" → "timeout").
func AttrName(key string) string {
	_, name, _ := strings.Cut(key, ".")
	return name
}

// The attributes a platform's table can name: every configurable attribute
// of the resources that reaches the platform. AllAttributes lists them.
const (
	AttrTemplateDockerfile = "template.dockerfile" // with context_dir
	AttrTemplateImage      = "template.image"
	// AttrTemplateFromTemplate: the Dockerfile's steps on top of another template.
	AttrTemplateFromTemplate = "template.from_template"
	AttrTemplateStartCmd     = "template.start_cmd"
	AttrTemplateReadyCmd     = "template.ready_cmd"
	AttrTemplateCPUCount     = "template.cpu_count"
	AttrTemplateMemoryMB     = "template.memory_mb"
	AttrTemplateDiskMB       = "template.disk_mb"
	AttrTemplateLabels       = "template.labels"
	AttrTemplatePublic       = "template.public"

	AttrVolumeSizeGB         = "volume.size_gb"
	AttrVolumeRegion         = "volume.region"
	AttrVolumeLabels         = "volume.labels"
	AttrVolumeFromSnapshotID = "volume.from_snapshot_id"
	// AttrVolumeSnapshotRetention is how many days the platform keeps the
	// volume's snapshots (Fly: 1–60, default 5).
	AttrVolumeSnapshotRetention = "volume.snapshot_retention"

	AttrSandboxFromSnapshotID   = "sandbox.from_snapshot_id"
	AttrSandboxState            = "sandbox.state"
	AttrSandboxRegion           = "sandbox.region"
	AttrSandboxCPUCount         = "sandbox.cpu_count"
	AttrSandboxMemoryMB         = "sandbox.memory_mb"
	AttrSandboxDiskMB           = "sandbox.disk_mb"
	AttrSandboxEnv              = "sandbox.env"
	AttrSandboxEnvWOVersion     = "sandbox.env_wo_version" // applies the write-only env_wo; Unreported everywhere
	AttrSandboxLabels           = "sandbox.labels"
	AttrSandboxVolumeMount      = "sandbox.volume_mount" // Max: how many a box may have
	AttrSandboxMountReadOnly    = "sandbox.volume_mount.read_only"
	AttrSandboxMountSubpath     = "sandbox.volume_mount.subpath"
	AttrSandboxTimeout          = "sandbox.timeout"
	AttrSandboxOnTimeout        = "sandbox.on_timeout"
	AttrSandboxIdleTimeout      = "sandbox.idle_timeout"
	AttrSandboxAutoArchiveAfter = "sandbox.auto_archive_after"
	AttrSandboxAutoDeleteAfter  = "sandbox.auto_delete_after"
	AttrSandboxNetworkInternet  = "sandbox.network.internet"
	AttrSandboxNetworkAllowOut  = "sandbox.network.allow_out"
	AttrSandboxNetworkDenyOut   = "sandbox.network.deny_out"
	AttrSandboxAutoResume       = "sandbox.auto_resume"
	// AttrSandboxMemorySnapshots: the box is made able to take memory
	// snapshots (sbx_snapshot.include_memory), where the platform needs
	// that chosen at create (Modal's enable_snapshot).
	AttrSandboxMemorySnapshots = "sandbox.memory_snapshots"

	AttrSnapshotSandboxID     = "snapshot.sandbox_id"
	AttrSnapshotVolumeID      = "snapshot.volume_id"
	AttrSnapshotIncludeMemory = "snapshot.include_memory"
	AttrSnapshotTTL           = "snapshot.ttl"
	AttrSnapshotLabels        = "snapshot.labels"
)

// Keys a read may name in Sandbox.Unreported that are no rows of a table:
// every platform takes a sandbox's name and template, and only whether a
// read reports them back varies, box by box (a box made outside the
// provider lacks the records the provider keeps on its own).
const (
	AttrSandboxName       = "sandbox.name"
	AttrSandboxTemplateID = "sandbox.template_id"
)

// AllAttributes lists every key a table may hold, in documentation order.
func AllAttributes() []string {
	return []string{
		AttrTemplateDockerfile, AttrTemplateImage, AttrTemplateFromTemplate, AttrTemplateStartCmd, AttrTemplateReadyCmd, AttrTemplateCPUCount, AttrTemplateMemoryMB, AttrTemplateDiskMB, AttrTemplateLabels, AttrTemplatePublic,
		AttrVolumeSizeGB, AttrVolumeRegion, AttrVolumeLabels, AttrVolumeFromSnapshotID, AttrVolumeSnapshotRetention,
		AttrSandboxFromSnapshotID, AttrSandboxState, AttrSandboxRegion, AttrSandboxCPUCount, AttrSandboxMemoryMB, AttrSandboxDiskMB,
		AttrSandboxEnv, AttrSandboxEnvWOVersion, AttrSandboxLabels, AttrSandboxVolumeMount, AttrSandboxMountReadOnly, AttrSandboxMountSubpath,
		AttrSandboxTimeout, AttrSandboxOnTimeout, AttrSandboxIdleTimeout, AttrSandboxAutoArchiveAfter, AttrSandboxAutoDeleteAfter,
		AttrSandboxNetworkInternet, AttrSandboxNetworkAllowOut, AttrSandboxNetworkDenyOut, AttrSandboxAutoResume, AttrSandboxMemorySnapshots,
		AttrSnapshotSandboxID, AttrSnapshotVolumeID, AttrSnapshotIncludeMemory, AttrSnapshotTTL, AttrSnapshotLabels,
	}
}
