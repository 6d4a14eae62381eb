package badinput_test

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/volume"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal/modalfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platforms"
	"github.com/sbxhq/terraform-provider-sbx/internal/provider"
)

// The credentials the fakes accept.
const (
	e2bKey     = "e2b_badinput_key_41c7"
	daytonaKey = "dtn_badinput_key_7a20"
	flyToken   = "fly_badinput_token_93be"
	flyApp     = "sbx-badinput"
	modalApp   = "sbx-badinput"
)

// The platforms a row runs against.
const (
	docker  = "docker"
	e2b     = "e2b"
	daytona = "daytona"
	fly     = "fly"
	modal   = "modal"
)

// target is one platform set up for one row: the provider block pointing
// at it, the provider served to the terraform CLI, and what it made.
type target struct {
	// block is the provider block; extra lines go inside it, beside the
	// platform's own block.
	block func(extra ...string) string
	// platformBlock is the platform's own block with inner lines added
	// inside it ("" for Docker without inner lines).
	platformBlock func(inner ...string) string
	// factories serve a provider of the provider's registered platforms,
	// whose waits end at once, to the terraform CLI.
	factories map[string]func() (tfprotov6.ProviderServer, error)
	// made lists every create the platform received and every object it
	// holds; empty when the row made nothing.
	made func() []string
	// modal is the row's Modal workspace (modal rows only).
	modal *modalfake.Workspace
	// daytona is the row's Daytona fake (daytona rows only).
	daytona *daytonafake.Server
}

// factories serves the provider with its registered platforms, waits
// ending at once, to the terraform CLI.
func factories(opts provider.Options) map[string]func() (tfprotov6.ProviderServer, error) {
	opts.Platforms = platforms.All()
	opts.Hooks = acctest.NoWaitHooks()
	return acctest.Factories(provider.NewWithOptions("test", opts))
}

// owner is the provider block's owner of a row: every object the row
// could make carries it, so a Docker engine shared with other tests can
// still be asked for the row's objects alone.
func owner(t *testing.T) string {
	sum := sha256.Sum256([]byte(t.Name()))
	return "badinput-" + hex.EncodeToString(sum[:6])
}

// providerBlock is a provider "sbx" block holding lines and the platform
// block pb (empty: none, Docker by default).

// inner renders lines inside a platform block.
func inner(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString("    " + l + "\n")
	}
	return b.String()
}

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

// newTarget sets up the platform name for t.
func newTarget(t *testing.T, name string) *target {
	t.Helper()
	own := fmt.Sprintf("owner = %q", owner(t))
	switch name {
	case docker:
		return dockerTarget(t, own)
	case e2b:
		fake := e2bfake.New(t, e2bfake.Options{APIKey: e2bKey})
		t.Cleanup(func() { specViolations(t, fake.SpecViolations()) })
		pb := func(in ...string) string {
			return fmt.Sprintf("  e2b {\n    api_key = %q\n    api_url = %q\n%s  }\n", e2bKey, fake.URL(), inner(in))
		}
		return &target{
			block:         func(extra ...string) string { return providerBlock(pb(), append([]string{own}, extra...)) },
			platformBlock: pb,
			factories:     factories(provider.Options{}),
			made: func() []string {
				out := requests(fake.Requests, "POST /v3/templates", "POST /v2/templates/{templateID}/builds/{buildID}",
					"POST /sandboxes", "POST /volumes", "POST /sandboxes/{sandboxID}/snapshots")
				for _, s := range fake.Sandboxes() {
					out = append(out, "sandbox "+s.ID)
				}
				for _, v := range fake.Templates() {
					out = append(out, "template "+v.ID)
				}
				for _, v := range fake.Volumes() {
					out = append(out, "volume "+v.ID)
				}
				for _, v := range fake.Snapshots() {
					out = append(out, "snapshot "+v.SnapshotID)
				}
				return out
			},
		}
	case daytona:
		fake := daytonafake.New(t, daytonafake.Options{APIKey: daytonaKey})
		t.Cleanup(func() { specViolations(t, fake.SpecViolations()) })
		pb := func(in ...string) string {
			return fmt.Sprintf("  daytona {\n    api_key = %q\n    api_url = %q\n%s  }\n", daytonaKey, fake.URL(), inner(in))
		}
		seeded := len(fake.Snapshots())
		return &target{
			block:         func(extra ...string) string { return providerBlock(pb(), append([]string{own}, extra...)) },
			platformBlock: pb,
			factories:     factories(provider.Options{}),
			daytona:       fake,
			made: func() []string {
				out := requests(fake.Requests, "POST /snapshots", "POST /sandbox", "POST /volumes",
					"POST /sandbox/{sandboxIdOrName}/snapshot")
				for _, s := range fake.Sandboxes() {
					out = append(out, "sandbox "+s.ID)
				}
				if snaps := fake.Snapshots(); len(snaps) > seeded {
					out = append(out, fmt.Sprintf("%d snapshots (%d seeded)", len(snaps), seeded))
				}
				for _, v := range fake.Volumes() {
					out = append(out, "volume "+v.ID)
				}
				return out
			},
		}
	case fly:
		fake := flyfake.New(t, flyfake.Options{APIToken: flyToken, Apps: []string{flyApp}})
		t.Cleanup(func() { specViolations(t, fake.SpecViolations()) })
		pb := func(in ...string) string {
			return fmt.Sprintf("  fly {\n    api_token = %q\n    app       = %q\n    api_url   = %q\n%s  }\n",
				flyToken, flyApp, fake.URL(), inner(in))
		}
		return &target{
			block:         func(extra ...string) string { return providerBlock(pb(), append([]string{own}, extra...)) },
			platformBlock: pb,
			factories:     factories(provider.Options{}),
			made: func() []string {
				out := requests(fake.Requests, "POST /apps", "POST /apps/{app_name}/machines", "POST /apps/{app_name}/volumes",
					"POST /apps/{app_name}/volumes/{volume_id}/snapshots")
				for _, m := range fake.Machines() {
					out = append(out, "machine "+m.ID)
				}
				for _, v := range fake.Volumes() {
					out = append(out, "volume "+v.ID)
				}
				return out
			},
		}
	case modal:
		ws := modalFake.NewWorkspace(t)
		pb := func(in ...string) string {
			return fmt.Sprintf("  modal {\n    token_id     = %q\n    token_secret = %q\n    app          = %q\n%s  }\n",
				ws.TokenID(), ws.TokenSecret(), modalApp, inner(in))
		}
		return &target{
			block:         func(extra ...string) string { return providerBlock(pb(), append([]string{own}, extra...)) },
			platformBlock: pb,
			factories:     factories(provider.Options{Clock: ws}),
			modal:         ws,
			made: func() []string {
				var out []string
				for _, rpc := range []string{"SandboxCreate", "SandboxCreateV2", "SandboxRestore", "SandboxRestoreV2",
					"ImageGetOrCreate", "SandboxSnapshot", "TaskSnapshotFilesystem", "TaskSnapshotMemory"} {
					if n := ws.Calls(rpc); n > 0 {
						out = append(out, fmt.Sprintf("%d %s calls", n, rpc))
					}
				}
				for _, s := range ws.Sandboxes() {
					out = append(out, "sandbox "+s.ID)
				}
				return out
			},
		}
	}
	t.Fatalf("no platform %q", name)
	return nil
}

// dockerTarget is the Docker platform: the engine of DOCKER_HOST or the
// local socket. A row that gets past validation needs the engine; what it
// made is asked of the engine by the row's owner label, when there is one.
func dockerTarget(t *testing.T, own string) *target {
	label := platform.LabelPrefix + "owner=" + owner(t)
	return &target{
		block: func(extra ...string) string { return providerBlock("", append([]string{own}, extra...)) },
		platformBlock: func(in ...string) string {
			if len(in) == 0 {
				return ""
			}
			return "  docker {\n" + inner(in) + "  }\n"
		},
		factories: factories(provider.Options{}),
		made: func() []string {
			c := acctest.DockerClient(t)
			ctx := context.Background()
			f := filters.NewArgs(filters.Arg("label", label))
			var out []string
			cs, err := c.ContainerList(ctx, container.ListOptions{All: true, Filters: f})
			if err != nil {
				t.Fatalf("listing containers: %v", err)
			}
			for _, x := range cs {
				out = append(out, "container "+x.ID)
			}
			vs, err := c.VolumeList(ctx, volume.ListOptions{Filters: f})
			if err != nil {
				t.Fatalf("listing volumes: %v", err)
			}
			for _, x := range vs.Volumes {
				out = append(out, "volume "+x.Name)
			}
			is, err := c.ImageList(ctx, image.ListOptions{Filters: f})
			if err != nil {
				t.Fatalf("listing images: %v", err)
			}
			for _, x := range is {
				out = append(out, "image "+x.ID)
			}
			return out
		},
	}
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
		if _, err := c.ImageRemove(context.Background(), inspect.ID, image.RemoveOptions{Force: true}); err != nil {
			t.Errorf("removing %s: %v", ref, err)
		}
	})
	return inspect.ID
}

// requests names every route of routes that received a request.
func requests(count func(string) int, routes ...string) []string {
	var out []string
	for _, r := range routes {
		if n := count(r); n > 0 {
			out = append(out, fmt.Sprintf("%d × %s", n, r))
		}
	}
	return out
}

func specViolations(t *testing.T, v []string) {
	if len(v) > 0 {
		t.Errorf("requests or responses broke the platform's spec:\n%s", strings.Join(v, "\n"))
	}
}
