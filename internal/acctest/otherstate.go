package acctest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
)

// OtherState is a second Terraform working directory, with a state of its
// own, driving a provider in-process through the real terraform CLI.
// Ownership tests use it beside a resource.Test: two configurations (two
// teams, two pipelines) touching the same names.
type OtherState struct {
	t   *testing.T
	tf  string // the terraform CLI
	dir string
	env []string
}

// otherProviderAddr is where plugin-testing serves the provider too: a
// configuration without required_providers means hashicorp/sbx, on the
// registry host the CLI defaults to. As plugin-testing does, it honours
// TF_ACC_PROVIDER_HOST and TF_ACC_PROVIDER_NAMESPACE (OpenTofu's host is
// registry.opentofu.org: scripts/acc-matrix.sh sets it).
func otherProviderAddr() string {
	host, namespace := "registry.terraform.io", "hashicorp"
	if v := os.Getenv("TF_ACC_PROVIDER_HOST"); v != "" {
		host = strings.TrimSuffix(v, "/")
	}
	if v := os.Getenv("TF_ACC_PROVIDER_NAMESPACE"); v != "" {
		namespace = strings.TrimSuffix(v, "/")
	}
	return host + "/" + namespace + "/" + ProviderName
}

// NewOtherState serves the provider newProvider builds (the provider's
// constructor, e.g. provider.New("test")) and prepares an empty working
// directory. When the test ends, whatever the state still holds is
// destroyed.
// It needs the terraform CLI (RequireTerraform: skipped without TF_ACC); a
// test whose configuration uses Docker requires it first.
func NewOtherState(t *testing.T, newProvider func() provider.Provider) *OtherState {
	t.Helper()
	serverFactory := providerserver.NewProtocol6(newProvider())
	return NewOtherStateServing(t, func() (tfprotov6.ProviderServer, error) { return serverFactory(), nil })
}

// NewOtherStateServing is NewOtherState for a provider server factory, as
// a resource.TestCase's ProtoV6ProviderFactories holds them.
func NewOtherStateServing(t *testing.T, factory func() (tfprotov6.ProviderServer, error)) *OtherState {
	t.Helper()
	tf := RequireTerraform(t)
	server, err := factory()
	if err != nil {
		t.Fatalf("starting the provider for the second state: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	reattach := make(chan *plugin.ReattachConfig, 1)
	closed := make(chan struct{})
	addr := otherProviderAddr()
	go func() {
		err := tf6server.Serve(addr, func() tfprotov6.ProviderServer { return server },
			tf6server.WithDebug(ctx, reattach, closed),
			tf6server.WithGoPluginLogger(hclog.NewNullLogger()),
			tf6server.WithoutLogStderrOverride(),
			// Logs as Terraform would keep them: none unless TF_LOG (or
			// TF_ACC_LOG_PATH, TF_LOG_PATH_MASK) asks for them.
			tf6server.WithLoggingSink(t))
		if err != nil {
			t.Errorf("serving the provider for the second state: %v", err)
		}
	}()
	var rc *plugin.ReattachConfig
	select {
	case rc = <-reattach:
	case <-closed:
		cancel()
		t.Fatal("the provider server for the second state stopped before it started")
	}
	spec, err := json.Marshal(map[string]any{addr: map[string]any{
		"Protocol": string(rc.Protocol), "ProtocolVersion": rc.ProtocolVersion, "Pid": rc.Pid, "Test": true,
		"Addr": map[string]string{"Network": rc.Addr.Network(), "String": rc.Addr.String()},
	}})
	if err != nil {
		t.Fatal(err)
	}
	s := &OtherState{t: t, tf: tf, dir: t.TempDir(),
		env: append(os.Environ(), "TF_REATTACH_PROVIDERS="+string(spec), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")}
	t.Cleanup(func() {
		if s.holdsResources() {
			if out, err := s.run("destroy", "-auto-approve", "-input=false", "-no-color"); err != nil {
				t.Errorf("destroying the second state: %v\n%s", err, out)
			}
		}
		cancel()
		<-closed
	})
	return s
}

// Apply writes hcl as the configuration and applies it; a failure fails the test.
func (s *OtherState) Apply(hcl string) {
	s.t.Helper()
	if out, err := s.TryApply(hcl); err != nil {
		s.t.Fatalf("apply in the second state: %v\n%s", err, out)
	}
}

// TryApply writes hcl as the configuration and applies it, returning the
// CLI's output.
func (s *OtherState) TryApply(hcl string) (string, error) {
	if err := os.WriteFile(filepath.Join(s.dir, "main.tf"), []byte(hcl), 0o600); err != nil {
		return "", err
	}
	if out, err := s.run("init", "-input=false", "-no-color"); err != nil {
		return out, fmt.Errorf("init: %w", err)
	}
	return s.run("apply", "-auto-approve", "-input=false", "-no-color")
}

// Attr returns a resource's attribute from the state, e.g. ("sbx_volume.a", "id").
func (s *OtherState) Attr(address, name string) string {
	s.t.Helper()
	out, err := s.stdout("show", "-json", "-no-color")
	if err != nil {
		s.t.Fatalf("show: %v\n%s", err, out)
	}
	var doc struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address string         `json:"address"`
					Values  map[string]any `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		s.t.Fatalf("reading the second state: %v", err)
	}
	for _, r := range doc.Values.RootModule.Resources {
		if r.Address == address {
			v, _ := r.Values[name].(string)
			return v
		}
	}
	s.t.Fatalf("%s is not in the second state", address)
	return ""
}

// run runs the terraform CLI in the working directory, returning its
// output and error output together.
func (s *OtherState) run(args ...string) (string, error) {
	cmd := s.command(args...)
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// stdout runs the terraform CLI, returning only its standard output.
func (s *OtherState) stdout(args ...string) (string, error) {
	out, err := s.command(args...).Output()
	return string(out), err
}

func (s *OtherState) command(args ...string) *exec.Cmd {
	cmd := exec.Command(s.tf, args...)
	cmd.Dir = s.dir
	cmd.Env = s.env
	return cmd
}
