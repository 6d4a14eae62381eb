package flyfake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The messages of the refusals below are the fake's own wording unless a
// comment names a source: Fly documents the rules (docs machines-resource,
// volumes) but not every message.

func (s *Server) appFor(c *call) (*app, reply, bool) {
	a, found := s.apps[c.params["app_name"]]
	if !found {
		return nil, errorReply(http.StatusNotFound, "app not found"), false
	}
	return a, reply{}, true
}

// machineFor finds a machine of the call's app that a client can still see.
func (s *Server) machineFor(c *call) (*machine, reply, bool) {
	if _, rep, found := s.appFor(c); !found {
		return nil, rep, false
	}
	m, found := s.machines[c.params["machine_id"]]
	if !found || m.gone || m.app != c.params["app_name"] {
		return nil, errorReply(http.StatusNotFound, "machine not found"), false
	}
	return m, reply{}, true
}

// machineBody is CreateMachineRequest / UpdateMachineRequest (spec), the
// fields the fake uses.
type machineBody struct {
	Name       string          `json:"name"`
	Region     string          `json:"region"`
	SkipLaunch bool            `json:"skip_launch"`
	Config     json.RawMessage `json:"config"`
}

// parseConfig reads and checks a full machine config: image required,
// guest sizes as Fly sells them, at most one mount of an existing volume of
// the machine's region not attached elsewhere. self is the machine being
// updated ("" on create).
func (s *Server) parseConfig(raw json.RawMessage, appName, region, self string) (map[string]any, machineConfig, reply, bool) {
	var cfg map[string]any
	var parsed machineConfig
	if len(raw) == 0 || string(raw) == "null" {
		return nil, parsed, errorReply(http.StatusBadRequest, "config is required"), false
	}
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return nil, parsed, errorReply(http.StatusBadRequest, "invalid config: %v", err), false
	}
	if err := json.Unmarshal(raw, &parsed); err != nil {
		return nil, parsed, errorReply(http.StatusBadRequest, "invalid config: %v", err), false
	}
	if strings.TrimSpace(parsed.Image) == "" {
		return nil, parsed, errorReply(http.StatusBadRequest, "invalid config.image, image is required"), false
	}
	if parsed.Guest == nil {
		// Fly's default size, shared-cpu-1x with 256 MB (fly-go DefaultVMSize).
		cfg["guest"] = map[string]any{"cpu_kind": "shared", "cpus": 1, "memory_mb": 256}
		_ = json.Unmarshal([]byte(`{"guest":{"cpu_kind":"shared","cpus":1,"memory_mb":256}}`), &parsed)
	}
	g := parsed.Guest
	if g.CPUKind == "" {
		g.CPUKind = "shared"
	}
	if g.CPUs == 0 {
		g.CPUs = 1
	}
	if g.MemoryMB == 0 {
		g.MemoryMB = 256 * g.CPUs
		if g.CPUKind == "performance" {
			g.MemoryMB = 2048 * g.CPUs
		}
	}
	if rep, valid := checkGuest(g.CPUKind, g.CPUs, g.MemoryMB); !valid {
		return nil, parsed, rep, false
	}
	cfg["guest"] = map[string]any{"cpu_kind": g.CPUKind, "cpus": g.CPUs, "memory_mb": g.MemoryMB}
	if len(parsed.Mounts) > 1 {
		return nil, parsed, errorReply(http.StatusBadRequest, "a machine can only mount one volume, got %d mounts", len(parsed.Mounts)), false
	}
	if len(parsed.Mounts) == 1 {
		mt := parsed.Mounts[0]
		if mt.Path == "" {
			return nil, parsed, errorReply(http.StatusBadRequest, "mount of volume %s needs a path", mt.Volume), false
		}
		v, found := s.volumes[mt.Volume]
		if !found || v.app != appName || v.state != VolumeCreated {
			return nil, parsed, errorReply(http.StatusNotFound, "volume %s not found", mt.Volume), false
		}
		if v.region != region {
			return nil, parsed, errorReply(http.StatusBadRequest, "volume %s is in region %s, not the machine's region %s", v.id, v.region, region), false
		}
		if v.attachedMachine != "" && v.attachedMachine != self {
			return nil, parsed, errorReply(http.StatusBadRequest, "volume %s is already attached to machine %s", v.id, v.attachedMachine), false
		}
		if mounts, isList := cfg["mounts"].([]any); isList {
			if m0, isObj := mounts[0].(map[string]any); isObj {
				if _, named := m0["name"]; !named {
					m0["name"] = v.name
				}
				m0["size_gb"] = v.sizeGB
				m0["encrypted"] = v.encrypted
			}
		}
	}
	return cfg, parsed, reply{}, true
}

// checkGuest holds a guest to Fly's sizes: shared CPUs with 256 MB to 2 GB
// per CPU, performance CPUs with 2 to 8 GB per CPU, in steps of 256 MB
// (Fly docs, machine sizing).
func checkGuest(kind string, cpus, memoryMB int) (reply, bool) {
	perCPUMin, perCPUMax := 256, 2048
	switch kind {
	case "shared":
	case "performance":
		perCPUMin, perCPUMax = 2048, 8192
	default:
		return errorReply(http.StatusBadRequest, "invalid cpu_kind %q, must be shared or performance", kind), false
	}
	switch cpus {
	case 1, 2, 4, 8, 16:
	default:
		return errorReply(http.StatusBadRequest, "invalid number of cpus %d for %s cpu_kind", cpus, kind), false
	}
	if memoryMB%256 != 0 || memoryMB < perCPUMin*cpus || memoryMB > perCPUMax*cpus {
		return errorReply(http.StatusBadRequest, "invalid memory size %d MB for %d %s cpu(s): must be a multiple of 256 between %d and %d", memoryMB, cpus, kind, perCPUMin*cpus, perCPUMax*cpus), false
	}
	return reply{}, true
}

var machineNameRE = regexp.MustCompile(`^[a-z0-9-]{1,63}$`)

func (s *Server) createMachine(c *call) reply {
	a, rep, found := s.appFor(c)
	if !found {
		return rep
	}
	var body machineBody
	if err := json.Unmarshal(c.body, &body); err != nil {
		return errorReply(http.StatusBadRequest, "invalid request body: %v", err)
	}
	region := body.Region
	if region == "" {
		region = s.opts.DefaultRegion
	}
	if !s.knownRegion(region) {
		return errorReply(http.StatusBadRequest, "region %q not found", region)
	}
	name := body.Name
	if name == "" {
		name = "machine-" + randHex(8)
	}
	if !machineNameRE.MatchString(name) {
		return errorReply(http.StatusBadRequest, "invalid machine name %q", name)
	}
	for _, other := range s.machines {
		if other.app == a.name && other.name == name && !other.gone && other.state != StateDestroyed {
			return errorReply(http.StatusConflict, "a machine named %q already exists in app %s", name, a.name)
		}
	}
	cfg, parsed, rep, valid := s.parseConfig(body.Config, a.name, region, "")
	if !valid {
		return rep
	}
	m := &machine{
		seq: s.nextSeq(), id: newMachineID(), app: a.name, name: name, region: region,
		state: StateCreated, instanceID: newInstanceID(), privateIP: "fdaa:0:1:a7b:" + randHex(4) + "::" + randHex(1),
		config: cfg, parsed: parsed, createdAt: c.now, updatedAt: c.now,
	}
	m.versions = []string{m.instanceID}
	m.addEvent("launch", "created", "user", c.now)
	if vid, _ := m.mount(); vid != "" {
		s.volumes[vid].attachedMachine = m.id
	}
	// A create without skip_launch launches the machine and answers before
	// it runs: it reads "created" while it launches, then "starting", then
	// "started" (Fly docs machines/machine-states: created is the initial
	// state, starting transient; flyctl waits for the launch with
	// WaitForStartOrStop, internal/machine/wait.go, through fly-go's Wait,
	// flaps/flaps_machines_wait.go). With skip_launch it stays "created",
	// at rest, until started.
	if !body.SkipLaunch {
		s.begin(m, c.now, StateCreated, &transition{stages: []string{StateCreated, StateStarting}, to: StateStarted, done: func(now time.Time) {
			m.addEvent("start", "started", "flyd", now)
		}})
	}
	// A machine created a moment ago may be missing from the next list
	// (see listMachines).
	m.unlisted = !s.opts.Instant
	s.machines[m.id] = m
	s.creates++
	return reply{status: http.StatusOK, body: machineJSON(m)}
}

func (s *Server) getMachine(c *call) reply {
	m, rep, found := s.machineFor(c)
	if !found {
		return rep
	}
	s.poll(m, c.now)
	if m.state == StateDestroyed && m.tr == nil {
		if m.shownDestroyed {
			m.gone = true
			return errorReply(http.StatusNotFound, "machine not found")
		}
		m.shownDestroyed = true
	}
	return reply{status: http.StatusOK, body: machineJSON(m)}
}

func (s *Server) listMachines(c *call) reply {
	a, rep, found := s.appFor(c)
	if !found {
		return rep
	}
	includeDeleted := c.query.Get("include_deleted") == "true"
	region := c.query.Get("region")
	out := []map[string]any{}
	for _, m := range s.sortedMachines() {
		if m.app != a.name {
			continue
		}
		if m.unlisted {
			// A list may lag a create for a moment: the first list of
			// the app after it omits the machine, whatever its filters.
			// Fly documents no read-after-write guarantee for lists; the
			// fake models the lag by reads so that a client that finds
			// its machine by listing (a lost create) must look again.
			m.unlisted = false
			continue
		}
		if !includeDeleted && (m.gone || m.state == StateDestroyed) {
			continue
		}
		if region != "" && m.region != region {
			continue
		}
		if !matchesMetadata(m, c.query) {
			continue
		}
		out = append(out, machineJSON(m))
	}
	return reply{status: http.StatusOK, body: out}
}

// matchesMetadata applies the list's metadata.{key}=value filters (Fly docs
// machines-resource, "List Machines").
func matchesMetadata(m *machine, q map[string][]string) bool {
	for k, vs := range q {
		key, isMeta := strings.CutPrefix(k, "metadata.")
		if !isMeta {
			continue
		}
		for _, v := range vs {
			if m.parsed.Metadata[key] != v {
				return false
			}
		}
	}
	return true
}

func (s *Server) updateMachine(c *call) reply {
	m, rep, found := s.machineFor(c)
	if !found {
		return rep
	}
	if m.state == StateDestroyed || m.state == StateDestroying {
		return errorReply(http.StatusPreconditionFailed, "failed_precondition: machine %s is %s", m.id, m.state)
	}
	if m.tr != nil {
		// A machine between states (launching, starting, stopping,
		// suspending, being updated) is refused an update until it settles
		// (the fake's wording; Fly's docs list updating as its own
		// transient state and give no answer for an update during
		// another transition; flyctl waits for a machine to settle
		// before it updates one).
		return errorReply(http.StatusPreconditionFailed, "failed_precondition: unable to update machine from current state: '%s'", m.state)
	}
	var body machineBody
	if err := json.Unmarshal(c.body, &body); err != nil {
		return errorReply(http.StatusBadRequest, "invalid request body: %v", err)
	}
	if body.Region != "" && body.Region != m.region {
		return errorReply(http.StatusBadRequest, "a machine's region cannot change (%s)", m.region)
	}
	cfg, parsed, rep, valid := s.parseConfig(body.Config, m.app, m.region, m.id)
	if !valid {
		return rep
	}
	oldVol, _ := m.mount()
	newVol := ""
	if len(parsed.Mounts) == 1 {
		newVol = parsed.Mounts[0].Volume
	}
	// Fly docs machines-resource: a machine's volume cannot be changed by an
	// update; destroy the machine and create a new one.
	if oldVol != "" && newVol != oldVol {
		return errorReply(http.StatusBadRequest, "cannot change the volume mounted by machine %s (%s): destroy the machine and create a new one", m.id, oldVol)
	}
	if newVol != "" {
		s.volumes[newVol].attachedMachine = m.id
	}
	m.config, m.parsed = cfg, parsed
	m.instanceID = newInstanceID()
	m.versions = append(m.versions, m.instanceID)
	m.updatedAt = c.now
	m.suspendSnapshot = false // an update replaces the suspended instance
	m.addEvent("update", "completed", "user", c.now)
	if body.SkipLaunch && m.state != StateStarted {
		m.state = StateStopped
		return reply{status: http.StatusOK, body: machineJSON(m)}
	}
	// Fly docs machines/machine-states: updating, then the new version
	// starts.
	s.begin(m, c.now, "updating", &transition{stages: []string{"updating", StateStarting}, to: StateStarted, done: func(now time.Time) {
		m.addEvent("start", "started", "flyd", now)
	}})
	return reply{status: http.StatusOK, body: machineJSON(m)}
}

func (s *Server) startMachine(c *call) reply {
	m, rep, found := s.machineFor(c)
	if !found {
		return rep
	}
	prev := m.state
	switch {
	case m.launching() || prev == StateStarting || prev == StateStarted || prev == "updating":
		// Fly refuses to start a machine that is launching, starting or
		// running, with this wording (412 "failed_precondition: machine
		// still active, refusing to start", error code PM07, as Fly's
		// answers are quoted in public deploy logs and runbooks, e.g.
		// community reports of POST .../start right after a create).
		return errorReply(http.StatusPreconditionFailed, "failed_precondition: machine still active, refusing to start")
	case m.tr == nil && (prev == StateStopped || prev == StateSuspended || prev == StateCreated):
	default:
		// stopping, suspending, destroying: Fly's "unable to start machine
		// from current state" (quoted in the same reports for a machine
		// being replaced).
		return errorReply(http.StatusPreconditionFailed, "failed_precondition: unable to start machine from current state: '%s'", prev)
	}
	resume := prev == StateSuspended && m.suspendSnapshot
	if prev == StateSuspended && !resume {
		m.coldBoots++
	}
	m.suspendSnapshot = false
	s.begin(m, c.now, StateStarting, &transition{stages: []string{StateStarting}, to: StateStarted, done: func(now time.Time) {
		if resume {
			m.resumes++
			m.addEvent("start", "resumed", "user", now)
			return
		}
		m.addEvent("start", "started", "user", now)
	}})
	// fly-go machine_types.go MachineStartResponse.
	return reply{status: http.StatusOK, body: map[string]string{"previous_state": prev}}
}

func (s *Server) stopMachine(c *call) reply {
	m, rep, found := s.machineFor(c)
	if !found {
		return rep
	}
	// Only a settled started or suspended machine stops; one between
	// states is refused until it settles (the fake's wording).
	if m.tr != nil || (m.state != StateStarted && m.state != StateSuspended) {
		return errorReply(http.StatusPreconditionFailed, "failed_precondition: unable to stop machine, current state is '%s'", m.state)
	}
	m.suspendSnapshot = false
	s.begin(m, c.now, StateStopping, &transition{stages: []string{StateStopping}, to: StateStopped, done: func(now time.Time) {
		m.addEvent("exit", "stopped", "user", now)
	}})
	return reply{status: http.StatusOK, body: ok}
}

func (s *Server) suspendMachine(c *call) reply {
	m, rep, found := s.machineFor(c)
	if !found {
		return rep
	}
	// Fly suspends only a started machine (docs reference/suspend-resume).
	if m.tr != nil || m.state != StateStarted {
		return errorReply(http.StatusPreconditionFailed, "failed_precondition: unable to suspend machine, current state is '%s'", m.state)
	}
	s.begin(m, c.now, StateSuspending, &transition{stages: []string{StateSuspending}, to: StateSuspended, done: func(now time.Time) {
		m.suspendSnapshot = !s.opts.LoseSuspendSnapshots
		m.addEvent("suspend", "suspended", "user", now)
	}})
	return reply{status: http.StatusOK, body: ok}
}

func (s *Server) deleteMachine(c *call) reply {
	m, rep, found := s.machineFor(c)
	if !found {
		return rep
	}
	switch {
	case m.state == StateDestroyed:
		return errorReply(http.StatusNotFound, "machine not found")
	case m.tr == nil && (m.state == StateStopped || m.state == StateSuspended || m.state == StateCreated):
	default:
		// A machine running or between states (a launching one too) is
		// destroyed only by force: the running VM is killed.
		// docs: ?force=true; fly-go: ?kill=true (flaps_machines.go Destroy).
		if c.query.Get("force") != "true" && c.query.Get("kill") != "true" {
			return errorReply(http.StatusPreconditionFailed, "failed_precondition: unable to destroy machine, not currently stopped or suspended (use force=true)")
		}
	}
	s.beginDestroy(m, c.now)
	return reply{status: http.StatusOK, body: ok}
}

// beginDestroy moves a machine to destroying; its volume is freed once it is
// destroyed.
func (s *Server) beginDestroy(m *machine, now time.Time) {
	s.begin(m, now, StateDestroying, &transition{stages: []string{StateDestroying}, to: StateDestroyed, done: func(now time.Time) {
		m.addEvent("destroy", "destroyed", "user", now)
		if vid, _ := m.mount(); vid != "" {
			if v := s.volumes[vid]; v != nil && v.attachedMachine == m.id {
				v.attachedMachine = ""
			}
		}
	}})
}

// waitMachine is GET .../wait: it settles a transition toward a wanted
// state at once; otherwise it blocks (real time, Options.WaitBlock) for
// another request to bring the machine there, and answers 408 as Fly does
// when the wait times out (also when Clock passes timeout seconds).
//
// Query: state (the spec: one of started, stopped, destroyed; fly-go's
// flaps_machines_wait.go sends it repeated, any of them ends the wait, and
// Fly also waits for suspended), timeout in seconds (default 60, fly-go caps
// it at 60), instance_id (the spec) or version (fly-go's name for it),
// required when waiting for stopped.
func (s *Server) waitMachine(c *call) reply {
	targets := c.query["state"]
	if len(targets) == 0 {
		targets = []string{StateStarted}
	}
	timeout := 60
	if v := c.query.Get("timeout"); v != "" {
		timeout, _ = strconv.Atoi(v)
	}
	instance := c.query.Get("instance_id")
	if instance == "" {
		instance = c.query.Get("version")
	}
	if slices.Contains(targets, StateStopped) && instance == "" {
		return errorReply(http.StatusBadRequest, "instance_id is required when waiting for the stopped state")
	}
	clockDeadline := c.now.Add(time.Duration(timeout) * time.Second)
	realDeadline := time.Now().Add(s.opts.WaitBlock)
	for {
		rep, done := s.waitStep(c, targets, instance)
		if done {
			return rep
		}
		if !time.Now().Before(realDeadline) || !s.clock.Now().Before(clockDeadline) {
			return errorReply(http.StatusRequestTimeout, "deadline_exceeded: machine did not reach state %s within %ds", strings.Join(targets, " or "), timeout)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (s *Server) waitStep(c *call, targets []string, instance string) (reply, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.advanceClock(s.clock.Now())
	if _, rep, found := s.appFor(c); !found {
		return rep, true
	}
	m, found := s.machines[c.params["machine_id"]]
	if !found || m.app != c.params["app_name"] {
		return errorReply(http.StatusNotFound, "machine not found"), true
	}
	if instance != "" && instance != m.instanceID {
		if !slices.Contains(m.versions, instance) {
			return errorReply(http.StatusNotFound, "machine instance %s not found", instance), true
		}
		if slices.Contains(targets, StateStopped) || slices.Contains(targets, StateDestroyed) {
			// An older version no longer runs.
			return reply{status: http.StatusOK, body: ok}, true
		}
	}
	if m.tr != nil && slices.Contains(targets, m.tr.to) {
		settle(m, s.clock.Now())
	}
	if slices.Contains(targets, m.state) || (slices.Contains(targets, StateDestroyed) && m.gone) {
		return reply{status: http.StatusOK, body: ok}, true
	}
	return reply{}, false
}

// Metadata endpoints (spec Machines_show_metadata, Machines_update_metadata,
// Machines_delete_metadata; the POST body {"value": ...} is fly-go's
// SetMetadata, the spec declares none).
func (s *Server) getMetadata(c *call) reply {
	m, rep, found := s.machineFor(c)
	if !found {
		return rep
	}
	md := map[string]string{}
	for k, v := range m.parsed.Metadata {
		md[k] = v
	}
	return reply{status: http.StatusOK, body: md}
}

func (s *Server) setMetadata(c *call) reply {
	m, rep, found := s.machineFor(c)
	if !found {
		return rep
	}
	var body struct {
		Value *string `json:"value"`
	}
	if err := json.Unmarshal(c.body, &body); err != nil || body.Value == nil {
		return errorReply(http.StatusBadRequest, "a body {\"value\": string} is required")
	}
	m.setMeta(c.params["key"], body.Value)
	return reply{status: http.StatusNoContent}
}

func (s *Server) deleteMetadata(c *call) reply {
	m, rep, found := s.machineFor(c)
	if !found {
		return rep
	}
	m.setMeta(c.params["key"], nil)
	return reply{status: http.StatusNoContent}
}

func (m *machine) setMeta(key string, value *string) {
	if m.parsed.Metadata == nil {
		m.parsed.Metadata = map[string]string{}
	}
	md, _ := m.config["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		m.config["metadata"] = md
	}
	if value == nil {
		delete(m.parsed.Metadata, key)
		delete(md, key)
		return
	}
	m.parsed.Metadata[key] = *value
	md[key] = *value
}

func (s *Server) sortedMachines() []*machine {
	out := make([]*machine, 0, len(s.machines))
	for _, m := range s.machines {
		out = append(out, m)
	}
	sortBySeq(out, func(m *machine) int64 { return m.seq })
	return out
}

// machineJSON is the spec's Machine.
func machineJSON(m *machine) map[string]any {
	events := make([]map[string]any, 0, len(m.events))
	for i := len(m.events) - 1; i >= 0; i-- {
		e := m.events[i]
		events = append(events, map[string]any{"type": e.Type, "status": e.Status, "source": e.Source, "timestamp": e.Timestamp})
	}
	repo, tag, _ := strings.Cut(m.parsed.Image, ":")
	if tag == "" {
		tag = "latest"
	}
	return map[string]any{
		"id":          m.id,
		"name":        m.name,
		"state":       m.state,
		"region":      m.region,
		"instance_id": m.instanceID,
		"private_ip":  m.privateIP,
		"config":      m.config,
		"image_ref":   map[string]any{"registry": "docker.io", "repository": repo, "tag": tag, "digest": "sha256:" + fmt.Sprintf("%064x", len(m.parsed.Image))},
		"created_at":  m.createdAt.UTC().Format(time.RFC3339),
		"updated_at":  m.updatedAt.UTC().Format(time.RFC3339),
		"events":      events,
	}
}
