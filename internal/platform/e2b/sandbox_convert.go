package e2b

import (
	"fmt"
	"maps"
	"strconv"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// defaultTimeout is the timeout sent when the user sets none. E2B's own
// default is 15 s, far too short for an agent box; 300 s is what E2B's SDKs send.
const defaultTimeout = 300 * time.Second

// labelTimeout records the timeout the user configured at create, so an
// import can read it back and a resume can restore it.
const labelTimeout = platform.LabelPrefix + "timeout"

// labelOnTimeout records on_timeout = "stop" at create: E2B reports a box
// made with autoPause and autoPauseMemory = false as onTimeout "pause", the
// same as one that keeps its memory.
const labelOnTimeout = platform.LabelPrefix + "on-timeout"

// createTimeout is the timeout (in whole seconds) a create sends.
func createTimeout(lc platform.Lifecycle) int64 {
	if lc.Timeout <= 0 {
		return int64(defaultTimeout / time.Second)
	}
	secs := int64(lc.Timeout / time.Second)
	if lc.Timeout%time.Second != 0 {
		secs++ // never shorter than asked
	}
	return secs
}

// checkSandboxSpec rejects what E2B cannot do with a sandbox, naming the
// setting. Most of these are caught at plan time from the capability
// matrix; the rest (sizes) are caught here before anything is made.
func checkSandboxSpec(spec platform.SandboxSpec, caps platform.Capabilities) error {
	unsupported := func(what string) error {
		return &platform.UnsupportedError{Platform: "e2b", Capability: what}
	}
	maxTimeout := caps.Attribute(platform.AttrSandboxTimeout).MaxDuration
	switch {
	case spec.CPUCount != 0 || spec.MemoryMB != 0:
		return unsupported("sizing a sandbox (cpu_count, memory_mb): an E2B sandbox takes its size from its template; set cpu_count and memory_mb on the sbx_template")
	case spec.DiskMB != 0:
		return unsupported("disk_mb on a sandbox")
	case spec.Lifecycle.IdleTimeout != 0:
		return unsupported("idle_timeout")
	case spec.Lifecycle.AutoArchiveAfter != 0:
		return unsupported("auto_archive_after")
	case spec.Lifecycle.AutoDeleteAfter != 0:
		return unsupported("auto_delete_after")
	case networkError(spec.Network) != nil:
		return networkError(spec.Network)
	case spec.AutoResume && spec.Lifecycle.OnTimeout != platform.OnTimeoutPause:
		return autoResumeError
	case maxTimeout > 0 && spec.Lifecycle.Timeout > maxTimeout:
		return fmt.Errorf("timeout %s is above the %s maximum of this E2B tier", spec.Lifecycle.Timeout, maxTimeout)
	}
	return nil
}

// sandboxMetadata is the user's labels plus the provider's own keys.
func sandboxMetadata(spec platform.SandboxSpec) map[string]string {
	md := make(map[string]string, len(spec.Labels)+6)
	maps.Copy(md, spec.Labels)
	md[platform.LabelManaged] = "true"
	md[platform.LabelKind] = kindSandbox
	md[platform.LabelCreateToken] = spec.Marks.CreateToken
	if spec.Marks.Owner != "" {
		md[platform.LabelOwner] = spec.Marks.Owner
	}
	if spec.Name != "" {
		md[platform.LabelName] = spec.Name
	}
	if spec.FromSnapshotID != "" {
		md[labelFromSnapshot] = spec.FromSnapshotID
	}
	if spec.Lifecycle.Timeout > 0 {
		md[labelTimeout] = strconv.FormatInt(createTimeout(spec.Lifecycle), 10)
	}
	if spec.Lifecycle.OnTimeout == platform.OnTimeoutStop {
		md[labelOnTimeout] = string(platform.OnTimeoutStop)
	}
	return md
}

// createRequest is the POST /sandboxes body; mountNames maps volume ids to
// names, since E2B mounts volumes by name.
func createRequest(spec platform.SandboxSpec, mountNames map[string]string) (newSandbox, error) {
	tpl := spec.TemplateID
	if spec.FromSnapshotID != "" {
		tpl = spec.FromSnapshotID
	}
	req := newSandbox{
		TemplateID: tpl,
		Timeout:    createTimeout(spec.Lifecycle),
		Metadata:   sandboxMetadata(spec),
	}
	switch spec.Lifecycle.OnTimeout {
	case platform.OnTimeoutPause:
		req.AutoPause = true
	case platform.OnTimeoutStop:
		// A pause at the timeout that keeps only the filesystem.
		req.AutoPause, req.AutoPauseMemory = true, new(bool)
	}
	req.AllowInternetAccess, req.Network = networkRequest(spec.Network)
	if spec.AutoResume {
		req.AutoResume = &autoResumeAPI{Enabled: true}
	}
	if len(spec.Env) > 0 {
		req.EnvVars = maps.Clone(spec.Env)
	}
	for _, m := range spec.VolumeMounts {
		if m.ReadOnly {
			return newSandbox{}, &platform.UnsupportedError{Platform: "e2b", Capability: "read-only volume mounts"}
		}
		name, ok := mountNames[m.VolumeID]
		if !ok {
			return newSandbox{}, &platform.NotFoundError{Kind: "volume", ID: m.VolumeID}
		}
		req.VolumeMounts = append(req.VolumeMounts, volumeMountAPI{Name: name, Path: m.Path})
	}
	return req, nil
}

// sandboxStatus normalizes E2B's state. E2B says "paused" whether the box
// was paused with its memory (paused) or without (stopped), and a box's
// metadata is fixed at create, so nothing can record which it was: a paused
// box reads as paused, and the capability matrix (PauseKindUnreported) tells
// the resource to keep a stopped box it recorded as stopped.
func sandboxStatus(state string) platform.SandboxState {
	switch state {
	case "running":
		return platform.StateRunning
	case "paused":
		return platform.StatePaused
	}
	return platform.StateUnknown
}

// sandboxFromDetail turns an API sandbox into the normalized one;
// volumeIDs maps volume names back to ids.
func sandboxFromDetail(d sandboxDetail, volumeIDs map[string]string) *platform.Sandbox {
	md := d.Metadata
	sb := &platform.Sandbox{
		ID:             d.SandboxID,
		Name:           md[platform.LabelName],
		TemplateID:     d.TemplateID,
		FromSnapshotID: md[labelFromSnapshot],
		Status:         sandboxStatus(d.State),
		PlatformStatus: d.State,
		Labels:         maps.Clone(md),
		MadeWith:       platform.MarksOf(md),
		Managed:        md[platform.LabelManaged] == "true",
		CPUCount:       d.CPUCount,
		MemoryMB:       d.MemoryMB,
		CreatedAt:      d.StartedAt,
		StartedAt:      d.StartedAt,
	}
	if sb.Labels == nil {
		sb.Labels = map[string]string{}
	}
	if sb.FromSnapshotID != "" {
		sb.TemplateID = "" // the box was made from the snapshot, not a template
	}
	if d.State == "running" {
		// A paused box's endAt is when it was paused; only a running one has a deadline.
		sb.ExpiresAt = d.EndAt
	}
	if secs, err := strconv.ParseInt(md[labelTimeout], 10, 64); err == nil && secs > 0 {
		sb.Lifecycle.Timeout = time.Duration(secs) * time.Second
	}
	// Kill is E2B's default and what an unset on_timeout means, so only a
	// pause is reported: an import then matches a configuration without it.
	sb.Lifecycle.OnTimeout = onTimeoutOf(d)
	sb.Network = networkOf(d)
	sb.AutoResume = d.Lifecycle != nil && d.Lifecycle.AutoResume
	for _, m := range d.VolumeMounts {
		id := volumeIDs[m.Name]
		if id == "" {
			id = m.Name
		}
		sb.VolumeMounts = append(sb.VolumeMounts, platform.VolumeMount{VolumeID: id, Path: m.Path})
	}
	return sb
}

// onTimeoutOf is what the box does at its timeout: "" for E2B's default,
// kill; pause; or stop, a pause without memory, which E2B reports as a pause
// and the box's metadata records.
func onTimeoutOf(d sandboxDetail) platform.OnTimeoutAction {
	switch {
	case d.Lifecycle == nil || d.Lifecycle.OnTimeout != "pause":
		return ""
	case d.Metadata[labelOnTimeout] == string(platform.OnTimeoutStop):
		return platform.OnTimeoutStop
	}
	return platform.OnTimeoutPause
}
