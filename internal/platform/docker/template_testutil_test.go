package docker

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// templateTestDockerfile is the agent image plus a data file a test can
// change, and the file the sandboxes' ready_cmd looks for.
const templateTestDockerfile = acctest.AgentDockerfile +
	"COPY data.txt /data.txt\nENV AGENT_FILES=/ready=yes\n"

// templateTestName is a name no other test (or test run) uses.
func templateTestName(kind string) string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return "tf-acc-" + kind + "-" + hex.EncodeToString(b)
}

// templateTestPlatform is a Platform on the test engine.
func templateTestPlatform(t *testing.T) *Platform {
	t.Helper()
	return &Platform{api: acctest.DockerClient(t)}
}

// templateTestContext is a private copy of the agent build context (tests
// change files in it) with a data.txt holding data.
func templateTestContext(t *testing.T, data string) string {
	t.Helper()
	src := acctest.AgentContextDir(t)
	dir := t.TempDir()
	agent, err := os.ReadFile(filepath.Join(src, "agent"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "agent"), agent, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data.txt"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// templateTestCleanup removes, when the test ends, every image of the
// template called name (its current and older builds), then fails the test
// if any is left.
func templateTestCleanup(t *testing.T, api *client.Client, name string) {
	t.Helper()
	t.Cleanup(func() {
		ctx := context.Background()
		args := filters.NewArgs(filters.Arg("label", platform.LabelName+"="+name), filters.Arg("label", platform.LabelKind+"="+kindTemplate))
		images, err := api.ImageList(ctx, image.ListOptions{All: true, Filters: args})
		if err != nil {
			t.Errorf("cleanup: listing images: %v", err)
			return
		}
		for _, img := range images {
			_, _ = api.ImageRemove(ctx, img.ID, image.RemoveOptions{Force: true, PruneChildren: true})
		}
		_, _ = api.ImageRemove(ctx, TemplateID(name), image.RemoveOptions{Force: true, PruneChildren: true})
		left, _ := api.ImageList(ctx, image.ListOptions{All: true, Filters: args})
		if len(left) > 0 {
			t.Errorf("cleanup: %d images of template %s remain", len(left), name)
		}
		if _, err := api.ImageInspect(ctx, TemplateID(name)); err == nil {
			t.Errorf("cleanup: %s remains", TemplateID(name))
		}
	})
}

// templateTestCreate creates a template that is removed when the test ends.
func templateTestCreate(t *testing.T, p *Platform, spec platform.TemplateSpec) *platform.Template {
	t.Helper()
	templateTestCleanup(t, p.api, spec.Name)
	tmpl, err := p.Templates().Create(t.Context(), spec)
	if err != nil {
		t.Fatalf("creating template %s: %v", spec.Name, err)
	}
	return tmpl
}

// sandboxTestCleanup removes, when the test ends, every container named or
// labelled name, then fails the test if any is left.
func sandboxTestCleanup(t *testing.T, api *client.Client, name string) {
	t.Helper()
	t.Cleanup(func() {
		ctx := context.Background()
		find := func() []container.Summary {
			var out []container.Summary
			for _, args := range []filters.Args{
				filters.NewArgs(filters.Arg("label", platform.LabelName+"="+name)),
				filters.NewArgs(filters.Arg("name", "^/"+name+"$")),
			} {
				list, err := api.ContainerList(ctx, container.ListOptions{All: true, Filters: args})
				if err != nil {
					t.Errorf("cleanup: listing containers: %v", err)
				}
				out = append(out, list...)
			}
			return out
		}
		for _, c := range find() {
			_ = api.ContainerRemove(ctx, c.ID, container.RemoveOptions{Force: true})
		}
		if left := find(); len(left) > 0 {
			t.Errorf("cleanup: %d containers named %s remain", len(left), name)
		}
	})
}

func templateTestListAll() container.ListOptions { return container.ListOptions{All: true} }
