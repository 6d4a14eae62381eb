package e2bfake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"
)

// templateName is E2B's alias rule: lower-case letters, digits, dashes and
// underscores.
var templateName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

type templateRequestResponseV3 struct {
	TemplateID string   `json:"templateID"`
	BuildID    string   `json:"buildID"`
	Public     bool     `json:"public"`
	Names      []string `json:"names"`
	Tags       []string `json:"tags"`
	Aliases    []string `json:"aliases"`
}

func (s *Server) createTemplate(c *call) reply {
	var req struct {
		Name     *string  `json:"name"`
		Tags     []string `json:"tags"`
		Alias    *string  `json:"alias"`
		CPUCount *int     `json:"cpuCount"`
		MemoryMB *int     `json:"memoryMB"`
	}
	if err := json.Unmarshal(c.body, &req); err != nil {
		return errorReply(http.StatusBadRequest, "invalid body: %v", err)
	}
	ref := ""
	switch {
	case req.Name != nil:
		ref = *req.Name
	case req.Alias != nil:
		ref = *req.Alias
	default:
		return errorReply(http.StatusBadRequest, "name is required")
	}
	name, tag, ok := s.splitRef(ref)
	if !ok || !templateName.MatchString(name) {
		return errorReply(http.StatusBadRequest, "invalid template name %q: use lower-case letters, digits, '-' and '_'", ref)
	}
	tags := append([]string(nil), req.Tags...)
	if tag != "" && !contains(tags, tag) {
		tags = append([]string{tag}, tags...)
	}
	if len(tags) == 0 {
		tags = []string{defaultTag}
	}
	cpu, mem := defaultCPU, defaultMemMB
	if req.CPUCount != nil {
		cpu = *req.CPUCount
	}
	if req.MemoryMB != nil {
		mem = *req.MemoryMB
	}
	now := c.now.UTC()
	// One template per name in a team: the same name again is a new build of
	// the same template (this is how E2B rebuilds).
	t := s.templateByName(name)
	if t != nil && t.snapshot {
		return errorReply(http.StatusBadRequest, "name %q is taken by a snapshot", name)
	}
	if t == nil {
		t = &template{seq: s.nextSeq(), id: randomID(20), name: name, cpu: cpu, memMB: mem, createdAt: now, updatedAt: now, files: map[string]int{},
			listedFrom: s.listedFrom(now)}
		s.templates[t.id] = t
	}
	b := &build{id: fakeapi.UUID(), status: buildWaiting, tags: tags, cpu: cpu, memMB: mem, createdAt: now, updatedAt: now}
	t.builds = append(t.builds, b)
	t.updatedAt = now
	return reply{status: http.StatusAccepted, body: templateRequestResponseV3{
		TemplateID: t.id, BuildID: b.id, Public: t.public, Names: s.names(t), Tags: tags, Aliases: []string{t.name},
	}}
}

type buildFileUpload struct {
	Present bool   `json:"present"`
	URL     string `json:"url,omitempty"`
}

func (s *Server) buildFileUploadLink(c *call) reply {
	t, ok := s.templates[c.params["templateID"]]
	if !ok {
		return errorReply(http.StatusNotFound, "template %q not found", c.params["templateID"])
	}
	hash := c.params["hash"]
	if !filesHashPattern.MatchString(hash) {
		return errorReply(http.StatusBadRequest, "Invalid files hash")
	}
	if _, present := t.files[hash]; present {
		return reply{status: http.StatusCreated, body: buildFileUpload{Present: true}}
	}
	return reply{status: http.StatusCreated, body: buildFileUpload{
		URL: s.URL() + uploadPrefix + t.id + "/" + hash,
	}}
}

func (s *Server) startBuild(c *call) reply {
	t, b, rep, ok := s.templateAndBuild(c)
	if !ok {
		return rep
	}
	var req struct {
		FromImage    string `json:"fromImage"`
		FromTemplate string `json:"fromTemplate"`
		Steps        []step `json:"steps"`
		StartCmd     string `json:"startCmd"`
		ReadyCmd     string `json:"readyCmd"`
	}
	if err := json.Unmarshal(c.body, &req); err != nil {
		return errorReply(http.StatusBadRequest, "invalid body: %v", err)
	}
	if b.status != buildWaiting {
		return errorReply(http.StatusBadRequest, "build %s was already started (status %s)", b.id, b.status)
	}
	if (req.FromImage == "") == (req.FromTemplate == "") {
		return errorReply(http.StatusBadRequest, "exactly one of fromImage and fromTemplate is required")
	}
	// E2B accepts the start and resolves fromTemplate (an id or name of
	// the team's, or a public template, with an optional tag) to the base's
	// ready build afterwards: a base it cannot resolve fails the build at
	// its "base" step, with no step run.
	baseMissing := false
	if req.FromTemplate != "" {
		base, tag := s.findTemplate(req.FromTemplate)
		baseMissing = base == nil || base.readyBuild(tag) == nil
	}
	now := c.now.UTC()
	b.status, b.updatedAt, b.polls = buildBuilding, now, 0
	b.fromImage, b.fromTemplate, b.steps = req.FromImage, req.FromTemplate, req.Steps
	b.startCmd, b.readyCmd = req.StartCmd, req.ReadyCmd
	from := req.FromImage
	if from == "" {
		from = "template " + req.FromTemplate
	}
	b.logs = append(b.logs, logEntry{Timestamp: now, Level: "info", Message: fmt.Sprintf("Building template %s from %s", t.id, from), Step: "base"})
	if baseMissing {
		b.failReason, b.failStep = fmt.Sprintf("base template '%s' not found", req.FromTemplate), "base"
		return reply{status: http.StatusAccepted}
	}
	for i, st := range req.Steps {
		if b.failReason != "" {
			break // the builder stops at the first failing step
		}
		stepName := strconv.Itoa(i + 1)
		b.logs = append(b.logs, logEntry{Timestamp: now, Level: "info", Step: stepName,
			Message: fmt.Sprintf("Step %d/%d: %s %s", i+1, len(req.Steps), st.Type, strings.Join(st.Args, " "))})
		if reason, output := s.runStep(t, st); reason != "" {
			for _, line := range output {
				b.logs = append(b.logs, logEntry{Timestamp: now, Level: "error", Step: stepName, Message: line})
			}
			b.failReason, b.failStep = reason, stepName
		}
	}
	for _, key := range []string{t.id, t.name} {
		if reason, ok := s.failNext[key]; ok && key != "" {
			delete(s.failNext, key)
			if b.failReason == "" {
				b.failReason, b.failStep = reason, "finalize"
			}
			break
		}
	}
	return reply{status: http.StatusAccepted}
}

func (s *Server) templateAndBuild(c *call) (*template, *build, reply, bool) {
	t, ok := s.templates[c.params["templateID"]]
	if !ok {
		return nil, nil, errorReply(http.StatusNotFound, "template %q not found", c.params["templateID"]), false
	}
	b := t.findBuild(c.params["buildID"])
	if b == nil {
		return nil, nil, errorReply(http.StatusNotFound, "build %q of template %q not found", c.params["buildID"], t.id), false
	}
	return t, b, reply{}, true
}

// advance moves a started build one poll further; after BuildPolls polls it
// is ready, or failed when a failure was set up.
func (s *Server) advance(t *template, b *build, now time.Time) {
	if b.status != buildBuilding {
		return
	}
	b.polls++
	if b.polls < s.opts.BuildPolls {
		return
	}
	now = now.UTC()
	b.updatedAt, b.finishedAt = now, &now
	if b.failReason != "" {
		b.status = buildError
		b.logs = append(b.logs, logEntry{Timestamp: now, Level: "error", Step: b.failStep, Message: "Build failed: " + b.failReason})
		return
	}
	b.status = buildReady
	b.logs = append(b.logs, logEntry{Timestamp: now, Level: "info", Step: "finalize", Message: "Build finished"})
	// A tag names one build: the new build takes it from older ones.
	for _, other := range t.builds {
		if other == b {
			continue
		}
		kept := other.tags[:0]
		for _, tag := range other.tags {
			if !contains(b.tags, tag) {
				kept = append(kept, tag)
			}
		}
		other.tags = kept
	}
	t.cpu, t.memMB, t.updatedAt = b.cpu, b.memMB, now
}

var logLevels = map[string]int{"debug": 0, "info": 1, "warn": 2, "error": 3}

func filterLevel(entries []logEntry, level string) []logEntry {
	if level == "" {
		return entries
	}
	out := []logEntry{}
	for _, e := range entries {
		if logLevels[e.Level] >= logLevels[level] {
			out = append(out, e)
		}
	}
	return out
}

type buildStatusReason struct {
	Message    string     `json:"message"`
	Step       string     `json:"step,omitempty"`
	LogEntries []logEntry `json:"logEntries"`
}

type templateBuildInfo struct {
	TemplateID string             `json:"templateID"`
	BuildID    string             `json:"buildID"`
	Status     string             `json:"status"`
	Logs       []string           `json:"logs"`
	LogEntries []logEntry         `json:"logEntries"`
	Reason     *buildStatusReason `json:"reason,omitempty"`
}

func (s *Server) buildStatus(c *call) reply {
	t, b, rep, ok := s.templateAndBuild(c)
	if !ok {
		return rep
	}
	s.advance(t, b, c.now)
	entries := filterLevel(b.logs, c.query.Get("level"))
	offset, _ := strconv.Atoi(c.query.Get("logsOffset"))
	limit := 100
	if v := c.query.Get("limit"); v != "" {
		limit, _ = strconv.Atoi(v)
	}
	offset = min(offset, len(entries))
	entries = entries[offset:min(offset+limit, len(entries))]
	info := templateBuildInfo{TemplateID: t.id, BuildID: b.id, Status: b.status, Logs: []string{}, LogEntries: []logEntry{}}
	for _, e := range entries {
		info.Logs = append(info.Logs, fmt.Sprintf("[%s] %s", e.Timestamp.Format(time.RFC3339), e.Message))
		info.LogEntries = append(info.LogEntries, e)
	}
	if b.status == buildError {
		info.Reason = &buildStatusReason{Message: b.failReason, Step: b.failStep, LogEntries: filterLevel(b.logs, "error")}
	}
	return reply{status: http.StatusOK, body: info}
}

func (s *Server) buildLogs(c *call) reply {
	_, b, rep, ok := s.templateAndBuild(c)
	if !ok {
		return rep
	}
	entries := filterLevel(b.logs, c.query.Get("level"))
	if v := c.query.Get("cursor"); v != "" {
		cursor, _ := strconv.ParseInt(v, 10, 64)
		kept := []logEntry{}
		for _, e := range entries {
			if e.Timestamp.UnixMilli() >= cursor {
				kept = append(kept, e)
			}
		}
		entries = kept
	}
	if c.query.Get("direction") == "backward" {
		rev := make([]logEntry, 0, len(entries))
		for i := len(entries) - 1; i >= 0; i-- {
			rev = append(rev, entries[i])
		}
		entries = rev
	}
	limit := 100
	if v := c.query.Get("limit"); v != "" {
		limit, _ = strconv.Atoi(v)
	}
	entries = append([]logEntry{}, entries[:min(limit, len(entries))]...)
	return reply{status: http.StatusOK, body: map[string]any{"logs": entries}}
}

type templateBuildJSON struct {
	BuildID     string     `json:"buildID"`
	Status      string     `json:"status"`
	CreatedAt   time.Time  `json:"createdAt"`
	UpdatedAt   time.Time  `json:"updatedAt"`
	FinishedAt  *time.Time `json:"finishedAt,omitempty"`
	CPUCount    int        `json:"cpuCount"`
	MemoryMB    int        `json:"memoryMB"`
	DiskSizeMB  int        `json:"diskSizeMB"`
	EnvdVersion string     `json:"envdVersion"`
}

type templateWithBuilds struct {
	TemplateID    string              `json:"templateID"`
	Public        bool                `json:"public"`
	Aliases       []string            `json:"aliases"`
	Names         []string            `json:"names"`
	CreatedAt     time.Time           `json:"createdAt"`
	UpdatedAt     time.Time           `json:"updatedAt"`
	LastSpawnedAt *time.Time          `json:"lastSpawnedAt"`
	SpawnCount    int64               `json:"spawnCount"`
	Builds        []templateBuildJSON `json:"builds"`
}

func (s *Server) aliases(t *template) []string {
	if t.name == "" {
		return []string{}
	}
	return []string{t.name}
}

func (s *Server) getTemplate(c *call) reply {
	t, _ := s.findTemplate(c.params["templateID"])
	if t == nil {
		// Not in the spec's responses, but what E2B sends.
		return errorReply(http.StatusNotFound, "Template %s not found", c.params["templateID"])
	}
	type indexed struct {
		b *build
		i int
	}
	all := make([]indexed, len(t.builds))
	for i, b := range t.builds {
		all[i] = indexed{b, i}
	}
	page, next, err := paginate(all, func(x indexed) cursorKey { return cursorKey{x.b.createdAt.UnixNano(), int64(x.i)} }, true, c.query)
	if err != nil {
		return errorReply(http.StatusBadRequest, "%v", err)
	}
	out := templateWithBuilds{TemplateID: t.id, Public: t.public, Aliases: s.aliases(t), Names: s.names(t),
		CreatedAt: t.createdAt, UpdatedAt: t.updatedAt, LastSpawnedAt: t.lastSpawnedAt, SpawnCount: t.spawnCount, Builds: []templateBuildJSON{}}
	for _, x := range page {
		out.Builds = append(out.Builds, templateBuildJSON{BuildID: x.b.id, Status: x.b.status, CreatedAt: x.b.createdAt, UpdatedAt: x.b.updatedAt,
			FinishedAt: x.b.finishedAt, CPUCount: x.b.cpu, MemoryMB: x.b.memMB, DiskSizeMB: defaultDiskMB, EnvdVersion: envdVersion})
	}
	return reply{status: http.StatusOK, body: out, header: nextTokenHeader(next)}
}

type templateJSON struct {
	TemplateID    string     `json:"templateID"`
	BuildID       string     `json:"buildID"`
	CPUCount      int        `json:"cpuCount"`
	MemoryMB      int        `json:"memoryMB"`
	DiskSizeMB    int        `json:"diskSizeMB"`
	Public        bool       `json:"public"`
	Aliases       []string   `json:"aliases"`
	Names         []string   `json:"names"`
	CreatedAt     time.Time  `json:"createdAt"`
	UpdatedAt     time.Time  `json:"updatedAt"`
	CreatedBy     *struct{}  `json:"createdBy"`
	LastSpawnedAt *time.Time `json:"lastSpawnedAt"`
	SpawnCount    int64      `json:"spawnCount"`
	BuildCount    int        `json:"buildCount"`
	EnvdVersion   string     `json:"envdVersion"`
	BuildStatus   string     `json:"buildStatus"`
}

func (s *Server) listTemplates(c *call) reply {
	var all []*template
	for _, t := range s.templates {
		if !t.snapshot && listed(t.listedFrom, c.now) {
			all = append(all, t)
		}
	}
	page, next, err := paginate(all, func(t *template) cursorKey { return cursorKey{t.createdAt.UnixNano(), t.seq} }, false, c.query)
	if err != nil {
		return errorReply(http.StatusBadRequest, "%v", err)
	}
	out := []templateJSON{}
	for _, t := range page {
		latest := t.latestBuild()
		buildID, status := latest.id, latest.status
		if ready := t.readyBuild(""); ready != nil {
			buildID = ready.id
		}
		out = append(out, templateJSON{TemplateID: t.id, BuildID: buildID, CPUCount: t.cpu, MemoryMB: t.memMB, DiskSizeMB: defaultDiskMB,
			Public: t.public, Aliases: s.aliases(t), Names: s.names(t), CreatedAt: t.createdAt, UpdatedAt: t.updatedAt,
			LastSpawnedAt: t.lastSpawnedAt, SpawnCount: t.spawnCount, BuildCount: len(t.builds), EnvdVersion: envdVersion, BuildStatus: status})
	}
	return reply{status: http.StatusOK, body: out, header: nextTokenHeader(next)}
}

func (s *Server) templateByAlias(c *call) reply {
	name, _, ok := s.splitRef(c.params["alias"])
	var t *template
	if ok {
		t = s.templateByName(name)
	}
	if t == nil {
		return errorReply(http.StatusNotFound, "template with alias %q not found", c.params["alias"])
	}
	return reply{status: http.StatusOK, body: map[string]any{"templateID": t.id, "public": t.public}}
}

// deleteTemplate removes a template or a snapshot (a snapshot is a template;
// E2B's SDK deletes snapshots through this route). Sandboxes started from it
// keep running, as on E2B.
func (s *Server) deleteTemplate(c *call) reply {
	t, _ := s.findTemplate(c.params["templateID"])
	if t == nil {
		// Not in the spec's responses, but what E2B sends.
		return errorReply(http.StatusNotFound, "template '%s' not found", c.params["templateID"])
	}
	delete(s.templates, t.id)
	return reply{status: http.StatusNoContent}
}

// updateTemplate sets whether a template is public, answering its names
// (TemplateUpdateResponse), as E2B does.
func (s *Server) updateTemplate(c *call) reply {
	var req struct {
		Public *bool `json:"public"`
	}
	if err := json.Unmarshal(c.body, &req); err != nil {
		return errorReply(http.StatusBadRequest, "invalid body: %v", err)
	}
	t, _ := s.findTemplate(c.params["templateID"])
	if t == nil || t.snapshot {
		return errorReply(http.StatusNotFound, "template '%s' not found", c.params["templateID"])
	}
	if req.Public != nil {
		t.public = *req.Public
		t.updatedAt = c.now.UTC()
	}
	return reply{status: http.StatusOK, body: map[string]any{"names": s.names(t)}}
}

func nextTokenHeader(next string) http.Header {
	if next == "" {
		return nil
	}
	return http.Header{"X-Next-Token": []string{next}}
}
