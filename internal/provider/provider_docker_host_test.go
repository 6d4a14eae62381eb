package provider

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/docker"
)

// dockerHostAccSilentEngine listens on a local port, accepts every
// connection and never answers: an engine that hangs, or something else on
// its port. giveUp after the first connection it drops everything, so a
// provider without deadlines fails (with the wrong error) instead of
// hanging the test run.
func dockerHostAccSilentEngine(t *testing.T, giveUp time.Duration) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	var timer *time.Timer
	closeAll := func() {
		_ = ln.Close() // ends the accept loop
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close() // the connection is the test's own
		}
		conns = nil
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c) // held open, never read or answered
			if timer == nil {
				timer = time.AfterFunc(giveUp, closeAll)
			}
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		mu.Lock()
		if timer != nil {
			timer.Stop()
		}
		mu.Unlock()
		closeAll()
	})
	return "tcp://" + ln.Addr().String()
}

// TestAccProvider_dockerHostNoAnswer: an engine address that accepts
// connections and never answers fails the plan after docker.AnswerTimeout
// with an error naming the host and the seconds, instead of hanging. That
// error comes only from the provider's deadline: a provider without one
// would hang until the silent engine drops the connection, ten deadlines
// after the first one, and fail otherwise. How long the plan took is not
// checked; it is the machine's business.
func TestAccProvider_dockerHostNoAnswer(t *testing.T) {
	acctest.RequireTerraform(t) // no engine: the host is refused or never answers
	t.Parallel()
	host := dockerHostAccSilentEngine(t, 10*docker.AnswerTimeout)
	secs := int(docker.AnswerTimeout / time.Second)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
provider "sbx" {
  docker {
    host = %q
  }
}

data "sbx_snapshots" "all" {}
`, host),
			ExpectError: acctest.ErrorPattern(`(?s)Cannot connect to Docker .*the Docker engine at ` + regexp.QuoteMeta(host) +
				fmt.Sprintf(` did not answer in %d seconds .*it accepted the connection but sent no answer`, secs)),
		}},
	})
}

// TestAccProvider_dockerHostUnsupportedScheme: a docker.host whose scheme
// the Docker client does not speak is an error on docker.host naming the
// value and the schemes that work, not "Is the docker daemon running?".
func TestAccProvider_dockerHostUnsupportedScheme(t *testing.T) {
	acctest.RequireTerraform(t) // no engine: the host is refused or never answers
	step := func(host, want string) resource.TestStep {
		return resource.TestStep{
			Config: fmt.Sprintf(`
provider "sbx" {
  docker {
    host = %q
  }
}

data "sbx_snapshots" "all" {}
`, host),
			ExpectError: acctest.ErrorPattern(want),
		}
	}
	schemes := `use unix:// \(a local socket, e.g. unix:///var/run/docker.sock\), tcp:// \(host and port, .*\) or ssh://`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			step("ftp://x", `(?s)Unsupported Docker host .*docker.host = "ftp://x" uses the scheme "ftp://", which is not supported: `+schemes),
			step("http://build-host:2375", `(?s)Unsupported Docker host .*docker.host = "http://build-host:2375" uses http://, `+
				`which the Docker client does not take for an engine address; write tcp:// instead`),
			step("tcp://build-host", `(?s)Unsupported Docker host .*docker.host = "tcp://build-host" needs a port, e.g. tcp://build-host:2376`),
		},
	})
}

// TestAccProvider_dockerHostSSH: an ssh:// host is reached as the docker
// command line reaches it, through the ssh client and `docker system
// dial-stdio` on that host; a stand-in ssh runs dial-stdio against the test
// engine, and the plan reads it.
func TestAccProvider_dockerHostSSH(t *testing.T) {
	acctest.RequireDocker(t)
	if _, err := exec.LookPath("docker"); err != nil {
		t.Skip("needs the docker command line, whose dial-stdio stands in for the remote host")
	}
	dir := t.TempDir()
	argsFile := filepath.Join(dir, "args")
	fake := "#!/bin/sh\nprintf '%s\\n' \"$@\" > '" + argsFile + "'\nexec docker system dial-stdio\n"
	if err := os.WriteFile(filepath.Join(dir, "ssh"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		Steps: []resource.TestStep{{
			Config: `
provider "sbx" {
  docker {
    host = "ssh://builder@build-host.internal"
  }
}

data "sbx_snapshots" "all" {}
`,
			Check: func(*terraform.State) error {
				got, err := os.ReadFile(argsFile)
				if err != nil {
					return fmt.Errorf("the ssh client was never run: %w", err)
				}
				want := "-o BatchMode=yes -T -l builder -- build-host.internal docker system dial-stdio"
				if args := strings.Join(strings.Fields(string(got)), " "); args != want {
					return fmt.Errorf("ssh was run as ssh %s, want ssh %s", args, want)
				}
				return nil
			},
		}},
	})
}
