package modalfake

import (
	"maps"
	"sort"
	"time"
)

// SandboxView is a sandbox as the fake holds it.
type SandboxView struct {
	ID, AppID, Name, ImageID string
	Tags                     map[string]string
	// Env is the environment the sandbox got: V1 ephemeral secrets or V2
	// secret_sources (and ephemeral_secrets), resolved in order.
	Env map[string]string
	// MilliCPU and MemoryMB are as requested; 0 means Modal's default.
	MilliCPU, MemoryMB uint32
	TimeoutSecs        uint32
	IdleTimeoutSecs    uint32 // 0: none
	EnableSnapshot     bool
	Mounts             []MountView
	V2                 bool
	Finished           bool
	// Status is the GenericResult status name (e.g.
	// "GENERIC_STATUS_TIMEOUT"), "" while running.
	Status string
	// ExitCode is what the SDK reports: 124 after a timeout, 137 after a
	// termination, else the result's exit code.
	ExitCode     int
	CreatedAt    time.Time
	RestoredFrom string // memory snapshot id
}

// MountView is one volume mount of a sandbox.
type MountView struct {
	VolumeID, Path string
	ReadOnly       bool
	SubPath        string
}

// VolumeView is a volume as the fake holds it.
type VolumeView struct {
	ID, Name  string
	Version   int // VolumeFS version, 1 or 2
	CreatedAt time.Time
}

// ImageView is an image as the fake holds it.
type ImageView struct {
	ID string
	// DockerfileCommands are the layer's commands as sent ("FROM ..." or
	// "FROM base" first); a filesystem snapshot has those of the sandbox's
	// image.
	DockerfileCommands []string
	BaseImageID        string
	Status             string // "building", "ready" or "failed"
	Exception          string
	TTL                time.Duration // 0: none
	FromSandboxID      string        // set for filesystem snapshots
	ExpiresAt          time.Time     // zero: never
}

// MemorySnapshotView is a memory snapshot as the fake holds it.
type MemorySnapshotView struct {
	ID, SandboxID string
	CreatedAt     time.Time
	V2            bool
}

func (sb *sandbox) view() SandboxView {
	v := SandboxView{
		ID: sb.id, AppID: sb.appID, Name: sb.name, ImageID: sb.imageID,
		Tags: maps.Clone(sb.tags), Env: maps.Clone(sb.env),
		MilliCPU: sb.milliCPU, MemoryMB: sb.memoryMB,
		TimeoutSecs: sb.timeoutSecs, IdleTimeoutSecs: sb.idleTimeoutSecs,
		EnableSnapshot: sb.enableSnapshot,
		Mounts:         append([]MountView(nil), sb.mounts...),
		V2:             sb.v2, Finished: sb.finished,
		CreatedAt: sb.createdAt, RestoredFrom: sb.restoredFrom,
	}
	if sb.finished {
		v.Status = sb.result.GetStatus().String()
		v.ExitCode = exitCode(sb.result)
	}
	return v
}

// Sandbox is the sandbox of an id, running or finished.
func (w *Workspace) Sandbox(id string) (SandboxView, bool) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	sb, ok := w.sandboxes[id]
	if !ok {
		return SandboxView{}, false
	}
	return sb.view(), true
}

// Sandboxes are all sandboxes of the workspace, oldest first.
func (w *Workspace) Sandboxes() []SandboxView {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	all := make([]*sandbox, 0, len(w.sandboxes))
	for _, sb := range w.sandboxes {
		all = append(all, sb)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].stamp < all[j].stamp })
	out := make([]SandboxView, 0, len(all))
	for _, sb := range all {
		out = append(out, sb.view())
	}
	return out
}

// Volume is the volume of a name.
func (w *Workspace) Volume(name string) (VolumeView, bool) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	v := w.volumeByName(name)
	if v == nil {
		return VolumeView{}, false
	}
	return VolumeView{ID: v.id, Name: v.name, Version: int(v.version), CreatedAt: v.createdAt}, true
}

// Volumes are all volumes of the workspace, by name: what Modal's
// VolumeList answers for the (one, default) environment.
func (w *Workspace) Volumes() []VolumeView {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	out := make([]VolumeView, 0, len(w.volumes))
	for _, v := range w.volumes {
		out = append(out, VolumeView{ID: v.id, Name: v.name, Version: int(v.version), CreatedAt: v.createdAt})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Image is the image of an id.
func (w *Workspace) Image(id string) (ImageView, bool) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	img, ok := w.images[id]
	if !ok {
		return ImageView{}, false
	}
	return ImageView{
		ID: img.id, DockerfileCommands: append([]string(nil), img.commands...),
		BaseImageID: img.baseImageID, Status: img.status, Exception: img.exception,
		TTL: img.ttl, FromSandboxID: img.fromSandbox, ExpiresAt: img.expiresAt,
	}, true
}

// MemorySnapshot is the memory snapshot of an id.
func (w *Workspace) MemorySnapshot(id string) (MemorySnapshotView, bool) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	sn, ok := w.memSnaps[id]
	if !ok {
		return MemorySnapshotView{}, false
	}
	return MemorySnapshotView{ID: sn.id, SandboxID: sn.sandboxID, CreatedAt: sn.createdAt, V2: sn.v2}, true
}

// ExecView is a command exec'd in a sandbox (exec.go).
type ExecView struct {
	SandboxID, ExecID string
	Command           []string
	// Env is what the exec added to the sandbox's environment (secret_ids,
	// env, secret_sources), not the sandbox's own.
	Env         map[string]string
	Workdir     string // as sent; "" for none
	TimeoutSecs uint32 // 0: none
	Done        bool
	// ExitCode is what the SDK reports: the code, or 128+signal.
	ExitCode int
	Signal   int // > 0: killed by it
	Stdout   []byte
	Stderr   []byte
}

// Execs are the commands exec'd in a sandbox, oldest first.
func (w *Workspace) Execs(sandboxID string) []ExecView {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	var out []ExecView
	for _, p := range w.execOrder {
		if p.sandboxID != sandboxID {
			continue
		}
		v := ExecView{
			SandboxID: p.sandboxID, ExecID: p.id, Command: append([]string(nil), p.argv...),
			Env: maps.Clone(p.env), Workdir: p.workdir, TimeoutSecs: p.timeoutSecs, Done: p.done,
			Stdout: append([]byte(nil), p.stdout...), Stderr: append([]byte(nil), p.stderr...),
		}
		if p.done {
			v.ExitCode, v.Signal = int(p.code), int(p.signal)
			if p.signal > 0 {
				v.ExitCode = 128 + int(p.signal)
			}
		}
		out = append(out, v)
	}
	return out
}
