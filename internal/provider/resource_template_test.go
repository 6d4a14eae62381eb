package provider

import (
	"archive/tar"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/build"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"
	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	sbxacctest "github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/buildctx"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

const templateTestAddr = "sbx_template.test"

// templateTestDockerfile builds the agent and one file the tests change.
const templateTestDockerfile = sbxacctest.AgentDockerfile + "COPY version.txt /version.txt\n"

func TestAccTemplate_buildRebuildImport(t *testing.T) {
	cli := sbxacctest.DockerClient(t)
	name := acctest.RandomWithPrefix("tf-acc-tpl")
	id := "sbx/" + name + ":latest"
	dir := templateTestContext(t)
	var firstBuild, lastBuild string

	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             templateTestCheckDestroy(cli, name),
		Steps: []resource.TestStep{
			{
				Config: templateTestConfigBuild(name, dir, `labels = { team = "a" }`),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(templateTestAddr, "id", id),
					resource.TestCheckResourceAttr(templateTestAddr, "name", name),
					resource.TestCheckResourceAttr(templateTestAddr, "status", "ready"),
					resource.TestCheckResourceAttr(templateTestAddr, "labels.team", "a"),
					resource.TestMatchResourceAttr(templateTestAddr, "build_id", regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)),
					resource.TestMatchResourceAttr(templateTestAddr, "context_hash", regexp.MustCompile(`^[0-9a-f]{64}$`)),
					resource.TestCheckResourceAttrSet(templateTestAddr, "created_at"),
					sbxacctest.CaptureAttr(templateTestAddr, "build_id", &firstBuild),
					templateTestImageHas(cli, id, "/version.txt", "v1"),
				),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// A changed file in the context is an in-place rebuild: same id, new build.
				PreConfig: func() { templateTestWrite(t, dir, "version.txt", "v2") },
				Config:    templateTestConfigBuild(name, dir, `labels = { team = "a" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(templateTestAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectUnknownValue(templateTestAddr, tfjsonpath.New("build_id")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(templateTestAddr, "id", id),
					resource.TestCheckResourceAttrWith(templateTestAddr, "build_id", func(v string) error {
						if v == firstBuild {
							return fmt.Errorf("build_id %s did not change on rebuild", v)
						}
						return nil
					}),
					templateTestImageHas(cli, id, "/version.txt", "v2"),
				),
			},
			{
				// Labels and default sizes live in the image: a change is a rebuild too, still in place.
				Config: templateTestConfigBuild(name, dir, "labels = { team = \"b\" }\n  memory_mb = 256\n  cpu_count = 1"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(templateTestAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(templateTestAddr, "labels.team", "b"),
					resource.TestCheckResourceAttr(templateTestAddr, "memory_mb", "256"),
					templateTestImageLabel(cli, id, "team", "b"),
					sbxacctest.CaptureAttr(templateTestAddr, "build_id", &lastBuild),
				),
			},
			{
				// The platform keeps the image and the context_hash it was
				// built from, not the Dockerfile or the context's path.
				ResourceName:            templateTestAddr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"dockerfile", "context_dir"},
			},
			// As documented: importing a built template with an import {}
			// block whose configuration hashes to the recorded context_hash
			// plans an update of the state only: the same id and the same
			// build, nothing rebuilt.
			templateTestImportBlockUpdate(nil,
				plancheck.ExpectKnownValue(templateTestAddr, tfjsonpath.New("id"), knownvalue.StringExact(id)),
				templateTestBuildKept{build: &lastBuild}),
			// The same import with a file of the context changed since the
			// build plans the rebuild it is, in place.
			templateTestImportBlockUpdate(func() { templateTestWrite(t, dir, "version.txt", "v3") },
				plancheck.ExpectUnknownValue(templateTestAddr, tfjsonpath.New("build_id"))),
		},
	})
}

func TestAccTemplate_adoptImage(t *testing.T) {
	cli := sbxacctest.DockerClient(t)
	name := acctest.RandomWithPrefix("tf-acc-tpl")
	src := templateTestBuildSourceImage(t, cli, acctest.RandomWithPrefix("tf-acc-src")+":1")

	config := fmt.Sprintf(`
resource "sbx_template" "test" {
  name      = %q
  image     = %q
  ready_cmd = "/agent ready"
}
`, name, src)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             templateTestCheckDestroy(cli, name),
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(templateTestAddr, "id", "sbx/"+name+":latest"),
					resource.TestCheckResourceAttr(templateTestAddr, "image", src),
					resource.TestCheckNoResourceAttr(templateTestAddr, "context_hash"),
					resource.TestMatchResourceAttr(templateTestAddr, "build_id", regexp.MustCompile(`^sha256:`)),
					templateTestImageHas(cli, "sbx/"+name+":latest", "/hello.txt", "from the source image"),
				),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				ResourceName:      templateTestAddr,
				ImportState:       true,
				ImportStateVerify: true,
			},
		},
	})
	// The user's image is not the provider's to remove.
	if _, err := cli.ImageInspect(context.Background(), src); err != nil {
		t.Fatalf("the adopted source image %s was removed with the template: %v", src, err)
	}
}

func TestAccTemplate_importBlock(t *testing.T) {
	cli := sbxacctest.DockerClient(t)
	name := acctest.RandomWithPrefix("tf-acc-tpl")
	src := templateTestBuildSourceImage(t, cli, acctest.RandomWithPrefix("tf-acc-src")+":1")
	config := fmt.Sprintf(`
resource "sbx_template" "test" {
  name  = %q
  image = %q
}
`, name, src)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             templateTestCheckDestroy(cli, name),
		Steps: []resource.TestStep{
			{Config: config},
			{
				// An adopted template imported with an import {} block plans no change.
				ResourceName:    templateTestAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
				ImportPlanChecks: resource.ImportPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(templateTestAddr, plancheck.ResourceActionNoop)},
				},
			},
		},
	})
}

func TestAccTemplate_disappears(t *testing.T) {
	cli := sbxacctest.DockerClient(t)
	name := acctest.RandomWithPrefix("tf-acc-tpl")
	id := "sbx/" + name + ":latest"
	dir := templateTestContext(t)
	config := templateTestConfigBuild(name, dir, "")

	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             templateTestCheckDestroy(cli, name),
		Steps: []resource.TestStep{
			{Config: config},
			{
				// Removed outside Terraform: refresh forgets it, the plan creates it again.
				PreConfig: func() {
					if _, err := cli.ImageRemove(context.Background(), id, image.RemoveOptions{Force: true, PruneChildren: true}); err != nil {
						t.Fatalf("removing %s out of band: %v", id, err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(templateTestAddr, plancheck.ResourceActionCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: templateTestImageHas(cli, id, "/version.txt", "v1"),
			},
		},
	})
}

func TestAccTemplate_failingBuild(t *testing.T) {
	cli := sbxacctest.DockerClient(t)
	name := acctest.RandomWithPrefix("tf-acc-tpl")
	dir := templateTestContext(t)
	templateTestWrite(t, dir, "Dockerfile", sbxacctest.AgentDockerfile+"RUN [\"/nonexistent\"]\n")

	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             templateTestCheckDestroy(cli, name),
		Steps: []resource.TestStep{
			{
				Config:      templateTestConfigBuild(name, dir, ""),
				ExpectError: regexp.MustCompile(`RUN \["/nonexistent"\]`),
			},
		},
	})
}

func TestAccTemplate_validation(t *testing.T) {
	sbxacctest.RequireDocker(t)
	dir := templateTestContext(t)
	missing := filepath.Join(dir, "no-such-dir")
	plain := filepath.Join(dir, "version.txt")
	cases := []struct {
		name, body string
		want       string
	}{
		{"bad name", `name = "Bad_Name"
  dockerfile = "FROM scratch"`, `(?s)Attribute name must be lowercase letters and digits.*got:\s+Bad_Name`},
		{"too long", `name = "` + strings.Repeat("a", 129) + `"
  dockerfile = "FROM scratch"`, `Attribute name string length must be at most 128, got: 129`},
		{"both dockerfile and image", `name = "x"
  dockerfile = "FROM scratch"
  image = "busybox"`, `(?s)Exactly one of these attributes must be.*configured: \[dockerfile,image\]`},
		{"neither dockerfile nor image", `name = "x"`, `(?s)Exactly one of these attributes must be.*configured`},
		{"context_dir without dockerfile", `name = "x"
  image = "busybox"
  context_dir = "` + dir + `"`, `(?s)Attribute "dockerfile" must be specified when "context_dir" is\s+specified`},
		{"missing context_dir", `name = "x"
  dockerfile = "FROM scratch"
  context_dir = "` + missing + `"`, regexp.QuoteMeta(`context_dir = "`+missing+`"`) + `\s+does\s+not\s+exist`},
		{"context_dir is a file", `name = "x"
  dockerfile = "FROM scratch"
  context_dir = "` + plain + `"`, regexp.QuoteMeta(`context_dir = "`+plain+`"`) + `\s+is\s+a\s+file`},
		{"disk_mb on docker", `name = "x"
  dockerfile = "FROM scratch"
  disk_mb = 1024`, `disk_mb = 1024 is not supported on docker`},
		{"cpu_count not positive", `name = "x"
  dockerfile = "FROM scratch"
  cpu_count = 0`, `cpu_count value must be at least 1, got: 0`},
		{"reserved label", `name = "x"
  dockerfile = "FROM scratch"
  labels = { "sbx.terraform.name" = "y" }`, `reserved`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config:      "resource \"sbx_template\" \"test\" {\n  " + tc.body + "\n}\n",
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(tc.want),
				}},
			})
		})
	}
}

// templateTestConfigBuild is a template built from dir's Dockerfile and files.
func templateTestConfigBuild(name, dir, extra string) string {
	return fmt.Sprintf(`
resource "sbx_template" "test" {
  name        = %q
  dockerfile  = file("%s/Dockerfile")
  context_dir = %q
  %s
}
`, name, dir, dir, extra)
}

// templateTestContext copies the agent build context into a directory the
// test may change, with a Dockerfile that also copies version.txt, which
// starts out holding "v1".
func templateTestContext(t *testing.T) string {
	t.Helper()
	src := sbxacctest.AgentContextDir(t)
	dir := t.TempDir()
	agent, err := os.ReadFile(filepath.Join(src, "agent"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "agent"), agent, 0o755); err != nil {
		t.Fatal(err)
	}
	templateTestWrite(t, dir, "Dockerfile", templateTestDockerfile)
	templateTestWrite(t, dir, "version.txt", "v1")
	return dir
}

func templateTestWrite(t *testing.T, dir, file, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, file), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// templateTestBuildSourceImage builds, with the Docker client, a small image
// to adopt, and removes it when the test ends.
func templateTestBuildSourceImage(t *testing.T, cli *client.Client, ref string) string {
	t.Helper()
	templateTestHandImage(t, cli, ref, "hello.txt", "from the source image")
	return ref
}

// templateTestHandImage builds, without the provider (as a user would by
// hand), an image of the agent holding file with content, tagged ref, and
// removes it when the test ends. It returns the image id.
func templateTestHandImage(t *testing.T, cli *client.Client, ref, file, content string) string {
	t.Helper()
	dir := templateTestContext(t)
	templateTestWrite(t, dir, file, content)
	df := sbxacctest.AgentDockerfile + "COPY " + file + " /" + file + "\n"
	ctx := context.Background()
	tarball, err := buildctx.Tar(dir, map[string][]byte{buildctx.DockerfileName: []byte(df)})
	if err != nil {
		t.Fatal(err)
	}
	// Closing the context's pipe only stops its writer; it never fails.
	defer func() { _ = tarball.Close() }()
	// No layer cache, as the provider's own builds: a cached step may be an
	// intermediate image a template being deleted at that moment (another
	// test, another run on the same engine) prunes ("unable to find image").
	resp, err := cli.ImageBuild(ctx, tarball, build.ImageBuildOptions{
		Tags: []string{ref}, Dockerfile: buildctx.DockerfileName, Remove: true, ForceRemove: true, Version: build.BuilderV1,
		NoCache: true,
	})
	if err != nil {
		t.Fatalf("building %s: %v", ref, err)
	}
	out, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close() // read to its end above; closing only frees the connection
	img, err := cli.ImageInspect(ctx, ref)
	if err != nil {
		t.Fatalf("building %s: %v\n%s", ref, err, out)
	}
	t.Cleanup(func() {
		_, _ = cli.ImageRemove(context.Background(), ref, image.RemoveOptions{Force: true, PruneChildren: true})
		_, _ = cli.ImageRemove(context.Background(), img.ID, image.RemoveOptions{Force: true, PruneChildren: true})
	})
	return img.ID
}

// templateTestImageHas checks that the image ref holds file with content,
// reading it from a container created (never started) from the image.
func templateTestImageHas(cli *client.Client, ref, file, want string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got, err := templateTestReadFile(cli, ref, file)
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("%s in %s = %q, want %q", file, ref, got, want)
		}
		return nil
	}
}

func templateTestReadFile(cli *client.Client, ref, file string) (string, error) {
	ctx := context.Background()
	c, err := cli.ContainerCreate(ctx, &container.Config{Image: ref}, nil, nil, nil, "")
	if err != nil {
		return "", fmt.Errorf("image %s: %w", ref, err)
	}
	defer func() { _ = cli.ContainerRemove(ctx, c.ID, container.RemoveOptions{Force: true}) }()
	return templateTestCopyOut(cli, c.ID, file)
}

// templateTestCopyOut reads one regular file out of a container.
func templateTestCopyOut(cli *client.Client, containerID, file string) (string, error) {
	rc, _, err := cli.CopyFromContainer(context.Background(), containerID, file)
	if err != nil {
		return "", fmt.Errorf("reading %s from container %s: %w", file, containerID, err)
	}
	// An archive stream from the engine: a failed read shows up below,
	// and closing it only frees the connection.
	defer func() { _ = rc.Close() }()
	tr := tar.NewReader(rc)
	if _, err := tr.Next(); err != nil {
		return "", fmt.Errorf("reading %s from container %s: %w", file, containerID, err)
	}
	b, err := io.ReadAll(tr)
	return string(b), err
}

// templateTestCheckDestroy checks that no image of the template remains:
// neither the tag nor any image labelled with its name.
func templateTestCheckDestroy(cli *client.Client, name string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		ctx := context.Background()
		if _, err := cli.ImageInspect(ctx, "sbx/"+name+":latest"); !cerrdefs.IsNotFound(err) {
			return fmt.Errorf("template image sbx/%s:latest still exists (err=%v)", name, err)
		}
		list, err := cli.ImageList(ctx, image.ListOptions{All: true,
			Filters: filters.NewArgs(filters.Arg("label", platform.LabelName+"="+name))})
		if err != nil {
			return err
		}
		if len(list) > 0 {
			return fmt.Errorf("%d images labelled %s=%s remain, e.g. %s", len(list), platform.LabelName, name, list[0].ID)
		}
		return nil
	}
}

// templateTestImageLabel checks one label of the image ref.
func templateTestImageLabel(cli *client.Client, ref, key, want string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		img, err := cli.ImageInspect(context.Background(), ref)
		if err != nil {
			return err
		}
		if got := img.Config.Labels[key]; got != want {
			return fmt.Errorf("label %s of %s = %q, want %q", key, ref, got, want)
		}
		return nil
	}
}

// templateTestBuildKept checks that the plan keeps the template's build:
// build_id planned known and equal to the captured one.
type templateTestBuildKept struct{ build *string }

func (c templateTestBuildKept) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != templateTestAddr {
			continue
		}
		after, _ := rc.Change.After.(map[string]any)
		if got, _ := after["build_id"].(string); got == "" || got != *c.build {
			resp.Error = fmt.Errorf("%s: build_id planned %v (unknown: %v), want the build %s kept", templateTestAddr, after["build_id"], rc.Change.AfterUnknown, *c.build)
		}
		return
	}
	resp.Error = fmt.Errorf("no planned change of %s", templateTestAddr)
}

// templateTestImportBlockUpdate imports the template with an import {}
// block (after preConfig, when set) and checks the plan is an in-place
// update that passes checks.
func templateTestImportBlockUpdate(preConfig func(), checks ...plancheck.PlanCheck) resource.TestStep {
	return resource.TestStep{
		PreConfig:          preConfig,
		ResourceName:       templateTestAddr,
		ImportState:        true,
		ImportStateKind:    resource.ImportBlockWithID,
		ExpectNonEmptyPlan: true,
		ImportPlanChecks: resource.ImportPlanChecks{
			PreApply: append([]plancheck.PlanCheck{plancheck.ExpectResourceAction(templateTestAddr, plancheck.ResourceActionUpdate)}, checks...),
		},
	}
}
