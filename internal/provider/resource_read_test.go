package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// TestReadGoneGivesPlatformReason: a read that finds an object gone
// removes it from state with a warning that carries the platform's reason
// when its not-found error gives one (also wrapped), and no reason
// sentence when it does not.
func TestReadGoneGivesPlatformReason(t *testing.T) {
	const reason = "finished: timed out (exit code 124)"
	const said = "The platform says why it is gone: " + reason + "."
	cases := []struct {
		name string
		err  error
		want string // "" = no reason in the warning
	}{
		{name: "with a reason", err: &platform.NotFoundError{Kind: "sandbox", ID: "box1", Reason: reason}, want: said},
		{name: "wrapped, with a reason", err: fmt.Errorf("get: %w", &platform.NotFoundError{Kind: "sandbox", ID: "box1", Reason: reason}),
			want: said},
		{name: "without a reason", err: &platform.NotFoundError{Kind: "sandbox", ID: "box1"}},
		{name: "the bare sentinel", err: fmt.Errorf("lookup: %w", platform.ErrNotFound)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := goneReason(tc.err); (got != "") != (tc.want != "") {
				t.Errorf("goneReason = %q", got)
			}
			reads := map[string]func(*testing.T) diag.Diagnostics{
				"sandbox": func(t *testing.T) diag.Diagnostics { return readGoneSandbox(t, tc.err) },
				"volume":  func(t *testing.T) diag.Diagnostics { return readGoneVolume(t, tc.err) },
			}
			for kind, read := range reads {
				diags := read(t)
				if diags.HasError() || diags.WarningsCount() != 1 {
					t.Fatalf("%s: want one warning, got %v", kind, diags)
				}
				detail := diags.Warnings()[0].Detail()
				if tc.want != "" && !strings.Contains(detail, tc.want) {
					t.Errorf("%s: %q lacks %q", kind, detail, tc.want)
				}
				if tc.want == "" && strings.Contains(detail, "says why") {
					t.Errorf("%s: %q gives a reason the platform did not", kind, detail)
				}
			}
		})
	}
	if got := goneReason(errors.New("connection refused")); got != "" {
		t.Errorf("goneReason of another error = %q, want none", got)
	}
}

// readGoneSandbox reads a sandbox whose Get fails with err.
func readGoneSandbox(t *testing.T, err error) diag.Diagnostics {
	t.Helper()
	ctx := context.Background()
	r := &sandboxResource{platform: &sandboxFakePlatform{boxes: &sandboxFakeBoxes{err: err}}}
	state, _ := sandboxTestSchemaOf(t, r)
	m := sandboxTestModel()
	m.Timeouts = sandboxTestTimeouts()
	sandboxTestMustSet(t, state.Set(ctx, m))
	resp := resource.ReadResponse{State: state}
	r.Read(ctx, resource.ReadRequest{State: state}, &resp)
	if !resp.State.Raw.IsNull() {
		t.Errorf("sandbox: state not removed")
	}
	return resp.Diagnostics
}

// readGoneVolume reads a volume whose Get fails with err.
func readGoneVolume(t *testing.T, err error) diag.Diagnostics {
	t.Helper()
	ctx := context.Background()
	r := &volumeResource{platform: &sandboxFakePlatform{vols: &sandboxFakeVolumes{err: err}}}
	state, _ := sandboxTestSchemaOf(t, r)
	m := volumeTestModel()
	m.Timeouts = sandboxTestTimeouts()
	sandboxTestMustSet(t, state.Set(ctx, m))
	resp := resource.ReadResponse{State: state}
	r.Read(ctx, resource.ReadRequest{State: state}, &resp)
	if !resp.State.Raw.IsNull() {
		t.Errorf("volume: state not removed")
	}
	return resp.Diagnostics
}
