package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdkacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// An imported box's environment holds env_wo's variables too (Docker
// reports them all): the plan after the import takes the secret out of the
// state in place, without replacing the box, and the state written holds
// it nowhere; the plan after is empty. With a value env_wo does not give,
// the same import is a replacement, as any change of Docker's env.
func TestAccSandbox_envWOImport(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-sandbox-envwo-import")
	secret := acctest.Secret()
	s := acctest.NewOtherState(t, New("test"))
	run := func(args ...string) string {
		t.Helper()
		out, err := s.Run(append(args, "-input=false", "-no-color")...)
		if err != nil {
			t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}
	config := sandboxEnvWOConfig(t, name, 1)
	s.WriteFile("main.tf", config)
	// The value for every command, the test's destroy included.
	s.WriteFile("terraform.tfvars", fmt.Sprintf("token = %q\n", secret))
	run("init")
	run("apply", "-auto-approve")
	id := s.Attr(sandboxAccAddr, "id")

	// The state loses the box; an import block brings it back.
	if out, err := s.Run("state", "rm", sandboxAccAddr); err != nil {
		t.Fatalf("terraform state rm: %v\n%s", err, out)
	}
	s.WriteFile("main.tf", config+fmt.Sprintf("\nimport {\n  to = %s\n  id = %q\n}\n", sandboxAccAddr, id))
	out := run("plan")
	if !strings.Contains(out, sandboxAccAddr+" will be updated in-place") || strings.Contains(out, "must be replaced") ||
		!strings.Contains(out, "1 to import, 0 to add, 1 to change, 0 to destroy") {
		t.Fatalf("the import plan is not an in-place update of the box:\n%s", out)
	}
	out = run("apply", "-auto-approve")
	if got := s.Attr(sandboxAccAddr, "id"); got != id {
		t.Fatalf("the import replaced the box %s with %s:\n%s", id, got, out)
	}
	show, err := s.Output("show", "-json")
	if err != nil {
		t.Fatalf("terraform show -json: %v", err)
	}
	if strings.Contains(show, secret) {
		t.Fatal("the state after the import's apply holds env_wo's value")
	}
	raw, err := os.ReadFile(filepath.Join(s.Dir(), "terraform.tfstate"))
	if err != nil || strings.Contains(string(raw), secret) || !strings.Contains(string(raw), id) {
		t.Fatalf("terraform.tfstate (%v): holds the secret %v, holds the box %v", err,
			strings.Contains(string(raw), secret), strings.Contains(string(raw), id))
	}
	if out, err := s.Run("plan", "-detailed-exitcode", "-input=false", "-no-color"); err != nil {
		t.Fatalf("the plan after the import is not empty (%v):\n%s", err, out)
	}
	c, err := acctest.DockerClient(t).ContainerInspect(context.Background(), id)
	if err != nil || !strings.Contains(strings.Join(c.Config.Env, "\n"), "API_TOKEN="+secret) {
		t.Fatalf("the box lost env_wo's variable (%v)", err)
	}

	// Another value under env_wo: a change of the box's environment.
	if out, err := s.Run("state", "rm", sandboxAccAddr); err != nil {
		t.Fatalf("terraform state rm: %v\n%s", err, out)
	}
	out, err = s.Run("plan", "-input=false", "-no-color", "-var", "token=another-"+secret)
	if err != nil || !strings.Contains(out, "must be replaced") {
		t.Fatalf("an import whose env_wo differs from the box's is not a replacement (%v):\n%s", err, out)
	}
	// Back in the state as it was, for the test's destroy.
	run("apply", "-auto-approve")
}
