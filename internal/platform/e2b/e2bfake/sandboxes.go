package e2bfake

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"
)

type sandboxJSON struct {
	TemplateID      string `json:"templateID"`
	SandboxID       string `json:"sandboxID"`
	Alias           string `json:"alias,omitempty"`
	ClientID        string `json:"clientID"`
	EnvdVersion     string `json:"envdVersion"`
	EnvdAccessToken string `json:"envdAccessToken,omitempty"`
}

type lifecycleJSON struct {
	AutoResume bool   `json:"autoResume"`
	OnTimeout  string `json:"onTimeout"`
}

type sandboxDetailJSON struct {
	TemplateID   string            `json:"templateID"`
	Alias        string            `json:"alias,omitempty"`
	SandboxID    string            `json:"sandboxID"`
	ClientID     string            `json:"clientID"`
	StartedAt    time.Time         `json:"startedAt"`
	EndAt        time.Time         `json:"endAt"`
	EnvdVersion  string            `json:"envdVersion"`
	CPUCount     int               `json:"cpuCount"`
	MemoryMB     int               `json:"memoryMB"`
	DiskSizeMB   int               `json:"diskSizeMB"`
	Metadata     map[string]string `json:"metadata"`
	State        string            `json:"state"`
	Lifecycle    *lifecycleJSON    `json:"lifecycle,omitempty"`
	VolumeMounts []volumeMount     `json:"volumeMounts"`
	// AllowInternetAccess is null when never set.
	AllowInternetAccess *bool        `json:"allowInternetAccess"`
	Network             *networkJSON `json:"network,omitempty"`
}

func (s *Server) sandboxReply(status int, sb *sandbox) reply {
	return reply{status: status, body: sandboxJSON{TemplateID: sb.templateID, SandboxID: sb.id, Alias: sb.alias,
		ClientID: fakeClientID, EnvdVersion: envdVersion, EnvdAccessToken: sb.envdToken}}
}

func detail(sb *sandbox) sandboxDetailJSON {
	onTimeout := "kill"
	if sb.autoPause {
		onTimeout = "pause"
	}
	return sandboxDetailJSON{TemplateID: sb.templateID, Alias: sb.alias, SandboxID: sb.id, ClientID: fakeClientID,
		StartedAt: sb.startedAt.UTC(), EndAt: sb.endAt.UTC(), EnvdVersion: envdVersion, CPUCount: sb.cpu, MemoryMB: sb.memMB,
		DiskSizeMB: defaultDiskMB, Metadata: copyMap(sb.metadata), State: apiState(sb),
		Lifecycle:           &lifecycleJSON{AutoResume: sb.autoResume, OnTimeout: onTimeout},
		VolumeMounts:        append([]volumeMount{}, sb.volumeMounts...),
		AllowInternetAccess: sb.allowInternetAccess, Network: sb.network.egress()}
}

func copyMap(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// checkTimeout applies E2B's rule: more than zero seconds and no more than the
// team's longest sandbox run.
func (s *Server) checkTimeout(timeout int) (reply, bool) {
	if timeout <= 0 {
		return errorReply(http.StatusBadRequest, "Timeout must be greater than 0"), false
	}
	if timeout > s.opts.MaxTimeoutSeconds {
		return errorReply(http.StatusBadRequest, "Timeout cannot be greater than %d hours", s.opts.MaxTimeoutSeconds/3600), false
	}
	return reply{}, true
}

func (s *Server) createSandbox(c *call) reply {
	var req struct {
		TemplateID      string                  `json:"templateID"`
		Timeout         *int                    `json:"timeout"`
		AutoPause       bool                    `json:"autoPause"`
		AutoPauseMemory *bool                   `json:"autoPauseMemory"`
		AutoResume      *struct{ Enabled bool } `json:"autoResume"`
		Secure          bool                    `json:"secure"`
		Metadata        map[string]string       `json:"metadata"`
		EnvVars         map[string]string       `json:"envVars"`
		VolumeMounts    []volumeMount           `json:"volumeMounts"`
		AllowInternet   *bool                   `json:"allow_internet_access"`
		Network         *networkJSON            `json:"network"`
	}
	if err := json.Unmarshal(c.body, &req); err != nil {
		return errorReply(http.StatusBadRequest, "invalid body: %v", err)
	}
	t, tag := s.findTemplate(req.TemplateID)
	if t == nil {
		return errorReply(http.StatusNotFound, "template %q not found", req.TemplateID)
	}
	// E2B starts a box only from a ready build assigned the tag
	// (packages/db/queries/templates/get_template_with_build_by_tag.sql:
	// status_group = 'ready'); a template whose build is still waiting or
	// building, or failed, has none: 404 "tag ... does not exist"
	// (api/internal/cache/templates/errors.go, templateTagNotFoundError).
	b := t.readyBuild(tag)
	if b == nil {
		if tag == "" {
			tag = defaultTag
		}
		return errorReply(http.StatusNotFound, "tag '%s' does not exist for template '%s'", tag, req.TemplateID)
	}
	timeout, omitted := defaultTimeout, req.Timeout == nil
	if !omitted {
		timeout = *req.Timeout
	}
	if rep, ok := s.checkTimeout(timeout); !ok {
		return rep
	}
	// E2B takes autoResume without autoPause (only its SDKs refuse it):
	// such a box is killed at its timeout, and one paused by request
	// resumes on traffic.
	autoResume := req.AutoResume != nil && req.AutoResume.Enabled
	// autoPauseMemory = false is a filesystem-only pause at the timeout:
	// E2B refuses it without autoPause, and with autoResume (traffic cannot
	// resume a box without memory) (e2b-dev/infra, handlers/sandbox_create.go).
	filesystemOnly := req.AutoPauseMemory != nil && !*req.AutoPauseMemory
	if filesystemOnly && !req.AutoPause {
		return errorReply(http.StatusBadRequest, "autoPauseMemory=false only applies when autoPause is true.")
	}
	if filesystemOnly && autoResume {
		return errorReply(http.StatusBadRequest, "autoPauseMemory=false (filesystem-only auto-pause) cannot be combined with "+
			"autoResume: a filesystem-only snapshot cannot be auto-resumed by traffic and must be resumed explicitly.")
	}
	if req.Network != nil {
		if rep, ok := checkEgress(req.Network.AllowOut, req.Network.DenyOut); !ok {
			return rep
		}
	}
	for _, m := range req.VolumeMounts {
		if s.volumeByName(m.Name) == nil {
			return errorReply(http.StatusBadRequest, "volume %q not found", m.Name)
		}
	}
	now := c.now
	sb := &sandbox{seq: s.nextSeq(), id: "i" + randomID(19), templateRef: req.TemplateID, templateID: t.id, alias: t.name,
		state: stateRunning, startedAt: now, endAt: now.Add(time.Duration(timeout) * time.Second),
		timeout: timeout, timeoutOmitted: omitted, autoPause: req.AutoPause, autoPauseMemory: req.AutoPauseMemory == nil || *req.AutoPauseMemory,
		autoResume: autoResume, metadata: copyMap(req.Metadata), envVars: copyMap(req.EnvVars),
		volumeMounts: append([]volumeMount{}, req.VolumeMounts...), cpu: b.cpu, memMB: b.memMB,
		listedFrom: s.listedFrom(now)}
	if req.Secure {
		sb.envdToken = randomID(32)
	}
	sb.allowInternetAccess, sb.network = req.AllowInternet, req.Network.egress()
	s.sandboxes[sb.id] = sb
	spawned := now.UTC()
	t.spawnCount++
	t.lastSpawnedAt = &spawned
	return s.sandboxReply(http.StatusCreated, sb)
}

func (s *Server) sandboxOr404(c *call) (*sandbox, reply, bool) {
	sb, ok := s.sandboxes[c.params["sandboxID"]]
	if !ok {
		return nil, errorReply(http.StatusNotFound, "sandbox %q not found", c.params["sandboxID"]), false
	}
	return sb, reply{}, true
}

func (s *Server) getSandbox(c *call) reply {
	sb, rep, ok := s.sandboxOr404(c)
	if !ok {
		return rep
	}
	d := detail(sb)
	observed(sb)
	return reply{status: http.StatusOK, body: d}
}

type listedSandboxJSON struct {
	TemplateID   string            `json:"templateID"`
	Alias        string            `json:"alias,omitempty"`
	SandboxID    string            `json:"sandboxID"`
	ClientID     string            `json:"clientID"`
	StartedAt    time.Time         `json:"startedAt"`
	EndAt        time.Time         `json:"endAt"`
	CPUCount     int               `json:"cpuCount"`
	MemoryMB     int               `json:"memoryMB"`
	DiskSizeMB   int               `json:"diskSizeMB"`
	Metadata     map[string]string `json:"metadata"`
	State        string            `json:"state"`
	EnvdVersion  string            `json:"envdVersion"`
	VolumeMounts []volumeMount     `json:"volumeMounts"`
}

func (s *Server) listSandboxes(c *call) reply {
	want := map[string]bool{stateRunning: true, statePaused: true}
	if v := c.query.Get("state"); v != "" {
		want = map[string]bool{}
		for _, st := range strings.Split(v, ",") {
			want[st] = true
		}
	}
	var meta url.Values
	if v := c.query.Get("metadata"); v != "" {
		parsed, err := url.ParseQuery(v)
		if err != nil {
			return errorReply(http.StatusBadRequest, "invalid metadata filter %q: %v", v, err)
		}
		meta = parsed
	}
	var after time.Time
	if v := c.query.Get("startedAfter"); v != "" {
		after, _ = time.Parse(time.RFC3339, v) // format checked by the validator
	}
	tmpl := c.query.Get("template")
	var matched []*sandbox
	running := 0
	for _, sb := range s.sandboxes {
		if !listed(sb.listedFrom, c.now) || !want[apiState(sb)] ||
			(tmpl != "" && tmpl != sb.templateID && tmpl != sb.alias && tmpl != sb.templateRef) || sb.startedAt.Before(after) {
			continue
		}
		if !metadataMatches(sb.metadata, meta) {
			continue
		}
		matched = append(matched, sb)
		if sb.state == stateRunning {
			running++
		}
	}
	page, next, err := paginate(matched, func(sb *sandbox) cursorKey { return cursorKey{sb.startedAt.UnixNano(), sb.seq} },
		c.query.Get("order") != "asc", c.query)
	if err != nil {
		return errorReply(http.StatusBadRequest, "%v", err)
	}
	out := []listedSandboxJSON{}
	for _, sb := range page {
		d := detail(sb)
		observed(sb)
		out = append(out, listedSandboxJSON{TemplateID: d.TemplateID, Alias: d.Alias, SandboxID: d.SandboxID, ClientID: d.ClientID,
			StartedAt: d.StartedAt, EndAt: d.EndAt, CPUCount: d.CPUCount, MemoryMB: d.MemoryMB, DiskSizeMB: d.DiskSizeMB,
			Metadata: d.Metadata, State: d.State, EnvdVersion: d.EnvdVersion, VolumeMounts: d.VolumeMounts})
	}
	header := nextTokenHeader(next)
	if want[stateRunning] {
		if header == nil {
			header = http.Header{}
		}
		header.Set("X-Total-Running", itoa(running))
	}
	return reply{status: http.StatusOK, body: out, header: header}
}

func metadataMatches(have map[string]string, want url.Values) bool {
	for k, vs := range want {
		for _, v := range vs {
			if have[k] != v {
				return false
			}
		}
	}
	return true
}

func (s *Server) pauseSandbox(c *call) reply {
	sb, rep, ok := s.sandboxOr404(c)
	if !ok {
		return rep
	}
	memory := true
	if len(c.body) > 0 {
		var req struct {
			Memory *bool `json:"memory"`
		}
		if err := json.Unmarshal(c.body, &req); err != nil {
			return errorReply(http.StatusBadRequest, "invalid body: %v", err)
		}
		if req.Memory != nil {
			memory = *req.Memory
		}
	}
	if sb.state == statePaused {
		return errorReply(http.StatusConflict, "Error pausing sandbox - sandbox '%s' is already paused", sb.id)
	}
	// A pause already under way is joined: RemoveSandbox finds the
	// transition started and returns nil, so the API answers 204
	// (orchestrator/delete_instance.go, alreadyDone); a paused box is no
	// longer in the store and is answered 409 (handlers/sandbox_pause.go,
	// pauseHandleNotRunningSandbox).
	if sb.state == statePausing {
		return reply{status: http.StatusNoContent}
	}
	sb.state, sb.pauseMemory = statePaused, memory
	sb.pauseCount++
	return reply{status: http.StatusNoContent}
}

func (s *Server) readTimeout(c *call) (int, reply, bool) {
	var req struct {
		Timeout *int `json:"timeout"`
	}
	if err := json.Unmarshal(c.body, &req); err != nil || req.Timeout == nil {
		return 0, errorReply(http.StatusBadRequest, "a JSON body with timeout is required"), false
	}
	if rep, ok := s.checkTimeout(*req.Timeout); !ok {
		return 0, rep, false
	}
	return *req.Timeout, reply{}, true
}

// connectSandbox resumes a paused sandbox (201) or returns a running one
// (200). The spec says "TTL is only extended": a running sandbox's end moves
// to now+timeout only when that is later.
func (s *Server) connectSandbox(c *call) reply {
	sb, rep, ok := s.sandboxOr404(c)
	if !ok {
		return rep
	}
	timeout, rep, ok := s.readTimeout(c)
	if !ok {
		return rep
	}
	end := c.now.Add(time.Duration(timeout) * time.Second)
	finishPause(sb) // E2B waits out a pause under way, then resumes
	if sb.state == statePaused {
		sb.state, sb.startedAt, sb.endAt, sb.timeout = stateRunning, c.now, end, timeout
		return s.sandboxReply(http.StatusCreated, sb)
	}
	if end.After(sb.endAt) {
		sb.endAt = end
	}
	return s.sandboxReply(http.StatusOK, sb)
}

// setSandboxTimeout overwrites the end time with now+timeout. E2B keeps
// timeouts only for running sandboxes, so a paused one is not found.
func (s *Server) setSandboxTimeout(c *call) reply {
	sb, rep, ok := s.sandboxOr404(c)
	if !ok {
		return rep
	}
	timeout, rep, ok := s.readTimeout(c)
	if !ok {
		return rep
	}
	if rep, refused := refusePausing(sb); refused {
		return rep
	}
	if sb.state != stateRunning {
		return errorReply(http.StatusNotFound, "sandbox %q is not running", sb.id)
	}
	sb.endAt, sb.timeout = c.now.Add(time.Duration(timeout)*time.Second), timeout
	return reply{status: http.StatusNoContent}
}

func (s *Server) killSandbox(c *call) reply {
	sb, rep, ok := s.sandboxOr404(c)
	if !ok {
		return rep
	}
	delete(s.sandboxes, sb.id)
	return reply{status: http.StatusNoContent}
}
