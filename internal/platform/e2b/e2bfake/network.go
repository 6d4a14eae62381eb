package e2bfake

import (
	"encoding/json"
	"net"
	"net/http"
	"slices"
)

// allTraffic is E2B's ALL_TRAFFIC CIDR.
const allTraffic = "0.0.0.0/0"

// networkJSON is the egress part of SandboxNetworkConfig the fake keeps:
// E2B reports the lists as they were given.
type networkJSON struct {
	AllowOut []string `json:"allowOut,omitempty"`
	DenyOut  []string `json:"denyOut,omitempty"`
}

// egress is a copy of n's egress lists, nil when it holds none.
func (n *networkJSON) egress() *networkJSON {
	if n == nil || (len(n.AllowOut) == 0 && len(n.DenyOut) == 0) {
		return nil
	}
	return &networkJSON{AllowOut: slices.Clone(n.AllowOut), DenyOut: slices.Clone(n.DenyOut)}
}

// specifiedIPOrCIDR is E2B's check of an egress address: an IP or CIDR
// whose address is not unspecified (0.0.0.0, ::), ALL_TRAFFIC aside.
func specifiedIPOrCIDR(s string) bool {
	if s == allTraffic {
		return true
	}
	if ip := net.ParseIP(s); ip != nil {
		return !ip.IsUnspecified()
	}
	ip, _, err := net.ParseCIDR(s)
	return err == nil && !ip.IsUnspecified()
}

// isIPOrCIDR tells an address entry of allowOut from a domain.
func isIPOrCIDR(s string) bool {
	if net.ParseIP(s) != nil {
		return true
	}
	_, _, err := net.ParseCIDR(s)
	return err == nil
}

// checkEgress applies E2B's egress rules (e2b-dev/infra,
// handlers/sandbox_create.go validateEgressRules): denyOut holds addresses
// only; allowOut addresses must be specified; a domain in allowOut needs
// ALL_TRAFFIC in denyOut (allow_internet_access = false does not count).
func checkEgress(allowOut, denyOut []string) (reply, bool) {
	for _, d := range denyOut {
		if !specifiedIPOrCIDR(d) {
			return errorReply(http.StatusBadRequest, "invalid denied CIDR %s", d), false
		}
	}
	domains := false
	for _, a := range allowOut {
		if !isIPOrCIDR(a) {
			domains = true
			continue
		}
		if !specifiedIPOrCIDR(a) {
			return errorReply(http.StatusBadRequest, "invalid allowed address %s", a), false
		}
	}
	if domains && !slices.Contains(denyOut, allTraffic) {
		return errorReply(http.StatusBadRequest, "When specifying allowed domains in allow out, you must include "+
			"'ALL_TRAFFIC' in deny out to block all other traffic."), false
	}
	return reply{}, true
}

// updateSandboxNetwork replaces a running box's egress rules, as E2B's PUT
// does: the lists given replace the old ones (a list left out clears them),
// allow_internet_access changes only when given. E2B keeps live boxes only
// in its sandbox store, so a paused box is not found.
func (s *Server) updateSandboxNetwork(c *call) reply {
	sb, rep, ok := s.sandboxOr404(c)
	if !ok {
		return rep
	}
	var req struct {
		AllowOut      []string `json:"allowOut"`
		DenyOut       []string `json:"denyOut"`
		AllowInternet *bool    `json:"allow_internet_access"`
	}
	if err := json.Unmarshal(c.body, &req); err != nil {
		return errorReply(http.StatusBadRequest, "Error when parsing request: %v", err)
	}
	if rep, ok := checkEgress(req.AllowOut, req.DenyOut); !ok {
		return rep
	}
	if rep, refused := refusePausing(sb); refused {
		return rep
	}
	if sb.state != stateRunning {
		return errorReply(http.StatusNotFound, "Sandbox %q doesn't exist or you don't have access to it", sb.id)
	}
	sb.network = (&networkJSON{AllowOut: req.AllowOut, DenyOut: req.DenyOut}).egress()
	if req.AllowInternet != nil {
		internet := *req.AllowInternet
		sb.allowInternetAccess = &internet
	}
	sb.networkUpdates++
	return reply{status: http.StatusNoContent}
}
