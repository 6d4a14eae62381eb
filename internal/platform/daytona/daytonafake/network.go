package daytonafake

import (
	"encoding/json"
	"net/http"
	"strings"
)

// updateNetworkSettings is updateNetworkSettings (sandbox.service.ts:
// 3067-3136): an empty list clears it; blocking all clears the allow list;
// a non-empty allow list unblocks; unblocking without a list clears it. The
// domain allow list is stored as sent (its validation is not modelled).
func (s *Server) updateNetworkSettings(c *call) reply {
	sb, rep, ok := s.sandboxOr404(c)
	if !ok {
		return rep
	}
	var req struct {
		NetworkBlockAll  *bool   `json:"networkBlockAll"`
		NetworkAllowList *string `json:"networkAllowList"`
		DomainAllowList  *string `json:"domainAllowList"`
	}
	if err := json.Unmarshal(c.body, &req); err != nil {
		return errorReply(http.StatusBadRequest, "invalid body: %v", err)
	}
	if req.NetworkAllowList != nil && strings.TrimSpace(*req.NetworkAllowList) != "" {
		if msg := validateNetworkAllowList(*req.NetworkAllowList); msg != "" {
			return errorReply(http.StatusBadRequest, "%s", msg)
		}
	}
	if req.DomainAllowList != nil {
		sb.domainAllowList = nil
		if strings.TrimSpace(*req.DomainAllowList) != "" {
			sb.domainAllowList = strPtr(*req.DomainAllowList)
		}
	}
	if req.NetworkBlockAll != nil {
		sb.networkBlockAll = *req.NetworkBlockAll
		if *req.NetworkBlockAll {
			sb.networkAllowList = nil
		}
	}
	switch {
	case req.NetworkAllowList != nil && strings.TrimSpace(*req.NetworkAllowList) == "":
		sb.networkAllowList = nil
	case req.NetworkAllowList != nil:
		sb.networkAllowList, sb.networkBlockAll = strPtr(*req.NetworkAllowList), false
	case req.NetworkBlockAll != nil && !*req.NetworkBlockAll:
		sb.networkAllowList = nil
	}
	sb.updatedAt = c.now
	return s.sandboxReply(sb)
}

// setPublic is updatePublicStatus (sandbox.service.ts:2688-2699).
func (s *Server) setPublic(c *call) reply {
	sb, rep, ok := s.sandboxOr404(c)
	if !ok {
		return rep
	}
	sb.public, sb.updatedAt = c.params["isPublic"] == "true", c.now
	return s.sandboxReply(sb)
}
