package docker

import (
	"strings"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/mount"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

const (
	nanoCPUsPerCPU = 1_000_000_000
	bytesPerMB     = 1024 * 1024
)

// sandboxFromContainer reads a sandbox from an inspected container.
func sandboxFromContainer(c container.InspectResponse) *platform.Sandbox {
	var labels map[string]string
	if c.Config != nil {
		labels = c.Config.Labels
	}
	sb := &platform.Sandbox{
		ID:             c.ID,
		Name:           labels[platform.LabelName],
		TemplateID:     labels[labelTemplateID],
		FromSnapshotID: labels[labelFromSnapshotID],
		Labels:         userLabelsOf(labels),
		MadeWith:       platform.MarksOf(labels),
		Managed:        labels[platform.LabelManaged] == "true",
		CreatedAt:      parseEngineTime(c.Created),
	}
	if labels[platform.LabelKind] != kindSandbox && c.Config != nil {
		// Made by hand (docker run): the provider's labels it carries, if
		// any, are those of its image (a template's, a snapshot's), which
		// the engine copies into every container. They say nothing of the
		// box: its name is the container's, it starts from its image, and
		// every label that is not the provider's is the user's.
		sb.Name, sb.TemplateID, sb.FromSnapshotID = strings.TrimPrefix(c.Name, "/"), c.Config.Image, ""
		sb.Labels, sb.MadeWith, sb.Managed = platform.UserLabels(labels), platform.Marks{}, false
	}
	if c.State != nil {
		sb.Status = normalizeStatus(c.State)
		sb.PlatformStatus = c.State.Status
		sb.StartedAt = parseEngineTime(c.State.StartedAt)
		sb.StatusSince = statusSince(c.State, sb.Status, sb.CreatedAt)
	} else {
		sb.Status = platform.StateUnknown
	}
	if hc := c.HostConfig; hc != nil {
		if hc.NetworkMode == networkNone {
			off := false
			sb.Network = &platform.Network{Internet: &off}
		}
		sb.CPUCount = (hc.NanoCPUs + nanoCPUsPerCPU/2) / nanoCPUsPerCPU
		sb.MemoryMB = hc.Memory / bytesPerMB
		for _, m := range hc.Mounts {
			if m.Type == mount.TypeVolume {
				sb.VolumeMounts = append(sb.VolumeMounts, platform.VolumeMount{VolumeID: m.Source, Path: m.Target, ReadOnly: m.ReadOnly})
			}
		}
	}
	if len(sb.VolumeMounts) == 0 {
		// A container made with -v (not by the provider) lists its volumes
		// only among its mount points.
		for _, m := range c.Mounts {
			if m.Type == mount.TypeVolume {
				sb.VolumeMounts = append(sb.VolumeMounts, platform.VolumeMount{VolumeID: m.Name, Path: m.Destination, ReadOnly: !m.RW})
			}
		}
	}
	return sb
}

// containerOwnEnv is the environment a container was given: its variables
// minus those identical to its image's (the engine copies the image's env
// into every container). A variable the container overrides is kept.
func containerOwnEnv(ctrEnv, imageEnv []string) map[string]string {
	inherited := make(map[string]bool, len(imageEnv))
	for _, kv := range imageEnv {
		inherited[kv] = true
	}
	out := map[string]string{}
	for _, kv := range ctrEnv {
		if inherited[kv] {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		out[k] = v
	}
	return out
}

// parseEngineTime reads an engine timestamp; the engine's "never" (year 1)
// and anything unreadable are the zero time.
func parseEngineTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil || t.Year() <= 1 {
		return time.Time{}
	}
	return t
}

// statusSince is when the container entered its current status, where the
// engine records it: a running box since it started, an exited one since it
// finished, a never-started one since it was created. The engine keeps no
// time for a pause, so a paused box reports none and the provider records
// when it first saw the pause.
func statusSince(st *container.State, status platform.SandboxState, created time.Time) time.Time {
	switch {
	case status == platform.StateRunning:
		return parseEngineTime(st.StartedAt)
	case status == platform.StateStopped && st.Status == container.StateCreated:
		return created
	case status == platform.StateStopped:
		return parseEngineTime(st.FinishedAt)
	}
	return time.Time{}
}
