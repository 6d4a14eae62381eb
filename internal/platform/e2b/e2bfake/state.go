package e2bfake

import (
	"crypto/rand"
	"strings"
	"time"
)

const (
	stateRunning = "running"
	statePaused  = "paused"

	buildWaiting  = "waiting"
	buildBuilding = "building"
	buildReady    = "ready"
	buildError    = "error"

	defaultTag     = "default"
	defaultCPU     = 2
	defaultMemMB   = 512
	defaultDiskMB  = 1024
	envdVersion    = "0.5.7"
	fakeClientID   = "6532622b"
	defaultTimeout = 15 // seconds; NewSandbox.timeout default in the spec
)

type sandbox struct {
	seq             int64
	id              string
	templateRef     string // as the client sent it
	templateID      string // resolved template (or snapshot template) ID
	alias           string
	state           string
	startedAt       time.Time
	endAt           time.Time
	timeout         int
	timeoutOmitted  bool
	autoPause       bool
	autoPauseMemory bool
	autoResume      bool
	metadata        map[string]string
	envVars         map[string]string
	volumeMounts    []volumeMount
	// The egress settings: allowInternetAccess as the create (or a network
	// update) set it, nil when never set; network nil when never given.
	allowInternetAccess *bool
	network             *networkJSON
	networkUpdates      int
	cpu, memMB          int
	envdToken           string
	pauseCount          int
	pauseMemory         bool
	pausingReads        int       // reads left before a pausing box settles (pausing.go)
	listedFrom          time.Time // hidden from lists before (Options.ListLag)
}

type volumeMount struct {
	Name string `json:"name"`
	Path string `json:"path"`
}

type template struct {
	seq           int64
	id            string
	name          string // bare name, "" for unnamed snapshots
	public        bool
	cpu, memMB    int
	createdAt     time.Time
	updatedAt     time.Time
	lastSpawnedAt *time.Time
	spawnCount    int64
	builds        []*build
	files         map[string]int    // uploaded build-file hashes and their sizes
	layers        map[string][]byte // uploaded layer bytes by files hash, as stored
	uploads       map[string]int    // uploads received per files hash
	snapshot      bool
	fromSandbox   string    // snapshot source sandbox
	listedFrom    time.Time // hidden from lists before (Options.ListLag)
}

type build struct {
	id           string
	status       string
	tags         []string
	cpu, memMB   int
	createdAt    time.Time
	updatedAt    time.Time
	finishedAt   *time.Time
	polls        int
	fromImage    string
	fromTemplate string
	steps        []step
	startCmd     string
	readyCmd     string
	failReason   string
	failStep     string
	logs         []logEntry
}

type step struct {
	Type      string   `json:"type"`
	Args      []string `json:"args,omitempty"`
	FilesHash string   `json:"filesHash,omitempty"`
	Force     *bool    `json:"force,omitempty"`
}

type logEntry struct {
	Timestamp time.Time `json:"timestamp"`
	Message   string    `json:"message"`
	Level     string    `json:"level"`
	Step      string    `json:"step,omitempty"`
}

type volume struct {
	seq        int64
	id         string
	name       string
	token      string
	createdAt  time.Time
	listedFrom time.Time // hidden from lists before (Options.ListLag)
}

// listedFrom is when an object created at now first shows in list
// endpoints: Options.ListLag later. Without a lag it is always listed, even
// when a test sets the clock back before its create.
func (s *Server) listedFrom(now time.Time) time.Time {
	if s.opts.ListLag <= 0 {
		return time.Time{}
	}
	return now.Add(s.opts.ListLag)
}

// listed reports whether an object that shows in lists from from is listed at now.
func listed(from, now time.Time) bool { return !now.Before(from) }

func (s *Server) nextSeq() int64 {
	s.seq++
	return s.seq
}

// randomID is lower-case alphanumeric, like E2B's sandbox and template IDs.
func randomID(n int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// fullName is a template's name as E2B shows it: namespaced when the team has a slug.
func (s *Server) fullName(name string) string {
	if name == "" {
		return ""
	}
	if s.opts.TeamSlug != "" {
		return s.opts.TeamSlug + "/" + name
	}
	return name
}

func (s *Server) names(t *template) []string {
	if t.name == "" {
		return []string{}
	}
	return []string{s.fullName(t.name)}
}

// snapshotID follows the spec: namespace/alias:default when the snapshot was
// named, else the raw template ID with the tag.
func (s *Server) snapshotID(t *template) string {
	if t.name != "" {
		return s.fullName(t.name) + ":" + defaultTag
	}
	return t.id + ":" + defaultTag
}

// splitRef parses "[namespace/]name-or-id[:tag]".
func (s *Server) splitRef(ref string) (nameOrID, tag string, ok bool) {
	nameOrID = ref
	if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		nameOrID, tag = ref[:i], ref[i+1:]
	}
	if ns, rest, found := strings.Cut(nameOrID, "/"); found {
		if s.opts.TeamSlug == "" || ns != s.opts.TeamSlug {
			return "", "", false
		}
		nameOrID = rest
	}
	return nameOrID, tag, nameOrID != ""
}

// findTemplate resolves a template or snapshot by ID or name, either
// optionally namespaced and tag-qualified.
func (s *Server) findTemplate(ref string) (*template, string) {
	key, tag, ok := s.splitRef(ref)
	if !ok {
		return nil, ""
	}
	if t, found := s.templates[key]; found {
		return t, tag
	}
	for _, t := range s.templates {
		if t.name != "" && t.name == key {
			return t, tag
		}
	}
	return nil, ""
}

func (s *Server) templateByName(name string) *template {
	for _, t := range s.templates {
		if t.name == name {
			return t
		}
	}
	return nil
}

// readyBuild is the newest ready build, or the one carrying tag.
func (t *template) readyBuild(tag string) *build {
	for i := len(t.builds) - 1; i >= 0; i-- {
		b := t.builds[i]
		if b.status != buildReady {
			continue
		}
		if tag == "" || contains(b.tags, tag) {
			return b
		}
	}
	return nil
}

func (t *template) latestBuild() *build {
	if len(t.builds) == 0 {
		return nil
	}
	return t.builds[len(t.builds)-1]
}

func (t *template) findBuild(id string) *build {
	for _, b := range t.builds {
		if b.id == id {
			return b
		}
	}
	return nil
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// expire does what E2B's reaper does once a running sandbox's end time has
// passed: pause it when it was created with autoPause, else kill it.
func (s *Server) expire(now time.Time) {
	for id, sb := range s.sandboxes {
		if sb.state != stateRunning || sb.endAt.After(now) {
			continue
		}
		if sb.autoPause {
			s.beginPause(sb, sb.autoPauseMemory)
			continue
		}
		delete(s.sandboxes, id)
	}
}

func (s *Server) volumeByName(name string) *volume {
	for _, v := range s.volumes {
		if v.name == name {
			return v
		}
	}
	return nil
}
