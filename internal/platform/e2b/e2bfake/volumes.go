package e2bfake

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"

	"github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"
)

type volumeAndTokenJSON struct {
	VolumeID string `json:"volumeID"`
	Name     string `json:"name"`
	Token    string `json:"token"`
}

type volumeJSON struct {
	VolumeID string `json:"volumeID"`
	Name     string `json:"name"`
}

func itoa(n int) string { return strconv.Itoa(n) }

func (s *Server) createVolume(c *call) reply {
	if s.noVolumes {
		return errorReply(http.StatusForbidden, "volumes are not enabled for this team")
	}
	var req struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(c.body, &req); err != nil {
		return errorReply(http.StatusBadRequest, "invalid body: %v", err)
	}
	if s.volumeByName(req.Name) != nil {
		return errorReply(http.StatusBadRequest, "volume with name %q already exists", req.Name)
	}
	v := &volume{seq: s.nextSeq(), id: randomID(20), name: req.Name, token: randomID(40), createdAt: c.now, listedFrom: s.listedFrom(c.now)}
	s.volumes[v.id] = v
	return reply{status: http.StatusCreated, body: volumeAndTokenJSON{VolumeID: v.id, Name: v.name, Token: v.token}}
}

func (s *Server) getVolume(c *call) reply {
	v, ok := s.volumes[c.params["volumeID"]]
	if !ok {
		return errorReply(http.StatusNotFound, "volume %q not found", c.params["volumeID"])
	}
	return reply{status: http.StatusOK, body: volumeAndTokenJSON{VolumeID: v.id, Name: v.name, Token: v.token}}
}

func (s *Server) listVolumes(c *call) reply {
	all := slices.DeleteFunc(fakeapi.Oldest(s.volumes, func(v *volume) int64 { return v.seq }),
		func(v *volume) bool { return !listed(v.listedFrom, c.now) })
	out := []volumeJSON{}
	for _, v := range all {
		out = append(out, volumeJSON{VolumeID: v.id, Name: v.name})
	}
	return reply{status: http.StatusOK, body: out}
}

func (s *Server) deleteVolume(c *call) reply {
	if _, ok := s.volumes[c.params["volumeID"]]; !ok {
		return errorReply(http.StatusNotFound, "volume %q not found", c.params["volumeID"])
	}
	delete(s.volumes, c.params["volumeID"])
	return reply{status: http.StatusNoContent}
}
