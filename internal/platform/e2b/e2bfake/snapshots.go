package e2bfake

import (
	"encoding/json"
	"net/http"

	"github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"
)

type snapshotInfoJSON struct {
	SnapshotID string   `json:"snapshotID"`
	Names      []string `json:"names"`
}

func (s *Server) snapshotInfo(t *template) snapshotInfoJSON {
	names := []string{}
	if t.name != "" {
		names = append(names, s.fullName(t.name)+":"+defaultTag)
	}
	return snapshotInfoJSON{SnapshotID: s.snapshotID(t), Names: names}
}

// createSnapshot stores the sandbox as a snapshot template with one ready
// build. The sandbox keeps its ID and state. A name already used by a
// snapshot adds a build to that snapshot, as the spec describes.
//
// E2B snapshots only running sandboxes: it looks the box up among the live
// ones, where a paused box is not, and answers 404 with its "doesn't exist"
// message (e2b-dev/infra, handlers/snapshot_template_create.go), exactly as
// for a box that is gone.
func (s *Server) createSnapshot(c *call) reply {
	sb, rep, ok := s.sandboxOr404(c)
	if !ok {
		return rep
	}
	if rep, refused := refuseSnapshotOfPausing(sb); refused {
		return rep
	}
	if sb.state != stateRunning {
		return errorReply(http.StatusNotFound, "Sandbox %q doesn't exist or you don't have access to it", sb.id)
	}
	var req struct {
		Name *string `json:"name"`
	}
	if err := json.Unmarshal(c.body, &req); err != nil {
		return errorReply(http.StatusBadRequest, "invalid body: %v", err)
	}
	now := c.now.UTC()
	var t *template
	if req.Name != nil {
		name, _, ok := s.splitRef(*req.Name)
		if !ok || !templateName.MatchString(name) {
			return errorReply(http.StatusBadRequest, "invalid snapshot name %q: use lower-case letters, digits, '-' and '_'", *req.Name)
		}
		t = s.templateByName(name)
		if t != nil && !t.snapshot {
			return errorReply(http.StatusBadRequest, "name %q is taken by a template", name)
		}
		if t == nil {
			t = &template{seq: s.nextSeq(), id: randomID(20), name: name, createdAt: now, files: map[string]int{}, snapshot: true,
				listedFrom: s.listedFrom(now)}
		}
	} else {
		t = &template{seq: s.nextSeq(), id: randomID(20), createdAt: now, files: map[string]int{}, snapshot: true,
			listedFrom: s.listedFrom(now)}
	}
	t.fromSandbox, t.cpu, t.memMB, t.updatedAt = sb.id, sb.cpu, sb.memMB, now
	for _, old := range t.builds {
		old.tags = nil
	}
	t.builds = append(t.builds, &build{id: fakeapi.UUID(), status: buildReady, tags: []string{defaultTag}, cpu: sb.cpu, memMB: sb.memMB,
		createdAt: now, updatedAt: now, finishedAt: &now})
	s.templates[t.id] = t
	return reply{status: http.StatusCreated, body: s.snapshotInfo(t)}
}

func (s *Server) listSnapshots(c *call) reply {
	bySandbox := c.query.Get("sandboxID")
	var named *template
	if name := c.query.Get("name"); name != "" {
		if named, _ = s.findTemplate(name); named == nil {
			return reply{status: http.StatusOK, body: []snapshotInfoJSON{}}
		}
	}
	var all []*template
	for _, t := range s.templates {
		if !t.snapshot || !listed(t.listedFrom, c.now) || (bySandbox != "" && t.fromSandbox != bySandbox) || (named != nil && named != t) {
			continue
		}
		all = append(all, t)
	}
	page, next, err := paginate(all, func(t *template) cursorKey { return cursorKey{t.createdAt.UnixNano(), t.seq} }, true, c.query)
	if err != nil {
		return errorReply(http.StatusBadRequest, "%v", err)
	}
	out := []snapshotInfoJSON{}
	for _, t := range page {
		out = append(out, s.snapshotInfo(t))
	}
	return reply{status: http.StatusOK, body: out, header: nextTokenHeader(next)}
}
