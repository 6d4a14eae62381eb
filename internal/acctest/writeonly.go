package acctest

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// What a write-only value (sbx_sandbox.env_wo) must never reach: the state,
// the plan, the files terraform leaves in its working directory. These
// checks read each of them whole, as terraform wrote them, and fail naming
// where the secret was found; each also fails when what it read is empty,
// so a check that saw nothing proves nothing.

// NoSecretInState is a state check: the state, as `terraform show -json`
// gives it (sensitive values in clear), does not hold secret, and does hold
// address (the resource is really in it).
func NoSecretInState(secret, address string) statecheck.StateCheck {
	return noSecretInState{secret: secret, address: address}
}

type noSecretInState struct{ secret, address string }

func (c noSecretInState) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	raw, err := json.Marshal(req.State)
	if err != nil {
		resp.Error = fmt.Errorf("encoding the state: %w", err)
		return
	}
	if !bytes.Contains(raw, []byte(`"`+c.address+`"`)) {
		resp.Error = fmt.Errorf("the state (%d bytes) does not hold %s: the check proves nothing", len(raw), c.address)
		return
	}
	if bytes.Contains(raw, []byte(c.secret)) {
		resp.Error = fmt.Errorf("the state holds the write-only secret: %s", around(raw, c.secret))
	}
}

// NoSecretInPlan is a plan check: the plan, as `terraform show -json` gives
// it (config, prior state, planned values, sensitive values in clear),
// does not hold secret, and does plan address.
func NoSecretInPlan(secret, address string) plancheck.PlanCheck {
	return noSecretInPlan{secret: secret, address: address}
}

type noSecretInPlan struct{ secret, address string }

func (c noSecretInPlan) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	raw, err := json.Marshal(req.Plan)
	if err != nil {
		resp.Error = fmt.Errorf("encoding the plan: %w", err)
		return
	}
	if !bytes.Contains(raw, []byte(`"`+c.address+`"`)) {
		resp.Error = fmt.Errorf("the plan (%d bytes) does not mention %s: the check proves nothing", len(raw), c.address)
		return
	}
	if bytes.Contains(raw, []byte(c.secret)) {
		resp.Error = fmt.Errorf("the plan holds the write-only secret: %s", around(raw, c.secret))
	}
}

// WorkingDirs makes the test's terraform working directories (its state
// file terraform.tfstate, its saved plan tfplan, their backups) land under
// a directory of the test's, which it returns.
func WorkingDirs(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("TF_ACC_TEMP_DIR", dir)
	return dir
}

// NoSecretInFiles checks, as a step's check, every state file
// (terraform.tfstate and its backups) and saved plan (tfplan: a zip of the
// plan, a state snapshot and the variables given) terraform wrote under
// dir (see WorkingDirs) for secret, byte for byte. It fails when it finds
// no state file holding the resource's id.
func NoSecretInFiles(dir, secret, address string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[address]
		if !ok || rs.Primary == nil {
			return fmt.Errorf("%s is not in the state", address)
		}
		seen := false
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			name := d.Name()
			if !strings.HasPrefix(name, "terraform.tfstate") && name != "tfplan" {
				return nil
			}
			if name == "tfplan" {
				return planFileWithout(p, secret)
			}
			raw, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if bytes.Contains(raw, []byte(secret)) {
				return fmt.Errorf("%s holds the write-only secret: %s", p, around(raw, secret))
			}
			if strings.HasPrefix(name, "terraform.tfstate") && bytes.Contains(raw, []byte(rs.Primary.ID)) {
				seen = true
			}
			return nil
		})
		if err != nil {
			return err
		}
		if !seen {
			return fmt.Errorf("no state file under %s holds %s (%s): the check proves nothing", dir, address, rs.Primary.ID)
		}
		return nil
	}
}

// planFileWithout checks every part of the saved plan at p (a zip: the
// plan, the prior state, the configuration, the variables) for secret.
func planFileWithout(p, secret string) error {
	z, err := zip.OpenReader(p)
	if err != nil {
		return fmt.Errorf("reading the saved plan %s: %w", p, err)
	}
	defer func() { _ = z.Close() }()
	for _, f := range z.File {
		r, err := f.Open()
		if err != nil {
			return fmt.Errorf("reading %s of the saved plan %s: %w", f.Name, p, err)
		}
		raw, err := io.ReadAll(r)
		_ = r.Close()
		if err != nil {
			return fmt.Errorf("reading %s of the saved plan %s: %w", f.Name, p, err)
		}
		if bytes.Contains(raw, []byte(secret)) {
			return fmt.Errorf("%s of the saved plan %s holds the write-only secret: %s", f.Name, p, around(raw, secret))
		}
	}
	return nil
}

// EnvName is the name of NAME=value, for a message that must not show the
// value.
func EnvName(kv string) string {
	name, _, _ := strings.Cut(kv, "=")
	return name
}

// around is the text around secret in raw, for a failure message.
func around(raw []byte, secret string) string {
	i := bytes.Index(raw, []byte(secret))
	from, to := max(0, i-200), min(len(raw), i+len(secret)+200)
	return string(raw[from:to])
}
