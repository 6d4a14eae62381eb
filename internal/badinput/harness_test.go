package badinput_test

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/docker/docker/api/types/image"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/conformance"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest/kits"
)

// The platforms rows name; every platform of the registry must have rows
// (TestBadInputs).
const (
	docker  = "docker"
	e2b     = "e2b"
	daytona = "daytona"
	fly     = "fly"
	modal   = "modal"
	nothing = "nothing"
)

// settings are the platform-block settings a platform's rows choose in
// place of its kit's: E2B's rows run on the provider's default tier
// (base), whose limits they name.
var settings = map[string]map[string]string{
	e2b: {"tier": ""},
}

// target is one platform of the registry started for one row: its kit's
// instance, the provider served to the terraform CLI, and what the
// platform held and had received when the row began.
type target struct {
	*platformtest.Instance
	// factories serve a provider of the provider's registered platforms
	// (the instance's definition in its place), whose waits end at once,
	// to the terraform CLI.
	factories platformtest.Factories
	// before are the objects and make requests the platform had when the
	// row began (begin).
	before map[string]int
}

// owner is the provider block's owner of a row: every object the row
// could make carries it, so a Docker engine shared with other tests can
// still be asked for the row's objects alone.
func owner(t *testing.T) string {
	sum := sha256.Sum256([]byte(t.Name()))
	return "badinput-" + hex.EncodeToString(sum[:6])
}

// block is the provider block: the owner, extra lines beside the
// platform's own block, then that block.
func (tg *target) block() string { return tg.ProviderBlock() }

// providerBlock is a provider "sbx" block holding lines and the platform
// block pb (empty: none, Docker by default).
func providerBlock(pb string, lines []string) string {
	var b strings.Builder
	b.WriteString("provider \"sbx\" {\n")
	for _, l := range lines {
		b.WriteString("  " + l + "\n")
	}
	b.WriteString(pb)
	b.WriteString("}\n")
	return b.String()
}

// newTarget starts the registry's platform name for t.
func newTarget(t *testing.T, name string) *target {
	t.Helper()
	for _, e := range kits.All() {
		if e.Kit.Name() != name {
			continue
		}
		in := platformtest.Start(t, e.Kit, platformtest.KitOptions{Owner: owner(t), Settings: settings[name]})
		tg := &target{Instance: in, factories: conformance.Factories(in)}
		tg.begin(t)
		return tg
	}
	t.Fatalf("no platform %q in the registry", name)
	return nil
}

// begin records what the platform holds and has received now: made
// reports what came after.
func (tg *target) begin(t *testing.T) {
	t.Helper()
	tg.before = tg.holding(t)
}

// holding counts, by line, the objects the platform holds and the
// requests it received that make objects (its fault plan's Makes; none
// where it has no fault plan: Docker's objects are asked of the engine).
func (tg *target) holding(t *testing.T) map[string]int {
	t.Helper()
	out := map[string]int{}
	if tg.Faults != nil {
		for _, r := range tg.FaultPlan.Makes {
			if n := tg.Faults.Hits(r); n > 0 {
				out["× "+r] = n
			}
		}
	}
	for _, o := range tg.Objects(t) {
		out[o.Kind+" "+o.ID]++
	}
	return out
}

// made lists every make request the platform received and every object
// it holds since the row began; empty when the row made nothing.
func (tg *target) made(t *testing.T) []string {
	t.Helper()
	var out []string
	for line, n := range tg.holding(t) {
		if extra := n - tg.before[line]; extra > 0 {
			if route, ok := strings.CutPrefix(line, "× "); ok {
				out = append(out, fmt.Sprintf("%d × %s", extra, route))
			} else {
				out = append(out, line)
			}
		}
	}
	slices.Sort(out)
	return out
}

// plainImage is an image of the row's own, made outside the provider
// (an empty filesystem imported on the engine): not a snapshot, not a
// template. It is removed when the test ends.
func plainImage(t *testing.T, _ *target) string {
	c := acctest.RequireDocker(t)
	ctx := context.Background()
	var tarball bytes.Buffer
	if err := tar.NewWriter(&tarball).Close(); err != nil {
		t.Fatal(err)
	}
	ref := "sbx-badinput/plain:" + owner(t)
	rc, err := c.ImageImport(ctx, image.ImportSource{Source: &tarball, SourceName: "-"}, ref, image.ImportOptions{})
	if err != nil {
		t.Fatalf("importing %s: %v", ref, err)
	}
	_, _ = io.Copy(io.Discard, rc)
	_ = rc.Close()
	inspect, err := c.ImageInspect(ctx, ref)
	if err != nil {
		t.Fatalf("inspecting %s: %v", ref, err)
	}
	t.Cleanup(func() {
		if _, err := c.ImageRemove(context.Background(), inspect.ID, image.RemoveOptions{Force: true, PruneChildren: true}); err != nil {
			t.Errorf("removing %s: %v", ref, err)
		}
	})
	return inspect.ID
}
