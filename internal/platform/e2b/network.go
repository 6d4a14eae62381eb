package e2b

import (
	"context"
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// allTraffic is the CIDR that stands for every destination: E2B denies it
// for a box created with allow_internet_access = false, and needs it in
// denyOut for an allowOut that names hosts.
const allTraffic = "0.0.0.0/0"

// networkRequest is the create request's allow_internet_access and network
// for n (nil, nil: E2B's default). A box without internet also sends
// allTraffic in denyOut: E2B accepts host names in allowOut only beside it.
func networkRequest(n *platform.Network) (*bool, *networkAPI) {
	if n == nil {
		return nil, nil
	}
	api := &networkAPI{AllowOut: slices.Clone(n.AllowOut), DenyOut: egressDenied(n)}
	if len(api.AllowOut) == 0 && len(api.DenyOut) == 0 {
		api = nil
	}
	return n.Internet, api
}

// networkUpdateRequest is the PUT /sandboxes/{id}/network body for n: the
// whole egress configuration, allow_internet_access always set (a box
// given no network settings any more gets the internet back).
func networkUpdateRequest(n platform.Network) networkUpdate {
	internet := !n.InternetOff()
	return networkUpdate{AllowOut: slices.Clone(n.AllowOut), DenyOut: egressDenied(&n), AllowInternetAccess: &internet}
}

// egressDenied is denyOut for n: its deny_out, and allTraffic when the box
// has no internet.
func egressDenied(n *platform.Network) []string {
	out := slices.Clone(n.DenyOut)
	if n.InternetOff() && !slices.Contains(out, allTraffic) {
		out = append(out, allTraffic)
	}
	return out
}

// networkOf is the network a box reports, in the resource's terms: the
// allTraffic denial a box without internet carries is not a deny_out of
// its own. nil when the box reports none.
func networkOf(d sandboxDetail) *platform.Network {
	if d.AllowInternetAccess == nil && d.Network == nil {
		return nil
	}
	n := &platform.Network{}
	if d.AllowInternetAccess != nil {
		v := *d.AllowInternetAccess
		n.Internet = &v
	}
	if d.Network != nil {
		n.AllowOut = slices.Clone(d.Network.AllowOut)
		n.DenyOut = slices.Clone(d.Network.DenyOut)
	}
	if n.InternetOff() {
		n.DenyOut = slices.DeleteFunc(n.DenyOut, func(s string) bool { return s == allTraffic })
	}
	if len(n.AllowOut) == 0 {
		n.AllowOut = nil
	}
	if len(n.DenyOut) == 0 {
		n.DenyOut = nil
	}
	return n
}

// isAddress reports whether s is an IP address or a CIDR block.
func isAddress(s string) bool {
	if _, err := netip.ParseAddr(s); err == nil {
		return true
	}
	_, err := netip.ParsePrefix(s)
	return err == nil
}

// networkProblems lists what E2B refuses in n, as problems of the network
// block: a deny_out entry that is not an address, an allow_out host name
// on a box with internet (E2B filters names only for a box denied all
// else), an unspecified address (0.0.0.0, ::).
func networkProblems(n *platform.Network) []platform.Problem {
	if n == nil {
		return nil
	}
	var out []platform.Problem
	problem := func(field, summary, detail string) {
		out = append(out, platform.Problem{Attribute: "network", Index: -1, Field: field, Summary: summary, Detail: detail})
	}
	for _, d := range n.DenyOut {
		if !isAddress(d) || unspecified(d) {
			problem("deny_out", "deny_out entry not an address on e2b",
				fmt.Sprintf("deny_out entry %q is not an IP address or CIDR block: E2B denies addresses only. "+
					"To reach only some hosts, set internet = false and list them in allow_out.", d))
		}
	}
	for _, a := range n.AllowOut {
		switch {
		case !isAddress(a) && !isHostPattern(a):
			problem("allow_out", "allow_out entry not an address or host name on e2b",
				fmt.Sprintf("allow_out entry %q is not a valid IP address, CIDR block or host name: %s. "+
					"Give an address (10.0.0.1), a CIDR block (10.0.0.0/8) or a host name (example.com, *.example.com).",
					a, whyNotAddress(a)))
		case isAddress(a) && unspecified(a):
			problem("allow_out", "allow_out entry unspecified on e2b",
				fmt.Sprintf("allow_out entry %q is an unspecified address, which E2B refuses.", a))
		case !isAddress(a) && !n.InternetOff():
			problem("allow_out", "allow_out host name needs internet = false on e2b",
				fmt.Sprintf("allow_out entry %q is a host name: E2B filters host names only for a box denied "+
					"everything else. Set internet = false in the network block (the box then reaches only allow_out).", a))
		}
	}
	return out
}

// isHostPattern reports whether s is a host name E2B can filter: DNS
// labels of letters, digits and '-' joined by dots, optionally after "*."
// (E2B matches "*.example.com" as any subdomain, and "*" as every name:
// e2b-dev/infra, packages/shared/pkg/sandbox-network/firewall.go,
// MatchDomainPattern). The last label is not all digits, so a malformed
// address such as 999.1.1.1 is not taken for a name. E2B itself takes every
// entry that is no address for a name (ParseAddressesAndDomains), so an
// invalid CIDR would be a filter that never matches.
func isHostPattern(s string) bool {
	if s == "*" {
		return true
	}
	name := strings.TrimPrefix(s, "*.")
	if name == "" || len(name) > 253 {
		return false
	}
	labels := strings.Split(strings.TrimSuffix(name, "."), ".")
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, r := range l {
			if r != '-' && (r < '0' || r > '9') && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') {
				return false
			}
		}
	}
	return strings.Trim(labels[len(labels)-1], "0123456789") != ""
}

// whyNotAddress says what is wrong with an entry that is neither an
// address nor a host name, as the address it most looks like.
func whyNotAddress(s string) string {
	if addr, bits, ok := strings.Cut(s, "/"); ok {
		if _, err := netip.ParseAddr(addr); err != nil {
			return fmt.Sprintf("%q is not an IP address", addr)
		}
		return fmt.Sprintf("/%s is not a prefix length of that address", bits)
	}
	if _, err := netip.ParseAddr(s); err != nil && strings.Trim(s, "0123456789.:abcdefABCDEF") == "" {
		return "it is not an IP address (" + strings.TrimPrefix(err.Error(), "ParseAddr("+strconv.Quote(s)+"): ") + ")"
	}
	return "a host name is labels of letters, digits and '-' joined by dots"
}

// unspecified reports whether an address or CIDR has the unspecified
// address (0.0.0.0, ::), allTraffic aside.
func unspecified(s string) bool {
	if s == allTraffic {
		return false
	}
	if a, err := netip.ParseAddr(s); err == nil {
		return a.IsUnspecified()
	}
	if p, err := netip.ParsePrefix(s); err == nil {
		return p.Addr().IsUnspecified()
	}
	return false
}

// networkRules checks a planned box's network block and auto_resume
// (Extensions.SandboxRules).
type networkRules struct{}

// CheckSandbox implements platform.SandboxRules: the network block and
// auto_resume.
func (networkRules) CheckSandbox(_ context.Context, plan platform.SandboxPlan) []platform.Problem {
	return append(networkProblems(plan.Spec.Network), autoResumeProblems(plan.Spec)...)
}

// networkError is networkProblems as one error, for the apply.
func networkError(n *platform.Network) error {
	problems := networkProblems(n)
	if len(problems) == 0 {
		return nil
	}
	msgs := make([]string, len(problems))
	for i, p := range problems {
		msgs[i] = p.Detail
	}
	return fmt.Errorf("network: %s", strings.Join(msgs, " "))
}

// autoResumeError is why E2B cannot resume a box by traffic unless it is
// paused with its memory at its timeout (its SDKs refuse the rest; the
// API refuses a filesystem-only pause with autoResume).
var autoResumeError = &platform.UnsupportedError{Platform: "e2b",
	Capability: `auto_resume without on_timeout = "pause" (only a box paused with its memory can be resumed by traffic)`}

// autoResumeProblems lists what E2B refuses of auto_resume: it needs
// on_timeout = "pause".
func autoResumeProblems(spec platform.SandboxSpec) []platform.Problem {
	if !spec.AutoResume || spec.Lifecycle.OnTimeout == platform.OnTimeoutPause {
		return nil
	}
	return []platform.Problem{{Attribute: "auto_resume", Index: -1, Summary: "auto_resume needs on_timeout = \"pause\" on e2b",
		Detail: "E2B resumes by traffic only a box paused with its memory at its timeout: set on_timeout = \"pause\" " +
			"(and a timeout), or remove auto_resume."}}
}
