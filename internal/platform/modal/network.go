package modal

import (
	"net"

	modal "github.com/modal-labs/modal-client/go"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// applyNetwork sets a box's outbound network. Destinations to allow make
// Modal's allowlist mode (everything else blocked): CIDR blocks and
// addresses go to its CIDR list, names (*.example.com allowed) to its
// domain list. With none, internet = false blocks all traffic; otherwise
// the box has Modal's default, open access.
func applyNetwork(params *modal.SandboxCreateParams, n *platform.Network) {
	if n == nil {
		return
	}
	if len(n.AllowOut) == 0 {
		params.BlockNetwork = n.InternetOff()
		return
	}
	cidrs, domains := &modal.Allowlist{}, &modal.Allowlist{}
	for _, dest := range n.AllowOut {
		if cidr, ok := asCIDR(dest); ok {
			cidrs.Entries = append(cidrs.Entries, cidr)
		} else {
			domains.Entries = append(domains.Entries, dest)
		}
	}
	params.OutboundCIDRAllowlist, params.OutboundDomainAllowlist = cidrs, domains
}

// asCIDR is dest as a CIDR block: itself when it is one, a one-address
// block when it is an address; false for a name.
func asCIDR(dest string) (string, bool) {
	if _, _, err := net.ParseCIDR(dest); err == nil {
		return dest, true
	}
	ip := net.ParseIP(dest)
	switch {
	case ip == nil:
		return "", false
	case ip.To4() != nil:
		return dest + "/32", true
	}
	return dest + "/128", true
}
