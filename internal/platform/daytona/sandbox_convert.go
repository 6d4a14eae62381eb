package daytona

import (
	"fmt"
	"maps"
	"net"
	"slices"
	"strings"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Daytona's sandbox states (SandboxState) and desired states.
const (
	dtStarted   = "started"
	dtStopped   = "stopped"
	dtPaused    = "paused"
	dtArchived  = "archived"
	dtError     = "error"
	dtBuildFail = "build_failed"
	dtDestroyed = "destroyed"
	dtSnapshot  = "snapshotting"
)

// kindSandbox is the LabelKind of the provider's boxes.
const kindSandbox = "sandbox"

// The states a box passes through on its way up or down; resizing,
// snapshotting and forking keep the state the box had, which its
// desiredState says.
var (
	upStates   = []string{"creating", "restoring", "starting", "pending_build", "building_snapshot", "pulling_snapshot", "resuming"}
	downStates = []string{"stopping", "pausing", "archiving", "destroying"}
)

// normalState maps a box's Daytona state to the normalized one.
func normalState(d sandboxAPI) platform.SandboxState {
	switch {
	case d.State == dtStarted:
		return platform.StateRunning
	case d.State == dtStopped:
		return platform.StateStopped
	case d.State == dtPaused:
		return platform.StatePaused
	case d.State == dtArchived:
		return platform.StateArchived
	case d.State == dtError || d.State == dtBuildFail:
		return platform.StateFailed
	case slices.Contains(upStates, d.State):
		return platform.StateStarting
	case slices.Contains(downStates, d.State):
		return platform.StateStopping
	case d.State == "resizing" || d.State == dtSnapshot || d.State == "forking":
		if d.DesiredState == dtStarted {
			return platform.StateStarting
		}
		return platform.StateStopping
	}
	return platform.StateUnknown
}

// settled reports whether a box is where the server is taking it: a
// resting state its desiredState agrees with, or a failure. A stopped box
// the server means to archive (auto-archive pending) is settled too: it
// may stay so for days.
func settled(d sandboxAPI) bool {
	switch d.State {
	case dtError, dtBuildFail, dtDestroyed:
		return true
	case dtStarted, dtStopped, dtPaused, dtArchived:
		return d.DesiredState == "" || d.DesiredState == d.State ||
			(d.State == dtStopped && d.DesiredState == dtArchived)
	}
	return false
}

// minutes turns a duration into Daytona's whole minutes.
func minutes(d time.Duration) int64 { return int64(d / time.Minute) }

func minutesPtr(d time.Duration) *int64 {
	if d == 0 {
		return nil
	}
	m := minutes(d)
	return &m
}

// wholeMinutes says whether d is a whole number of minutes.
func wholeMinutes(d time.Duration) bool { return d%time.Minute == 0 }

// The intervals a box gets when none is given (sandbox.entity.ts:210-222):
// what an unset attribute puts back in place.
const (
	defaultAutoStop    = 15
	defaultAutoArchive = 7 * 24 * 60
	noAutoDelete       = -1
)

// createBody is the CreateSandbox body of spec.
func (p *Platform) createBody(spec platform.SandboxSpec) (createSandbox, error) {
	body := createSandbox{Name: spec.Name, Snapshot: spec.TemplateID, Env: spec.Env, Target: p.target}
	if spec.Region != "" {
		body.Target = spec.Region // the box's own region wins over the provider's target
	}
	if body.Name == "" {
		// Every box is named, so a create sent twice cannot make two.
		body.Name = "sbx-" + spec.Marks.CreateToken
	}
	if spec.FromSnapshotID != "" {
		body.Snapshot = spec.FromSnapshotID
	}
	labels := make(map[string]string, len(spec.Labels)+5)
	maps.Copy(labels, spec.Labels)
	maps.Copy(labels, spec.Marks.Labels())
	labels[platform.LabelManaged] = "true"
	labels[platform.LabelKind] = kindSandbox
	if spec.Name != "" {
		labels[platform.LabelName] = spec.Name
	}
	if spec.FromSnapshotID != "" {
		labels[labelFromSnapshot] = spec.FromSnapshotID
	} else if spec.TemplateID != "" {
		labels[labelTemplate] = spec.TemplateID
	}
	body.Labels = labels
	lc := spec.Lifecycle
	for _, d := range []time.Duration{lc.IdleTimeout, lc.AutoArchiveAfter, lc.AutoDeleteAfter} {
		if !wholeMinutes(d) {
			return body, fmt.Errorf("%s is not a whole number of minutes: Daytona sets its intervals in minutes", d)
		}
	}
	body.AutoStopInterval = minutesPtr(lc.IdleTimeout)
	body.AutoArchiveInterval = minutesPtr(lc.AutoArchiveAfter)
	body.AutoDeleteInterval = minutesPtr(lc.AutoDeleteAfter)
	for _, m := range spec.VolumeMounts {
		if m.ReadOnly {
			return body, &platform.UnsupportedError{Platform: platformName, Capability: "read-only volume mounts"}
		}
		body.Volumes = append(body.Volumes, sandboxVolume{VolumeID: m.VolumeID, MountPath: m.Path, Subpath: m.Subpath})
	}
	if spec.Network != nil {
		ns, err := networkBody(*spec.Network)
		if err != nil {
			return body, err
		}
		if ns.NetworkBlockAll {
			body.NetworkBlockAll = &ns.NetworkBlockAll
		}
		if ns.NetworkAllowList != "" {
			body.NetworkAllowList = &ns.NetworkAllowList
		}
	}
	return body, nil
}

// labelFromSnapshot records the snapshot a box was made from: Daytona
// reports only the snapshot's name or id it was given.
const labelFromSnapshot = platform.LabelPrefix + "from-snapshot"

// labelTemplate records the template id a box was made from: Daytona
// reports the snapshot's name, which a box may have been given instead.
const labelTemplate = platform.LabelPrefix + "template"

// networkBody maps the network block to Daytona's settings: internet =
// false blocks everything (networkBlockAll) unless allow_out lists CIDR
// blocks, which become the only destinations (networkAllowList). Both
// fields are always sent, so an update clears what is no longer asked
// (sandbox.service.ts updateNetworkSettings).
func networkBody(n platform.Network) (networkSettings, error) {
	if len(n.DenyOut) > 0 {
		return networkSettings{}, &platform.UnsupportedError{Platform: platformName, Capability: "deny_out (Daytona filters by an allow list only)"}
	}
	for _, a := range n.AllowOut {
		if err := checkCIDR(a); err != nil {
			return networkSettings{}, err
		}
	}
	// A box that reaches the internet reaches what allow_out lists: the
	// list restricts nothing, and Daytona, which would take it as the only
	// destinations, is not given it.
	switch {
	case !n.InternetOff():
		return networkSettings{}, nil
	case len(n.AllowOut) == 0:
		return networkSettings{NetworkBlockAll: true}, nil
	}
	return networkSettings{NetworkAllowList: strings.Join(n.AllowOut, ",")}, nil
}

// checkCIDR accepts a CIDR block or an address (as a /32 or /128).
func checkCIDR(s string) error {
	if _, _, err := net.ParseCIDR(s); err == nil {
		return nil
	}
	if net.ParseIP(s) != nil {
		return nil
	}
	return fmt.Errorf("allow_out %q is not a CIDR block or an address: Daytona's allow list takes CIDR blocks only", s)
}

// sandboxFromAPI normalizes a box; volIDs is unused (mounts carry ids).
func sandboxFromAPI(d sandboxAPI) *platform.Sandbox {
	sb := &platform.Sandbox{
		ID: d.ID, Name: d.Labels[platform.LabelName], TemplateID: d.Snapshot,
		Status: normalState(d), PlatformStatus: d.State,
		Labels:    maps.Clone(d.Labels),
		CPUCount:  int64(d.CPU),
		MemoryMB:  int64(d.Memory * gib),
		DiskMB:    int64(d.Disk * gib),
		Env:       maps.Clone(d.Env),
		CreatedAt: d.CreatedAt.Time,
		Region:    d.Target,
		MadeWith:  platform.MarksOf(d.Labels),
		Managed:   d.Labels[platform.LabelManaged] == "true",
	}
	if d.Labels[platform.LabelManaged] != "true" {
		sb.Name = d.Name // a box made outside Terraform: its own name
	}
	if id := d.Labels[labelTemplate]; id != "" {
		sb.TemplateID = id
	}
	if sb.Labels == nil {
		sb.Labels = map[string]string{}
	}
	if sb.Env == nil {
		sb.Env = map[string]string{}
	}
	if from := d.Labels[labelFromSnapshot]; from != "" {
		sb.FromSnapshotID, sb.TemplateID = from, ""
	}
	if d.State == dtError || d.State == dtBuildFail {
		sb.PlatformStatus = d.State
	}
	for _, v := range d.Volumes {
		sb.VolumeMounts = append(sb.VolumeMounts, platform.VolumeMount{VolumeID: v.VolumeID, Path: v.MountPath, Subpath: v.Subpath})
	}
	// An interval at Daytona's default reads as unset (zero: the
	// platform's default applies), as a box made without it was asked.
	if v := d.AutoStopInterval; v != nil && int64(*v) != defaultAutoStop {
		sb.Lifecycle.IdleTimeout = time.Duration(*v) * time.Minute
	}
	if v := d.AutoArchiveInterval; v != nil && int64(*v) != defaultAutoArchive {
		sb.Lifecycle.AutoArchiveAfter = time.Duration(*v) * time.Minute
	}
	if v := d.AutoDeleteInterval; v != nil && *v >= 0 {
		sb.Lifecycle.AutoDeleteAfter = time.Duration(*v) * time.Minute
	}
	if d.NetworkBlockAll || d.NetworkAllowList != "" {
		off := false
		n := &platform.Network{Internet: &off}
		if d.NetworkAllowList != "" {
			for _, a := range strings.Split(d.NetworkAllowList, ",") {
				if a = strings.TrimSpace(a); a != "" {
					n.AllowOut = append(n.AllowOut, a)
				}
			}
		}
		sb.Network = n
	}
	if d.State == dtStarted || d.State == dtStopped || d.State == dtPaused || d.State == dtArchived {
		sb.StatusSince = d.UpdatedAt.Time
	}
	// Daytona reports no start time: a started box's last change is its start.
	if d.State == dtStarted {
		sb.StartedAt = d.UpdatedAt.Time
		// Daytona stops a started box idle for autoStopInterval minutes
		// after its last activity (0: never): the deadline it will act on.
		if v := d.AutoStopInterval; v != nil && *v > 0 && !d.LastActivityAt.IsZero() {
			sb.ExpiresAt = d.LastActivityAt.Add(time.Duration(*v) * time.Minute)
		}
	}
	return sb
}
