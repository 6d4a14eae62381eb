package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	cerrdefs "github.com/containerd/errdefs"
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
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// A template whose tag an image made by hand already holds is not built:
// the create fails naming the image and the import command, and the
// user's image stays as it was.
func TestAccTemplate_nameTakenByHandMadeImage(t *testing.T) {
	cli := sbxacctest.DockerClient(t)
	name := acctest.RandomWithPrefix("tf-acc-mine")
	id := "sbx/" + name + ":latest"
	userImage := templateOwnTestImage(t, cli, id)
	dir := templateTestContext(t)

	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: templateTestConfigBuild(name, dir, ""),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(templateTestAddr, plancheck.ResourceActionCreate)},
			},
			ExpectError: sbxacctest.ErrorPattern(fmt.Sprintf(`(?s)a template named "%s" already exists and this create did not make it `+
				`\(image %s was not built by this provider .*terraform import <this resource's address> %s`,
				name, regexp.QuoteMeta(id), regexp.QuoteMeta(id))),
		}},
		CheckDestroy: func(*terraform.State) error {
			return templateTestUntouched(cli, id, userImage, name)
		},
	})
}

// Neither is a template another Terraform state manages: the second
// configuration's create fails, and its destroy leaves the first state's
// template (and its build) alone.
func TestAccTemplate_nameTakenByAnotherState(t *testing.T) {
	cli := sbxacctest.DockerClient(t)
	name := acctest.RandomWithPrefix("tf-acc-tpl")
	id := "sbx/" + name + ":latest"
	dir := templateTestContext(t)
	first := sbxacctest.NewOtherState(t, New("test"))
	first.Apply(templateTestConfigBuild(name, dir, ""))
	build := first.Attr(templateTestAddr, "build_id")

	templateTestWrite(t, dir, "version.txt", "the second state's")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: templateTestConfigBuild(name, dir, ""),
			ExpectError: sbxacctest.ErrorPattern(fmt.Sprintf(`a template named "%s" already exists and this create did not make it `+
				`\(image %s is a template the provider built for another Terraform state`,
				name, regexp.QuoteMeta(id))),
		}},
		CheckDestroy: func(*terraform.State) error {
			img, err := cli.ImageInspect(context.Background(), id)
			if err != nil || img.ID != build {
				return fmt.Errorf("the first state's template %s is %s (%v), want its build %s", id, img.ID, err, build)
			}
			return nil
		},
	})
	if got := first.Attr(templateTestAddr, "build_id"); got != build {
		t.Errorf("the first state holds build %s, want %s", got, build)
	}
}

// A rebuild moves the tag off the image that holds it, and removes that
// image only when the provider built it for this template: a user's image
// built under the template's tag stays.
func TestAccTemplate_rebuildKeepsImageItDidNotBuild(t *testing.T) {
	cli := sbxacctest.DockerClient(t)
	name := acctest.RandomWithPrefix("tf-acc-tpl")
	id := "sbx/" + name + ":latest"
	dir := templateTestContext(t)
	var firstBuild, userImage string

	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		// The first build, whose tag the user took, is all that may remain:
		// nothing holds it, and the provider does not look for it.
		CheckDestroy: func(s *terraform.State) error {
			templateTestRemoveImage(cli, firstBuild)
			return templateTestCheckDestroy(cli, name)(s)
		},
		Steps: []resource.TestStep{
			{
				Config: templateTestConfigBuild(name, dir, ""),
				Check:  sbxacctest.CaptureAttr(templateTestAddr, "build_id", &firstBuild),
			},
			{
				PreConfig: func() {
					// The user builds an image of their own under the template's
					// tag; the provider's first build is left untagged.
					userImage = templateOwnTestImage(t, cli, id)
					templateTestWrite(t, dir, "version.txt", "v2")
				},
				Config: templateTestConfigBuild(name, dir, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(templateTestAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					templateTestImageHas(cli, id, "/version.txt", "v2"),
					func(*terraform.State) error {
						if _, err := cli.ImageInspect(context.Background(), userImage); err != nil {
							return fmt.Errorf("the rebuild removed the user's image %s that held the tag: %w", userImage, err)
						}
						return nil
					},
				),
			},
		},
	})
}

// An image the provider did not build imports as itself: with `image`
// equal to the import id (and the name the import derives), the import
// plans no change; destroy forgets it and leaves the image.
func TestAccTemplate_importForeignImage(t *testing.T) {
	cli := sbxacctest.DockerClient(t)
	repo := acctest.RandomWithPrefix("tf-acc-src")
	src := repo + ":1"
	userImage := templateOwnTestImage(t, cli, src)
	config := fmt.Sprintf(`
resource "sbx_template" "test" {
  name  = %q
  image = %q
}
`, repo, src)
	importBlock := fmt.Sprintf(`
import {
  to = sbx_template.test
  id = %q
}
`, src)

	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: importBlock + config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(templateTestAddr, plancheck.ResourceActionNoop)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(templateTestAddr, "id", src),
					resource.TestCheckResourceAttr(templateTestAddr, "image", src),
					resource.TestCheckResourceAttr(templateTestAddr, "name", repo),
					resource.TestCheckResourceAttr(templateTestAddr, "build_id", userImage),
					resource.TestCheckNoResourceAttr(templateTestAddr, "labels.%"),
				),
			},
			{
				// `terraform import` makes the same state.
				ResourceName:      templateTestAddr,
				ImportState:       true,
				ImportStateVerify: true,
			},
		},
		// Destroy forgot the template; the image is the user's, as it was.
		CheckDestroy: func(*terraform.State) error {
			return templateTestUntouched(cli, src, userImage, repo)
		},
	})
}

// An imported image the provider did not build: a new name is recorded in
// state only, and a changed build input replaces it with a template the
// provider builds from the image; neither touches the user's image, and
// the final destroy removes only what the provider built.
func TestAccTemplate_importedForeignImageReplaced(t *testing.T) {
	cli := sbxacctest.DockerClient(t)
	repo := acctest.RandomWithPrefix("tf-acc-src")
	src := repo + ":1"
	userImage := templateOwnTestImage(t, cli, src)
	name := acctest.RandomWithPrefix("tf-acc-tpl")
	config := func(name, extra string) string {
		return fmt.Sprintf(`
resource "sbx_template" "test" {
  name  = %q
  image = %q
  %s
}
`, name, src, extra)
	}
	userImageKept := func(*terraform.State) error {
		img, err := cli.ImageInspect(context.Background(), src)
		if err != nil || img.ID != userImage {
			return fmt.Errorf("the user's image %s is %s (%v), want %s untouched", src, img.ID, err, userImage)
		}
		return nil
	}

	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: fmt.Sprintf("import {\n  to = sbx_template.test\n  id = %q\n}\n", src) + config(repo, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(templateTestAddr, plancheck.ResourceActionNoop)},
				},
			},
			{
				Config: config(name, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(templateTestAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(templateTestAddr, "id", src),
					resource.TestCheckResourceAttr(templateTestAddr, "name", name),
					userImageKept,
				),
			},
			{
				Config: config(name, `start_cmd = "/agent"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(templateTestAddr, plancheck.ResourceActionDestroyBeforeCreate),
						plancheck.ExpectKnownValue(templateTestAddr, tfjsonpath.New("id"), knownvalue.StringExact("sbx/"+name+":latest")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(templateTestAddr, "id", "sbx/"+name+":latest"),
					resource.TestCheckResourceAttr(templateTestAddr, "image", src),
					templateTestImageLabel(cli, "sbx/"+name+":latest", platform.LabelKind, "template"),
					userImageKept,
				),
			},
		},
		CheckDestroy: func(s *terraform.State) error {
			if err := templateTestCheckDestroy(cli, name)(s); err != nil {
				return err
			}
			return userImageKept(s)
		},
	})
}

// An image the provider made as a snapshot (of a sandbox, of a volume) is
// no template: importing it as one is an error naming what it is and the
// resource type to import it as.
func TestAccTemplate_importSnapshotIsAnError(t *testing.T) {
	cli := sbxacctest.DockerClient(t)
	name := acctest.RandomWithPrefix("tf-acc-snap")
	config := snapshotTestConfigBase(t, name) + fmt.Sprintf(`
resource "sbx_sandbox" "src" {
  template_id = sbx_template.agent.id
  labels      = { test = %[1]q }
}

resource "sbx_snapshot" "box" {
  sandbox_id = sbx_sandbox.src.id
  labels     = { test = %[1]q }
}

resource "sbx_volume" "data" {
  name   = "%[1]s-data"
  labels = { test = %[1]q }
}

resource "sbx_snapshot" "vol" {
  volume_id = sbx_volume.data.id
  labels    = { test = %[1]q }
}
`, name)
	imported := config + `
resource "sbx_template" "imported" {
  name  = "imported"
  image = "whatever"
}
`
	importStep := func(from, want string) resource.TestStep {
		return resource.TestStep{
			Config:            imported,
			ResourceName:      "sbx_template.imported",
			ImportState:       true,
			ImportStateIdFunc: func(s *terraform.State) (string, error) { return sbxacctest.ResourceID(s, from) },
			ExpectError:       sbxacctest.ErrorPattern(want),
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             snapshotTestCheckDestroy(cli, name),
		Steps: []resource.TestStep{
			{Config: config},
			importStep("sbx_snapshot.box", `(?s)the image is a snapshot of a sandbox made by this provider .*import it as sbx_snapshot`),
			importStep("sbx_snapshot.vol", `(?s)the image is a snapshot of a volume made by this provider .*import it as sbx_snapshot`),
		},
	})
}

// A failed build leaves no image behind: neither the first failed apply nor
// the retry adds any image on the build's base (the images each step
// committed are removed), and the base itself stays. Once the Dockerfile is
// fixed the template builds, and its destroy leaves nothing either.
func TestAccTemplate_failedBuildLeavesNoImages(t *testing.T) {
	cli := sbxacctest.DockerClient(t)
	name := acctest.RandomWithPrefix("tf-acc-tpl")
	base := acctest.RandomWithPrefix("tf-acc-base") + ":1"
	baseID := templateOwnTestImage(t, cli, base)
	danglingBefore := templateTestDangling(t, cli)
	dir := templateTestContext(t)
	noneLeft := func() error {
		if _, err := cli.ImageInspect(context.Background(), baseID); err != nil {
			return fmt.Errorf("the build removed its base image %s: %w", base, err)
		}
		if kids := templateTestChildren(t, cli, baseID); len(kids) > 0 {
			return fmt.Errorf("%d images were left on the base %s: %v", len(kids), base, kids)
		}
		for id := range templateTestDangling(t, cli) {
			if !danglingBefore[id] && templateTestDescendsFrom(t, cli, id, baseID) {
				return fmt.Errorf("the dangling image %s was left", id)
			}
		}
		return nil
	}
	// Step 1 is the base, step 2 makes an image, step 3 fails.
	failing := templateTestConfigBuild(name, dir, "")
	setDockerfile := func(run string) {
		templateTestWrite(t, dir, "Dockerfile", "FROM "+base+"\nCOPY version.txt /version.txt\n"+run)
	}
	setDockerfile("RUN [\"/nonexistent\"]\n")
	failed := regexp.MustCompile(`failed at Step 3/\d+ : RUN \["/nonexistent"\]`)

	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: failing, ExpectError: failed},
			{
				PreConfig: func() {
					if err := noneLeft(); err != nil {
						t.Fatalf("after the first failed apply: %v", err)
					}
				},
				Config:      failing,
				ExpectError: failed,
			},
			{
				PreConfig: func() {
					if err := noneLeft(); err != nil {
						t.Fatalf("after the second failed apply: %v", err)
					}
					setDockerfile("CMD [\"/agent\"]\n")
				},
				Config: templateTestConfigBuild(name, dir, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: templateTestImageHas(cli, "sbx/"+name+":latest", "/version.txt", "v1"),
			},
		},
		CheckDestroy: func(s *terraform.State) error {
			if err := noneLeft(); err != nil {
				return fmt.Errorf("after destroy: %w", err)
			}
			return templateTestCheckDestroy(cli, name)(s)
		},
	})
}

// A template removed outside Terraform is recreated under its known id:
// the plan creates the template and leaves the sandbox made from it alone.
func TestAccTemplate_recreatedKeepsItsID(t *testing.T) {
	cli := sbxacctest.DockerClient(t)
	name := acctest.RandomWithPrefix("tf-acc-tpl")
	id := "sbx/" + name + ":latest"
	config := sandboxAccConfig(t, name, "running", "")
	var boxID, firstBuild string

	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: resource.ComposeAggregateTestCheckFunc(
					sbxacctest.CaptureAttr(sandboxAccAddr, "id", &boxID),
					sbxacctest.CaptureAttr("sbx_template.t", "build_id", &firstBuild),
				),
			},
			{
				PreConfig: func() {
					// docker rmi -f: the running sandbox keeps the image, untagged.
					if _, err := cli.ImageRemove(context.Background(), id, image.RemoveOptions{Force: true, PruneChildren: true}); err != nil {
						t.Fatalf("removing %s out of band: %v", id, err)
					}
					t.Cleanup(func() { templateTestRemoveImage(cli, firstBuild) })
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("sbx_template.t", plancheck.ResourceActionCreate),
						plancheck.ExpectKnownValue("sbx_template.t", tfjsonpath.New("id"), knownvalue.StringExact(id)),
						plancheck.ExpectResourceAction(sandboxAccAddr, plancheck.ResourceActionNoop),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("sbx_template.t", "id", id),
					resource.TestCheckResourceAttrWith(sandboxAccAddr, "id", func(v string) error {
						if v != boxID {
							return fmt.Errorf("the sandbox was replaced: %s, was %s", v, boxID)
						}
						return nil
					}),
					func(*terraform.State) error {
						if _, err := cli.ImageInspect(context.Background(), id); err != nil {
							return fmt.Errorf("the template was not recreated: %w", err)
						}
						return nil
					},
				),
			},
		},
		CheckDestroy: func(s *terraform.State) error {
			if err := sandboxAccCheckDestroy(t, name)(s); err != nil {
				return err
			}
			if _, err := cli.ImageInspect(context.Background(), id); !cerrdefs.IsNotFound(err) {
				return fmt.Errorf("template image %s still exists (err=%v)", id, err)
			}
			return nil
		},
	})
}

// templateOwnTestImage builds, without the provider, an image of the agent
// with a file no other image has, tagged ref, and removes it when the test
// ends. It returns the image id.
func templateOwnTestImage(t *testing.T, cli *client.Client, ref string) string {
	t.Helper()
	return templateTestHandImage(t, cli, ref, "own.txt", ref+" "+acctest.RandString(16))
}

// templateTestRemoveImage removes an image a test left, if it is still there.
func templateTestRemoveImage(cli *client.Client, id string) {
	if id != "" {
		_, _ = cli.ImageRemove(context.Background(), id, image.RemoveOptions{Force: true, PruneChildren: true})
	}
}

// templateTestUntouched checks that ref is still the image userImage and
// that no template of name was built.
func templateTestUntouched(cli *client.Client, ref, userImage, name string) error {
	ctx := context.Background()
	img, err := cli.ImageInspect(ctx, ref)
	if err != nil || img.ID != userImage {
		return fmt.Errorf("the user's image %s is %s (%v), want %s untouched", ref, img.ID, err, userImage)
	}
	list, err := cli.ImageList(ctx, image.ListOptions{All: true,
		Filters: filters.NewArgs(filters.Arg("label", platform.LabelName+"="+name))})
	if err != nil {
		return err
	}
	if len(list) > 0 {
		return fmt.Errorf("%d images labelled %s=%s were built, e.g. %s", len(list), platform.LabelName, name, list[0].ID)
	}
	return nil
}

// templateTestChildren lists the images whose parent is id.
func templateTestChildren(t *testing.T, cli *client.Client, id string) []string {
	t.Helper()
	list, err := cli.ImageList(context.Background(), image.ListOptions{All: true})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, img := range list {
		if img.ParentID == id {
			out = append(out, img.ID)
		}
	}
	return out
}

// templateTestDangling is the set of dangling images (docker images -f dangling=true).
func templateTestDangling(t *testing.T, cli *client.Client) map[string]bool {
	t.Helper()
	list, err := cli.ImageList(context.Background(), image.ListOptions{Filters: filters.NewArgs(filters.Arg("dangling", "true"))})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, img := range list {
		out[img.ID] = true
	}
	return out
}

// templateTestDescendsFrom reports whether ancestor is among id's parents.
func templateTestDescendsFrom(t *testing.T, cli *client.Client, id, ancestor string) bool {
	t.Helper()
	hist, err := cli.ImageHistory(context.Background(), id)
	if err != nil {
		return false // gone meanwhile (another test's image)
	}
	for _, h := range hist {
		if h.ID == ancestor {
			return true
		}
	}
	return false
}
