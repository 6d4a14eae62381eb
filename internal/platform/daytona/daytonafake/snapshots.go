package daytonafake

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"
)

// snapshotJSON is SnapshotDto as SnapshotDto.fromSnapshot fills it
// (dto/snapshot.dto.ts:114-147): nullable fields are null, not absent.
type snapshotJSON struct {
	ID              string         `json:"id"`
	OrganizationID  string         `json:"organizationId,omitempty"`
	General         bool           `json:"general"`
	Name            string         `json:"name"`
	ImageName       string         `json:"imageName,omitempty"`
	State           string         `json:"state"`
	Size            *float64       `json:"size"`
	Entrypoint      []string       `json:"entrypoint"`
	CPU             int            `json:"cpu"`
	GPU             int            `json:"gpu"`
	Mem             int            `json:"mem"`
	Disk            int            `json:"disk"`
	ErrorReason     *string        `json:"errorReason"`
	CreatedAt       string         `json:"createdAt"`
	UpdatedAt       string         `json:"updatedAt"`
	LastUsedAt      *string        `json:"lastUsedAt"`
	BuildInfo       *buildInfoJSON `json:"buildInfo,omitempty"`
	RegionIDs       []string       `json:"regionIds"`
	InitialRunnerID string         `json:"initialRunnerId,omitempty"`
	Ref             string         `json:"ref,omitempty"`
	SandboxClass    string         `json:"sandboxClass"`
}

type buildInfoJSON struct {
	DockerfileContent string   `json:"dockerfileContent"`
	ContextHashes     []string `json:"contextHashes"`
	CreatedAt         string   `json:"createdAt"`
	UpdatedAt         string   `json:"updatedAt"`
	SnapshotRef       string   `json:"snapshotRef"`
}

func (s *Server) snapshotDTO(sn *snapshot) snapshotJSON {
	out := snapshotJSON{ID: sn.id, General: sn.general, Name: sn.name, ImageName: sn.imageName, State: sn.state,
		Entrypoint: sn.entrypoint, CPU: sn.cpu, GPU: sn.gpu, Mem: sn.mem, Disk: sn.disk, ErrorReason: sn.errorReason,
		CreatedAt: stamp(sn.createdAt), UpdatedAt: stamp(sn.updatedAt), RegionIDs: []string{fakeRegion},
		InitialRunnerID: fakeRunnerID, Ref: sn.ref, SandboxClass: sn.class}
	if !sn.general {
		out.OrganizationID = s.opts.OrganizationID
	}
	if sn.lastUsedAt != nil {
		out.LastUsedAt = strPtr(stamp(*sn.lastUsedAt))
	}
	if sn.state == snapActive || sn.state == snapInactive {
		size := 0.5
		out.Size = &size
	}
	if sn.build != nil {
		out.BuildInfo = &buildInfoJSON{DockerfileContent: sn.build.dockerfile, ContextHashes: append([]string{}, sn.build.hashes...),
			CreatedAt: stamp(sn.build.createdAt), UpdatedAt: stamp(sn.build.createdAt), SnapshotRef: sn.ref}
	}
	return out
}

// imageNameRE is IMAGE_NAME_REGEX (snapshot.service.ts:68), used for image
// and snapshot names alike.
var imageNameRE = regexp.MustCompile(`^[a-zA-Z0-9_.\-:]+(/[a-zA-Z0-9_.\-:]+)*(@sha256:[a-f0-9]{64})?$`)

var digestRE = regexp.MustCompile(`^[a-f0-9]{64}$`)

// validateImageName is snapshot.service.ts:95-118. Only ":latest" is refused
// by the server; the docs' "latest, lts, stable are not supported"
// (snapshots.mdx:34) is not enforced in code.
func validateImageName(name string) string {
	if image, digest, ok := strings.Cut(name, "@sha256:"); ok {
		if image == "" || !digestRE.MatchString(digest) {
			return "Invalid digest format. Must be image@sha256:64_hex_characters"
		}
		return ""
	}
	if !strings.Contains(name, ":") || strings.TrimRight(name, " \t") != name || strings.HasSuffix(strings.TrimSpace(name), ":") {
		return "Image name must include a tag (e.g., ubuntu:22.04) or digest (@sha256:...)"
	}
	if strings.HasSuffix(name, ":latest") {
		return `Images with tag ":latest" are not allowed`
	}
	if !imageNameRE.MatchString(name) {
		return "Invalid image name format. Must be lowercase, may contain digits, dots, dashes, and single slashes between components"
	}
	return ""
}

type createSnapshotReq struct {
	Name         string   `json:"name"`
	ImageName    string   `json:"imageName"`
	Entrypoint   []string `json:"entrypoint"`
	CPU          *int     `json:"cpu"`
	GPU          *int     `json:"gpu"`
	Memory       *int     `json:"memory"`
	Disk         *int     `json:"disk"`
	SandboxClass string   `json:"sandboxClass"`
	BuildInfo    *struct {
		DockerfileContent string   `json:"dockerfileContent"`
		ContextHashes     []string `json:"contextHashes"`
	} `json:"buildInfo"`
}

// createSnapshot is snapshot.controller.ts:113-135 with createFromPull
// (snapshot.service.ts:162-270) and createFromBuildInfo (272-420).
func (s *Server) createSnapshot(c *call) reply {
	var req createSnapshotReq
	if err := json.Unmarshal(c.body, &req); err != nil {
		return errorReply(http.StatusBadRequest, "invalid body: %v", err)
	}
	if req.BuildInfo != nil {
		if req.ImageName != "" {
			return errorReply(http.StatusBadRequest, "Cannot specify an image name when using a build info entry")
		}
		if req.Entrypoint != nil {
			return errorReply(http.StatusBadRequest, "Cannot specify an entrypoint when using a build info entry")
		}
	} else if req.ImageName == "" {
		return errorReply(http.StatusBadRequest, "Must specify an image name when not using a build info entry")
	}
	if !imageNameRE.MatchString(req.Name) {
		return errorReply(http.StatusBadRequest, "Invalid snapshot name format. May contain letters, digits, dots, colons, and dashes")
	}
	if req.BuildInfo == nil {
		if msg := validateImageName(req.ImageName); msg != "" {
			return errorReply(http.StatusBadRequest, "%s", msg)
		}
	}
	class := req.SandboxClass
	if class == "" {
		class = s.opts.DefaultSandboxClass // defaultSandboxClass, configuration.ts:66
	}
	if class == ClassWindows {
		return errorReply(http.StatusBadRequest, "Windows snapshots cannot be created via this endpoint; they are produced by snapshot-from-sandbox flows.")
	}
	// Unset sizes are not checked here (the `cpu && cpu > max` guards).
	if rep, ok := s.checkPerSandboxLimits(intOr(req.CPU, 0), intOr(req.Memory, 0), intOr(req.Disk, 0)); !ok {
		return rep
	}
	if s.snapshotByOwnName(req.Name) != nil {
		return errorReply(http.StatusConflict, "Snapshot with name %q already exists for this organization", req.Name)
	}
	sn := &snapshot{seq: s.nextSeq(), id: fakeapi.UUID(), name: req.Name, imageName: req.ImageName, state: snapPending,
		entrypoint: nonEmpty(req.Entrypoint), cpu: intOr(req.CPU, defaultSnapCPU), gpu: intOr(req.GPU, 0),
		mem: intOr(req.Memory, defaultSnapMem), disk: intOr(req.Disk, defaultSnapDisk), class: class,
		createdAt: c.now, updatedAt: c.now}
	fail := s.failNext
	s.failNext = nil
	if req.BuildInfo != nil {
		sn.build = &buildInfo{dockerfile: req.BuildInfo.DockerfileContent, hashes: append([]string{}, req.BuildInfo.ContextHashes...), createdAt: c.now}
		sn.ref = "daytona-internal/build-" + sn.id[:8] + ":fake"
		s.startBuild(sn, fail, c.now)
	} else {
		sn.ref = req.ImageName
		s.startPull(sn, fail, c.now)
	}
	s.snapshots[sn.id] = sn
	return reply{status: http.StatusOK, body: s.snapshotDTO(sn)}
}

// startPull queues pending → pulling → active, or "error" as a failed pull
// ends (snapshot.manager.ts:1165): the check-snapshot-state cron (every
// 10 s, :846-910) finds the snapshot pending, starts the pull on a runner
// and marks it pulling (handleSnapshotStatePending, :1225-1283), and a
// later run finds the runner done (handleCheckInitialRunnerSnapshot).
func (s *Server) startPull(sn *snapshot, fail *buildFailure, now time.Time) {
	sn.logs = append(sn.logs, "Pulling image "+sn.imageName)
	s.startTransition(&sn.tr, &sn.state, &transition{stages: []string{snapPending, snapPulling}, to: snapActive, done: func(now time.Time) {
		sn.updatedAt = now
		if fail != nil {
			sn.state, sn.errorReason = snapError, strPtr(fail.reason)
			sn.logs = append(sn.logs, strings.Split(fail.logTail, "\n")...)
			return
		}
		sn.logs = append(sn.logs, "Image pulled")
		sn.activated(now)
	}}, now)
}

// startBuild queues pending → building → active, or "build_failed" as a
// failed build ends (snapshot.manager.ts:1192). A context hash the client
// never uploaded to object storage makes the build fail: the runner would
// not find the context to COPY from (the reason is the fake's wording).
// A snapshot with buildInfo goes building where another would go pulling
// (snapshot.manager.ts:1241-1244).
func (s *Server) startBuild(sn *snapshot, fail *buildFailure, now time.Time) {
	sn.logs = append(sn.logs, "Building snapshot "+sn.name)
	s.startTransition(&sn.tr, &sn.state, &transition{stages: []string{snapPending, snapBuilding}, to: snapActive, done: func(now time.Time) {
		sn.updatedAt = now
		for _, h := range sn.build.hashes {
			if !s.storage.hasContext(s.opts.OrganizationID, h) {
				reason := fmt.Sprintf("build context %s not found in object storage", h)
				sn.state, sn.errorReason = snapBuildFailed, strPtr(reason)
				sn.logs = append(sn.logs, "ERROR: "+reason)
				return
			}
		}
		if fail != nil {
			sn.state, sn.errorReason = snapBuildFailed, strPtr(fail.reason)
			sn.logs = append(sn.logs, strings.Split(fail.logTail, "\n")...)
			return
		}
		sn.logs = append(sn.logs, "Successfully built snapshot "+sn.name)
		sn.activated(now)
	}}, now)
}

func nonEmpty(list []string) []string {
	var out []string
	for _, v := range list {
		if strings.TrimSpace(v) != "" {
			out = append(out, v)
		}
	}
	return out
}

func intOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

// snapshotByOwnName finds a snapshot of the organization (not a general
// one) by name: the unique key behind the 409 (snapshot.service.ts:257-262).
func (s *Server) snapshotByOwnName(name string) *snapshot {
	for _, sn := range s.snapshots {
		if !sn.removed && !sn.general && sn.name == name {
			return sn
		}
	}
	return nil
}

// findSnapshot is getSnapshotWithRegions (snapshot.service.ts:527-553): by
// name (the organization's before general ones), or by id when a UUID.
func (s *Server) findSnapshot(idOrName string) *snapshot {
	if sn := s.snapshotByOwnName(idOrName); sn != nil {
		return sn
	}
	for _, sn := range s.snapshots {
		if !sn.removed && sn.general && sn.name == idOrName {
			return sn
		}
	}
	if isUUID(idOrName) {
		if sn, ok := s.snapshots[strings.ToLower(idOrName)]; ok && !sn.removed {
			return sn
		}
	}
	return nil
}

// snapshotByID is the id-only lookup behind ParseUUIDPipe routes.
func (s *Server) snapshotByID(c *call) (*snapshot, reply, bool) {
	id := c.params["id"]
	if !isUUID(id) {
		return nil, errorReply(http.StatusBadRequest, "Validation failed (uuid is expected)"), false
	}
	sn, ok := s.snapshots[strings.ToLower(id)]
	if !ok || sn.removed {
		return nil, errorReply(http.StatusNotFound, "Snapshot %s not found", id), false
	}
	return sn, reply{}, true
}

func (s *Server) getSnapshot(c *call) reply {
	sn := s.findSnapshot(c.params["id"])
	if sn == nil {
		// A snapshot a box's job is still making is not there yet
		// (snapshotSandbox); the read moves the job on as a read of the
		// box would.
		for _, sb := range s.sandboxes {
			if sb.makingSnapshot != "" && sb.makingSnapshot == c.params["id"] {
				s.pollSandbox(sb, c.now)
				break
			}
		}
		return errorReply(http.StatusNotFound, "Snapshot %s not found", c.params["id"])
	}
	s.pollSnapshot(sn, c.now)
	if sn.removed {
		return errorReply(http.StatusNotFound, "Snapshot %s not found", c.params["id"])
	}
	return reply{status: http.StatusOK, body: s.snapshotDTO(sn)}
}

type paginatedSnapshots struct {
	Items      []snapshotJSON `json:"items"`
	Total      int            `json:"total"`
	Page       int            `json:"page"`
	TotalPages int            `json:"totalPages"`
}

// listSnapshots is getAllSnapshots (snapshot.service.ts:452-513): the
// organization's snapshots and the general ones, name filtered by
// case-insensitive substring, general ones last, then by the sort field
// (nulls last) and createdAt descending.
func (s *Server) listSnapshots(c *call) reply {
	page, limit := queryInt(c, "page", 1), queryInt(c, "limit", 100)
	field, order := c.query.Get("sort"), c.query.Get("order")
	if field == "" {
		field = "lastUsedAt"
	}
	desc := order != "asc"
	name := strings.ToLower(c.query.Get("name"))
	var all []*snapshot
	for _, sn := range s.snapshots {
		if !sn.removed && strings.Contains(strings.ToLower(sn.name), name) {
			all = append(all, sn)
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.general != b.general {
			return !a.general
		}
		if cmp := compareSnapshots(a, b, field); cmp != 0 {
			if cmp == 2 || cmp == -2 { // a null sorts last whatever the direction
				return cmp < 0
			}
			if desc {
				return cmp > 0
			}
			return cmp < 0
		}
		if !a.createdAt.Equal(b.createdAt) {
			return a.createdAt.After(b.createdAt)
		}
		return a.seq > b.seq
	})
	out := paginatedSnapshots{Items: []snapshotJSON{}, Total: len(all), Page: page,
		TotalPages: int(math.Ceil(float64(len(all)) / float64(limit)))}
	for i := (page - 1) * limit; i < len(all) && i < page*limit; i++ {
		out.Items = append(out.Items, s.snapshotDTO(all[i]))
	}
	return reply{status: http.StatusOK, body: out}
}

// compareSnapshots orders two snapshots by a sort field: -1/1 as usual, 0
// when equal, -2/2 when one side is null (-2: only b is null).
func compareSnapshots(a, b *snapshot, field string) int {
	switch field {
	case "name":
		return strings.Compare(a.name, b.name)
	case "state":
		return strings.Compare(a.state, b.state)
	case "createdAt":
		return compareTimes(a.createdAt, b.createdAt)
	default: // lastUsedAt
		switch {
		case a.lastUsedAt == nil && b.lastUsedAt == nil:
			return 0
		case a.lastUsedAt == nil:
			return 2
		case b.lastUsedAt == nil:
			return -2
		}
		return compareTimes(*a.lastUsedAt, *b.lastUsedAt)
	}
}

func compareTimes(a, b time.Time) int {
	switch {
	case a.Before(b):
		return -1
	case a.After(b):
		return 1
	}
	return 0
}

func queryInt(c *call, name string, def int) int {
	if v := c.query.Get(name); v != "" {
		if f, err := strconv.ParseFloat(v, 64); err == nil && f >= 1 {
			return int(f)
		}
	}
	return def
}

// deleteSnapshot is removeSnapshot (snapshot.service.ts:433-450): general
// snapshots are refused; the snapshot goes "removing" and is gone once
// that settles.
func (s *Server) deleteSnapshot(c *call) reply {
	sn, rep, ok := s.snapshotByID(c)
	if !ok {
		return rep
	}
	if sn.general {
		return errorReply(http.StatusForbidden, "You cannot delete a general snapshot")
	}
	// The snapshot reads removing until the check-snapshot-state cron's
	// handleSnapshotStateRemoving (snapshot.manager.ts:908) deletes it.
	sn.state, sn.updatedAt = snapRemoving, c.now
	s.startTransition(&sn.tr, &sn.state, &transition{stages: []string{snapRemoving}, to: snapRemoving,
		done: func(time.Time) { sn.removed = true }}, c.now)
	return reply{status: http.StatusOK}
}

// activateSnapshot is snapshot.service.ts:730-805: only an inactive
// snapshot, and not within 10 minutes of its deactivation; it goes back to
// pending and is pulled again.
func (s *Server) activateSnapshot(c *call) reply {
	sn, rep, ok := s.snapshotByID(c)
	if !ok {
		return rep
	}
	if sn.state == snapActive {
		return errorReply(http.StatusBadRequest, "Snapshot %s is already active", sn.id)
	}
	if sn.state != snapInactive {
		return errorReply(http.StatusBadRequest, "Snapshot %s cannot be activated - it is in %s state", sn.id, sn.state)
	}
	if c.now.Sub(sn.updatedAt) < 10*time.Minute {
		return errorReply(http.StatusBadRequest, "Snapshot deactivation is still in progress. Please try again in a few minutes.")
	}
	sn.state, sn.updatedAt = snapPending, c.now
	s.startTransition(&sn.tr, &sn.state, &transition{stages: []string{snapPending, snapPulling}, to: snapActive, done: sn.activated}, c.now)
	return reply{status: http.StatusOK, body: s.snapshotDTO(sn)}
}

// deactivateSnapshot is snapshot.service.ts:840-860: any state becomes
// inactive; an inactive one is left alone.
func (s *Server) deactivateSnapshot(c *call) reply {
	sn, rep, ok := s.snapshotByID(c)
	if !ok {
		return rep
	}
	if sn.state != snapInactive {
		sn.state, sn.tr, sn.updatedAt = snapInactive, nil, c.now
	}
	return reply{status: http.StatusNoContent}
}

// buildLogsURL is snapshot.controller.ts:303-325: only snapshots built from
// buildInfo have logs. The URL points back at the fake (buildLogsPrefix).
func (s *Server) buildLogsURL(c *call) reply {
	sn, ok := s.snapshots[strings.ToLower(c.params["id"])]
	if !ok || sn.removed {
		return errorReply(http.StatusNotFound, "Snapshot %s not found", c.params["id"])
	}
	if sn.build == nil {
		return errorReply(http.StatusNotFound, "Snapshot %s has no build info", c.params["id"])
	}
	return reply{status: http.StatusOK, body: map[string]string{"url": s.URL() + buildLogsPrefix + sn.id + "/build-logs"}}
}

// buildLogs is the deprecated GET /snapshots/{id}/build-logs: the log text
// itself.
func (s *Server) buildLogs(c *call) reply {
	sn := s.findSnapshot(c.params["id"])
	if sn == nil {
		return errorReply(http.StatusNotFound, "Snapshot %s not found", c.params["id"])
	}
	if sn.build == nil {
		return errorReply(http.StatusNotFound, "Snapshot %s has no build info", c.params["id"])
	}
	return reply{status: http.StatusOK, text: strings.Join(sn.logs, "\n") + "\n"}
}
