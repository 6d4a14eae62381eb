package daytonafake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"
)

// volumeJSON is VolumeDto; errorReason and lastUsedAt are null when unset.
type volumeJSON struct {
	ID             string  `json:"id"`
	Name           string  `json:"name"`
	OrganizationID string  `json:"organizationId"`
	State          string  `json:"state"`
	CreatedAt      string  `json:"createdAt"`
	UpdatedAt      string  `json:"updatedAt"`
	LastUsedAt     *string `json:"lastUsedAt"`
	ErrorReason    *string `json:"errorReason"`
}

func (s *Server) volumeDTO(v *volume) volumeJSON {
	out := volumeJSON{ID: v.id, Name: v.name, OrganizationID: s.opts.OrganizationID, State: v.state,
		CreatedAt: stamp(v.createdAt), UpdatedAt: stamp(v.updatedAt), ErrorReason: v.errorReason}
	if v.lastUsedAt != nil {
		out.LastUsedAt = strPtr(stamp(*v.lastUsedAt))
	}
	return out
}

// createVolume is volume.service.ts:77-126: a name (default: the id) taken
// by a volume that is not deleted is a 400, not a 409.
func (s *Server) createVolume(c *call) reply {
	var req struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(c.body, &req); err != nil {
		return errorReply(http.StatusBadRequest, "invalid body: %v", err)
	}
	v := &volume{seq: s.nextSeq(), id: fakeapi.UUID(), name: req.Name, state: volPendingCreate, createdAt: c.now, updatedAt: c.now}
	if v.name == "" {
		v.name = v.id
	}
	if s.volumeByName(v.name) != nil {
		return errorReply(http.StatusBadRequest, "Volume with name %s already exists", v.name)
	}
	// The volume manager's cron (every 5 s, volume.manager.ts:108-170)
	// takes a pending_create volume to creating (:188) and, once its bucket
	// exists, to ready (:229).
	s.startTransition(&v.tr, &v.state, &transition{stages: []string{volPendingCreate, volCreating}, to: volReady,
		done: func(now time.Time) { v.updatedAt = now }}, c.now)
	s.volumes[v.id] = v
	return reply{status: http.StatusOK, body: s.volumeDTO(v)}
}

func (s *Server) volumeByName(name string) *volume {
	for _, v := range s.volumes {
		if v.state != volDeleted && v.name == name {
			return v
		}
	}
	return nil
}

// getVolume is findOne (volume.service.ts:172-182): by id, deleted volumes
// included (they stay as "<name>-deleted" rows, volume.manager.ts:272-284).
func (s *Server) getVolume(c *call) reply {
	v, ok := s.volumes[strings.ToLower(c.params["volumeId"])]
	if !ok {
		return errorReply(http.StatusNotFound, "Volume with ID %s not found", c.params["volumeId"])
	}
	s.pollVolume(v, c.now)
	return reply{status: http.StatusOK, body: s.volumeDTO(v)}
}

// getVolumeByName is findByName (volume.service.ts:200-215): deleted volumes
// are not found.
func (s *Server) getVolumeByName(c *call) reply {
	v := s.volumeByName(c.params["name"])
	if v == nil {
		return errorReply(http.StatusNotFound, "Volume with name %s not found", c.params["name"])
	}
	s.pollVolume(v, c.now)
	return reply{status: http.StatusOK, body: s.volumeDTO(v)}
}

// listVolumes is findAll (volume.service.ts:184-198), newest first.
func (s *Server) listVolumes(c *call) reply {
	includeDeleted := c.query.Get("includeDeleted") == "true"
	var all []*volume
	for _, v := range s.volumes {
		if includeDeleted || v.state != volDeleted {
			all = append(all, v)
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].seq > all[j].seq })
	out := []volumeJSON{}
	for _, v := range all {
		out = append(out, s.volumeDTO(v))
	}
	return reply{status: http.StatusOK, body: out}
}

// deleteVolume is volume.service.ts:128-170: ready or errored volumes only,
// and none that a sandbox not being destroyed mounts (409).
func (s *Server) deleteVolume(c *call) reply {
	v, ok := s.volumes[strings.ToLower(c.params["volumeId"])]
	if !ok {
		return errorReply(http.StatusNotFound, "Volume with ID %s not found", c.params["volumeId"])
	}
	if v.state != volReady && v.state != volError {
		return errorReply(http.StatusBadRequest, "Volume must be in '%s' or '%s' state in order to be deleted", volReady, volError)
	}
	if user := s.volumeUser(v.id); user != nil {
		return errorReply(http.StatusConflict, "Volume cannot be deleted because it is in use by one or more sandboxes (e.g. %s)", user.name)
	}
	s.beginVolumeDelete(v, c.now)
	return reply{status: http.StatusOK}
}

func (s *Server) beginVolumeDelete(v *volume, now time.Time) {
	v.state, v.updatedAt = volPendingDelete, now
	// pending_delete → deleting (volume.manager.ts:250) → deleted and
	// renamed (:272-284).
	s.startTransition(&v.tr, &v.state, &transition{stages: []string{volPendingDelete, volDeleting}, to: volDeleted,
		done: func(now time.Time) { v.name, v.updatedAt = v.name+"-deleted", now }}, now)
}

// volumeUser is a sandbox whose desired state is not "destroyed" and that
// mounts the volume, if any.
func (s *Server) volumeUser(id string) *sandbox {
	for _, sb := range s.sandboxes {
		if sb.desired == stateDestroyed {
			continue
		}
		for _, m := range sb.volumes {
			if m.VolumeID == id {
				return sb
			}
		}
	}
	return nil
}

// resolveVolumes is resolveVolumes (sandbox.service.ts:3334-3366) with
// getVolumesByIdOrName (volume.service.ts:219-281): each reference is an id
// or a name, must be ready, and the mount paths and subpaths must pass
// validateMountPaths / validateSubpaths
// (utils/volume-mount-path-validation.util.ts).
func (s *Server) resolveVolumes(mounts []sandboxVolume) ([]sandboxVolume, reply, bool) {
	out := []sandboxVolume{}
	for _, m := range mounts {
		var byID, byName *volume
		if isUUID(m.VolumeID) {
			if v, ok := s.volumes[strings.ToLower(m.VolumeID)]; ok && v.state != volDeleted {
				byID = v
			}
		}
		byName = s.volumeByName(m.VolumeID)
		if byID != nil && byName != nil && byID != byName {
			return nil, errorReply(http.StatusBadRequest, "Volume reference '%s' matches one volume's ID and another volume's name; rename the volume to remove the ambiguity", m.VolumeID), false
		}
		v := byID
		if v == nil {
			v = byName
		}
		if v == nil {
			return nil, errorReply(http.StatusNotFound, "Volume '%s' not found", m.VolumeID), false
		}
		if v.state != volReady {
			return nil, errorReply(http.StatusBadRequest, "Volume '%s' is not in a ready state. Current state: %s", v.name, v.state), false
		}
		out = append(out, sandboxVolume{VolumeID: v.id, MountPath: m.MountPath, Subpath: m.Subpath})
	}
	if msg := validateMountPaths(out); msg != "" {
		return nil, errorReply(http.StatusBadRequest, "%s", msg), false
	}
	if msg := validateSubpaths(out); msg != "" {
		return nil, errorReply(http.StatusBadRequest, "%s", msg), false
	}
	return out, reply{}, true
}

var systemDirs = []string{"/proc", "/sys", "/dev", "/boot", "/etc", "/bin", "/sbin", "/lib", "/lib64"}

// validateMountPaths is volume-mount-path-validation.util.ts:14-58; all
// problems are joined with ", ".
func validateMountPaths(mounts []sandboxVolume) string {
	var errs []string
	for _, m := range mounts {
		p := m.MountPath
		switch {
		case !strings.HasPrefix(p, "/"):
			errs = append(errs, fmt.Sprintf("Invalid mount path %s (must be absolute)", p))
		case p == "/" || p == "//":
			errs = append(errs, fmt.Sprintf("Invalid mount path %s (cannot mount to the root directory)", p))
		case strings.Contains(p, "/../") || strings.Contains(p, "/./") || strings.HasSuffix(p, "/..") || strings.HasSuffix(p, "/."):
			errs = append(errs, fmt.Sprintf("Invalid mount path %s (cannot contain relative path components)", p))
		case strings.Contains(p[1:], "//"):
			errs = append(errs, fmt.Sprintf("Invalid mount path %s (cannot contain consecutive slashes)", p))
		default:
			for _, dir := range systemDirs {
				if p == dir || strings.HasPrefix(p, dir+"/") {
					errs = append(errs, fmt.Sprintf("Invalid mount path %s (cannot mount to system directory)", p))
					break
				}
			}
		}
	}
	return strings.Join(errs, ", ")
}

// validateSubpaths is volume-mount-path-validation.util.ts:66-99: S3 key
// prefixes, so no leading slash, no "..", no "//".
func validateSubpaths(mounts []sandboxVolume) string {
	var errs []string
	for _, m := range mounts {
		p := m.Subpath
		switch {
		case p == "":
		case strings.HasPrefix(p, "/"):
			errs = append(errs, fmt.Sprintf("Invalid subpath %q (S3 key prefixes cannot start with /)", p))
		case strings.Contains(p, ".."):
			errs = append(errs, fmt.Sprintf("Invalid subpath %q (cannot contain .. for security)", p))
		case strings.Contains(p, "//"):
			errs = append(errs, fmt.Sprintf("Invalid subpath %q (cannot contain consecutive slashes)", p))
		}
	}
	return strings.Join(errs, ", ")
}
