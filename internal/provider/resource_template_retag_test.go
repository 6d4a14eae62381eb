package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"

	sbxacctest "github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// TestAccTemplate_retaggedByHand is the journey of a template whose id an
// image is tagged over by hand (docker build -t sbx/<name>:latest) between
// a saved plan and its apply:
//   - the saved plan's new box is not started from the hand-made image:
//     its create fails saying what holds the id and what to do;
//   - the next plan warns and rebuilds the template in place; the apply
//     moves the id back to a build of the provider, removes the provider's
//     earlier build (left under no id), leaves the hand-made image, and
//     starts the box from the new build; the plan after it is empty;
//   - after another retag, destroy leaves the hand-made image under the id
//     and removes the provider's build.
func TestAccTemplate_retaggedByHand(t *testing.T) {
	cli := sbxacctest.DockerClient(t)
	ctx := context.Background()
	name := acctest.RandomWithPrefix("tf-acc-retag")
	id := "sbx/" + name + ":latest"
	dir := templateTestContext(t)
	template := templateTestConfigBuild(name, dir, "")
	box := fmt.Sprintf(`
resource "sbx_sandbox" "b" {
  name        = %q
  template_id = sbx_template.test.id
  state       = "stopped"
}
`, name+"-b")
	w := sbxacctest.NewOtherState(t, New("test"))
	w.Apply(template)
	first := w.Attr(templateTestAddr, "build_id")

	w.WriteFile("main.tf", template+box)
	w.MustRun("plan", "-out=tfplan", "-input=false", "-no-color")
	hand := templateOwnTestImage(t, cli, id)
	out, err := w.Run("apply", "-input=false", "-no-color", "tfplan")
	if err == nil || !sbxacctest.ErrorPattern(`template_id "`+regexp.QuoteMeta(id)+`" names image `+hand+`, which the provider did not build for template "`+name+`"`).MatchString(out) {
		t.Fatalf("the saved plan's box after the retag: %v, want its create refused naming the hand-made image:\n%s", err, out)
	}
	if _, err := cli.ContainerInspect(ctx, name+"-b"); !cerrdefs.IsNotFound(err) {
		t.Fatalf("a container %s-b exists after the refused create (%v)", name, err)
	}

	out = w.MustRun("plan", "-input=false", "-no-color")
	for _, want := range []string{"Template image replaced outside Terraform", templateTestAddr + " will be updated in-place", "sbx_sandbox.b will be created"} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Fatalf("the plan after the retag does not say %q:\n%s", want, out)
		}
	}
	w.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
	second := w.Attr(templateTestAddr, "build_id")
	if second == first || second == hand {
		t.Fatalf("build_id %s after the rebuild, want a new build (first %s, hand-made %s)", second, first, hand)
	}
	if img, err := cli.ImageInspect(ctx, id); err != nil || img.ID != second {
		t.Fatalf("%s names %s (%v), want the new build %s", id, img.ID, err, second)
	}
	if _, err := cli.ImageInspect(ctx, first); !cerrdefs.IsNotFound(err) {
		t.Errorf("the provider's first build %s, displaced by the retag, is still there (%v)", first, err)
	}
	if _, err := cli.ImageInspect(ctx, hand); err != nil {
		t.Errorf("the hand-made image %s was removed: %v", hand, err)
	}
	c, err := cli.ContainerInspect(ctx, name+"-b")
	if err != nil || c.Image != second {
		t.Fatalf("box b runs image %s (%v), want the new build %s", c.Image, err, second)
	}
	if out, err := w.Run("plan", "-detailed-exitcode", "-input=false", "-no-color"); err != nil {
		t.Fatalf("the plan after the rebuild is not empty (%v):\n%s", err, out)
	}

	again := templateOwnTestImage(t, cli, id)
	w.MustRun("destroy", "-auto-approve", "-input=false", "-no-color")
	if img, err := cli.ImageInspect(ctx, id); err != nil || img.ID != again {
		t.Errorf("after destroy %s names %s (%v), want the hand-made image %s left in place", id, img.ID, err, again)
	}
	if _, err := cli.ImageInspect(ctx, second); !cerrdefs.IsNotFound(err) {
		t.Errorf("the provider's build %s is still there after destroy (%v)", second, err)
	}
}
