package e2b

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// TestFakeNetworkRules: the fake answers the network settings as E2B does:
// a host name in allowOut needs 0.0.0.0/0 in denyOut (allow_internet_access
// = false does not count), denyOut holds addresses only, and the network
// of a paused box cannot be changed (it is "not found").
func TestFakeNetworkRules(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	ctx := context.Background()
	tpl := e2bTestTemplate(t, p)
	off := false
	for name, body := range map[string]newSandbox{
		"host without ALL_TRAFFIC": {TemplateID: tpl, Timeout: 60, AllowInternetAccess: &off, Network: &networkAPI{AllowOut: []string{"example.com"}}},
		"host denied":              {TemplateID: tpl, Timeout: 60, Network: &networkAPI{DenyOut: []string{"example.com"}}},
		"unspecified address":      {TemplateID: tpl, Timeout: 60, Network: &networkAPI{AllowOut: []string{"0.0.0.0"}}},
	} {
		if _, err := p.do(ctx, "POST", "/sandboxes", nil, body, nil); err == nil || !strings.Contains(err.Error(), "400") {
			t.Errorf("%s: %v, want a 400", name, err)
		}
	}
	if n := len(fake.Sandboxes()); n != 0 {
		t.Fatalf("refused creates made %d boxes", n)
	}
	box, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{TemplateID: tpl, State: platform.StatePaused,
		Network: &platform.Network{Internet: &off, AllowOut: []string{"example.com"}}})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if v, _ := fake.Sandbox(box.ID); !slices.Equal(v.DenyOut, []string{allTraffic}) || v.AllowInternetAccess == nil || *v.AllowInternetAccess {
		t.Errorf("created with %+v", v)
	}
	if got := box.Network; got == nil || !got.InternetOff() || !slices.Equal(got.AllowOut, []string{"example.com"}) || len(got.DenyOut) != 0 {
		t.Errorf("read back network %+v, want internet off, allow_out example.com, no deny_out", got)
	}
	_, err = p.do(ctx, "PUT", "/sandboxes/"+box.ID+"/network", nil, networkUpdateRequest(platform.Network{}), nil)
	if err == nil || !strings.Contains(err.Error(), "doesn't exist") {
		t.Errorf("network of a paused box: %v, want E2B's 404", err)
	}
	// Through Update: resumed, changed, paused again.
	if _, err := p.Sandboxes().Update(ctx, box.ID, platform.SandboxUpdate{Network: &platform.Network{DenyOut: []string{"10.0.0.0/8"}}}); err != nil {
		t.Fatalf("update: %v", err)
	}
	v, _ := fake.Sandbox(box.ID)
	if v.State != "paused" || !v.PausedWithMemory || v.NetworkUpdates != 1 || !slices.Equal(v.DenyOut, []string{"10.0.0.0/8"}) ||
		v.AllowInternetAccess == nil || !*v.AllowInternetAccess {
		t.Errorf("after the update: %+v", v)
	}
}
