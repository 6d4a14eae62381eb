package e2bfake

import (
	"slices"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"
)

// SandboxView is a copy of one sandbox's state, for assertions.
type SandboxView struct {
	ID string
	// TemplateRef is the templateID the client sent; TemplateID is what it
	// resolved to (a template or snapshot template ID).
	TemplateRef string
	TemplateID  string
	State       string // "running" or "paused", as E2B reports it
	// Pausing says the box is still pausing (it shows as "paused").
	Pausing   bool
	StartedAt time.Time
	EndAt     time.Time
	// Timeout is the last timeout in seconds; TimeoutOmitted says the create
	// request left it out (E2B then uses 15 s, which a provider must avoid).
	Timeout         int
	TimeoutOmitted  bool
	AutoPause       bool
	AutoPauseMemory bool
	AutoResume      bool
	Metadata        map[string]string
	EnvVars         map[string]string
	VolumeMounts    []VolumeMountView
	// PauseCount counts pause requests; PausedWithMemory is the memory flag
	// of the last pause (by request, by timeout or out of band).
	PauseCount       int
	PausedWithMemory bool
	CPUCount         int
	MemoryMB         int
	// AllowInternetAccess is as the create or the last network update set
	// it (nil: never set); AllowOut and DenyOut are the egress rules.
	AllowInternetAccess *bool
	AllowOut, DenyOut   []string
	// NetworkUpdates counts the accepted PUT .../network requests.
	NetworkUpdates int
}

// VolumeMountView is one volume mounted into a sandbox, by volume name.
type VolumeMountView struct{ Name, Path string }

// TemplateView is a copy of one template (not a snapshot) and its builds.
type TemplateView struct {
	ID       string
	Name     string
	Names    []string
	Public   bool
	CPUCount int
	MemoryMB int
	Builds   []BuildView
	// Files maps uploaded build-file hashes to their size in bytes.
	Files map[string]int
	// Uploads counts the uploads received per files hash.
	Uploads map[string]int
	// LayerFiles lists, per files hash, the entries of the uploaded layer
	// (nil when it is no gzipped tar).
	LayerFiles map[string][]string
}

// BuildView is one template build.
type BuildView struct {
	ID           string
	Status       string
	Tags         []string
	CPUCount     int
	MemoryMB     int
	FromImage    string
	FromTemplate string
	Steps        []StepView
	StartCmd     string
	ReadyCmd     string
	Reason       string
}

// StepView is one build step as the client sent it.
type StepView struct {
	Type      string
	Args      []string
	FilesHash string
	Force     bool
}

// SnapshotView is one snapshot (a template made from a sandbox).
type SnapshotView struct {
	SnapshotID string
	TemplateID string
	Name       string
	Names      []string
	SandboxID  string
	CreatedAt  time.Time
	BuildCount int
}

// VolumeView is one volume.
type VolumeView struct {
	ID, Name, Token string
	CreatedAt       time.Time
}

// Sandboxes lists the sandboxes, oldest first. Timeouts due on the clock are
// applied first, as a request would.
func (s *Server) Sandboxes() []SandboxView {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire(s.clock.Now())
	all := fakeapi.Oldest(s.sandboxes, func(sb *sandbox) int64 { return sb.seq })
	out := make([]SandboxView, 0, len(all))
	for _, sb := range all {
		v := SandboxView{ID: sb.id, TemplateRef: sb.templateRef, TemplateID: sb.templateID, State: apiState(sb), Pausing: sb.state == statePausing,
			StartedAt: sb.startedAt, EndAt: sb.endAt, Timeout: sb.timeout, TimeoutOmitted: sb.timeoutOmitted,
			AutoPause: sb.autoPause, AutoPauseMemory: sb.autoPauseMemory, AutoResume: sb.autoResume,
			Metadata: copyMap(sb.metadata), EnvVars: copyMap(sb.envVars), PauseCount: sb.pauseCount,
			PausedWithMemory: sb.pauseMemory, CPUCount: sb.cpu, MemoryMB: sb.memMB}
		for _, m := range sb.volumeMounts {
			v.VolumeMounts = append(v.VolumeMounts, VolumeMountView(m))
		}
		if sb.allowInternetAccess != nil {
			internet := *sb.allowInternetAccess
			v.AllowInternetAccess = &internet
		}
		if sb.network != nil {
			v.AllowOut, v.DenyOut = append([]string(nil), sb.network.AllowOut...), append([]string(nil), sb.network.DenyOut...)
		}
		v.NetworkUpdates = sb.networkUpdates
		out = append(out, v)
	}
	return out
}

// Sandbox returns one sandbox and whether it exists.
func (s *Server) Sandbox(id string) (SandboxView, bool) {
	return fakeapi.First(s.Sandboxes(), func(v SandboxView) bool { return v.ID == id })
}

func (s *Server) sortedTemplates(snapshots bool) []*template {
	all := fakeapi.Oldest(s.templates, func(t *template) int64 { return t.seq })
	return slices.DeleteFunc(all, func(t *template) bool { return t.snapshot != snapshots })
}

// Templates lists the templates (snapshots excluded), oldest first.
func (s *Server) Templates() []TemplateView {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []TemplateView
	for _, t := range s.sortedTemplates(false) {
		v := TemplateView{ID: t.id, Name: t.name, Names: s.names(t), Public: t.public, CPUCount: t.cpu, MemoryMB: t.memMB, Files: map[string]int{}}
		for h, n := range t.files {
			v.Files[h] = n
		}
		v.Uploads, v.LayerFiles = map[string]int{}, map[string][]string{}
		for h, n := range t.uploads {
			v.Uploads[h] = n
		}
		for h, data := range t.layers {
			entries, _ := unpackLayer(data)
			v.LayerFiles[h] = entryNames(entries)
		}
		for _, b := range t.builds {
			bv := BuildView{ID: b.id, Status: b.status, Tags: append([]string(nil), b.tags...), CPUCount: b.cpu, MemoryMB: b.memMB,
				FromImage: b.fromImage, FromTemplate: b.fromTemplate, StartCmd: b.startCmd, ReadyCmd: b.readyCmd}
			if b.status == buildError {
				bv.Reason = b.failReason
			}
			for _, st := range b.steps {
				bv.Steps = append(bv.Steps, StepView{Type: st.Type, Args: append([]string(nil), st.Args...), FilesHash: st.FilesHash, Force: st.Force != nil && *st.Force})
			}
			v.Builds = append(v.Builds, bv)
		}
		out = append(out, v)
	}
	return out
}

// Snapshots lists the snapshots, oldest first.
func (s *Server) Snapshots() []SnapshotView {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []SnapshotView
	for _, t := range s.sortedTemplates(true) {
		out = append(out, SnapshotView{SnapshotID: s.snapshotID(t), TemplateID: t.id, Name: t.name, Names: s.snapshotInfo(t).Names,
			SandboxID: t.fromSandbox, CreatedAt: t.createdAt, BuildCount: len(t.builds)})
	}
	return out
}

// Volumes lists the volumes, oldest first.
func (s *Server) Volumes() []VolumeView {
	s.mu.Lock()
	defer s.mu.Unlock()
	all := fakeapi.Oldest(s.volumes, func(v *volume) int64 { return v.seq })
	out := make([]VolumeView, 0, len(all))
	for _, v := range all {
		out = append(out, VolumeView{ID: v.id, Name: v.name, Token: v.token, CreatedAt: v.createdAt})
	}
	return out
}
