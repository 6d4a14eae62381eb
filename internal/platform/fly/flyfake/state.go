package flyfake

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"time"
)

// Machine states (Fly docs machines/machine-states; fly-go machine_types.go).
const (
	StateCreated    = "created"
	StateStarting   = "starting"
	StateStarted    = "started"
	StateStopping   = "stopping"
	StateStopped    = "stopped"
	StateSuspending = "suspending"
	StateSuspended  = "suspended"
	StateDestroying = "destroying"
	StateDestroyed  = "destroyed"
)

// Volume states the fake uses. fly-go's GetVolumes hides
// scheduling_destroy, fork_cleanup, waiting_for_detach, pending_destroy and
// destroying (flaps/flaps_volumes.go); the API itself lists them.
const (
	VolumeCreated           = "created"
	VolumeScheduledDestroy  = "scheduling_destroy"
	VolumeDestroyed         = "destroyed"
	SnapshotWaiting         = "waiting"
	SnapshotRunning         = "running"
	SnapshotCreated         = "created"
	deletedVolumeVisibleFor = 24 * time.Hour
)

type app struct {
	seq       int64
	id        string
	name      string
	createdAt time.Time
}

// transition is a move through transitional states: each of stages is
// shown for Polls-1 reads of the machine (at least one), in order, and the
// read after the last finds to. The answer of the request that began it
// shows the machine's state as that request left it.
type transition struct {
	stages []string
	to     string
	reads  int
	done   func(now time.Time)
}

type event struct {
	Type      string `json:"type"`
	Status    string `json:"status"`
	Source    string `json:"source"`
	Timestamp int64  `json:"timestamp"`
}

type machine struct {
	seq        int64
	id         string
	app        string
	name       string
	region     string
	state      string
	tr         *transition
	instanceID string
	versions   []string
	privateIP  string
	config     map[string]any
	parsed     machineConfig
	createdAt  time.Time
	updatedAt  time.Time
	events     []event // oldest first; the API shows them newest first
	// suspendSnapshot says whether a suspended machine still has its memory
	// snapshot; false means the next start is a cold boot.
	suspendSnapshot bool
	// unlisted: created a moment ago, so the next list of the app's
	// machines that would show it omits it (see listMachines).
	unlisted       bool
	coldBoots      int
	resumes        int
	shownDestroyed bool
	gone           bool
}

type machineConfig struct {
	Image string `json:"image"`
	Guest *struct {
		CPUKind  string `json:"cpu_kind"`
		CPUs     int    `json:"cpus"`
		MemoryMB int    `json:"memory_mb"`
	} `json:"guest"`
	Env      map[string]string `json:"env"`
	Metadata map[string]string `json:"metadata"`
	Mounts   []struct {
		Volume string `json:"volume"`
		Path   string `json:"path"`
		Name   string `json:"name"`
	} `json:"mounts"`
}

func (m *machine) mount() (volumeID, path string) {
	if len(m.parsed.Mounts) == 0 {
		return "", ""
	}
	return m.parsed.Mounts[0].Volume, m.parsed.Mounts[0].Path
}

type volume struct {
	seq               int64
	id                string
	app               string
	name              string
	region            string
	zone              string
	state             string
	sizeGB            int
	encrypted         bool
	fstype            string
	snapshotRetention int
	autoBackup        bool
	attachedMachine   string
	restoredFrom      string
	createdAt         time.Time
	deletedAt         time.Time
	deletePolls       int
	nextAuto          time.Time
}

type snapshot struct {
	seq           int64
	id            string
	volumeID      string
	status        string
	polls         int
	sizeBytes     int
	volumeSizeGB  int
	digest        string
	retentionDays int
	createdAt     time.Time
	automatic     bool
}

func (sn *snapshot) expiresAt() time.Time {
	return sn.createdAt.Add(time.Duration(sn.retentionDays) * 24 * time.Hour)
}

func randHex(n int) string {
	b := make([]byte, (n+1)/2)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)[:n]
}

// newMachineID is a 14-hex-digit id, as Fly mints them.
func newMachineID() string { return randHex(14) }

// newInstanceID is a 26-character ULID-like id, as Fly's instance_id.
func newInstanceID() string { return "01" + strings.ToUpper(randHex(24)) }

func newVolumeID() string { return "vol_" + randHex(16) }

func newSnapshotID() string { return "vs_" + randHex(16) }

func (s *Server) nextSeq() int64 {
	s.seq++
	return s.seq
}

func (s *Server) addApp(name string, now time.Time) {
	s.apps[name] = &app{seq: s.nextSeq(), id: randHex(16), name: name, createdAt: now}
}

func (s *Server) knownRegion(r string) bool {
	for _, k := range s.opts.Regions {
		if k == r {
			return true
		}
	}
	return false
}

// poll counts one read of a machine in transition: each stage shows for
// Polls-1 reads (Polls 1: none), then the machine settles.
func (s *Server) poll(m *machine, now time.Time) {
	if m.tr == nil {
		return
	}
	m.tr.reads++
	per := s.opts.Polls - 1
	if m.tr.reads > per*len(m.tr.stages) {
		settle(m, now)
		return
	}
	m.state = m.tr.stages[(m.tr.reads-1)/per]
}

// begin puts a machine in transition: state is what the answer of the
// request shows; stages what the next reads show; to where it settles. In
// Options.Instant the machine settles at once, before the answer.
func (s *Server) begin(m *machine, now time.Time, state string, tr *transition) {
	m.state, m.tr = state, tr
	if s.opts.Instant {
		settle(m, now)
	}
}

// launching: a machine created without skip_launch that has not started
// yet; it reads "created" (then "starting") though it is not at rest.
func (m *machine) launching() bool {
	return m.tr != nil && m.tr.to == StateStarted && m.state == StateCreated
}

// settle finishes a machine's transition at once (GET .../wait for its
// target, out-of-band changes, Options.Instant).
func settle(m *machine, now time.Time) {
	tr := m.tr
	if tr == nil {
		return
	}
	m.tr = nil
	m.state = tr.to
	m.updatedAt = now
	if tr.done != nil {
		tr.done(now)
	}
}

func (m *machine) addEvent(typ, status, source string, now time.Time) {
	m.events = append(m.events, event{Type: typ, Status: status, Source: source, Timestamp: now.UnixMilli()})
}
