package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	sdkacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// envSecretAccSecret is a fresh secret whose characters are all different,
// so envSecretAccWithout can build a pattern for "any text without it".
func envSecretAccSecret() string {
	const chars = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	b := make([]byte, 20)
	for i, p := range rand.Perm(len(chars))[:len(b)] {
		b[i] = chars[p]
	}
	return string(b)
}

// envSecretAccWithout is a pattern that matches a whole text exactly when
// secret does not occur in it: ExpectError has only a regexp, and RE2 has no
// negative lookahead. It follows the automaton that reads the text and
// tracks how much of secret it has just seen, which (secret's characters all
// differing) falls back to 0 or, on secret's first character, to 1; the
// pattern is every path that never completes secret.
func envSecretAccWithout(secret string) *regexp.Regexp {
	rs := []rune(secret)
	for i, r := range rs {
		if strings.ContainsRune(string(rs[i+1:]), r) {
			panic("envSecretAccWithout needs a secret whose characters all differ")
		}
	}
	if len(rs) < 2 {
		panic("envSecretAccWithout needs a secret of two characters or more")
	}
	lit := func(r []rune) string { return regexp.QuoteMeta(string(r)) }
	not := func(r ...rune) string {
		var b strings.Builder
		b.WriteString("[^")
		for _, c := range r {
			fmt.Fprintf(&b, `\x{%x}`, c)
		}
		b.WriteString("]")
		return b.String()
	}
	s0 := lit(rs[:1])
	var back, out, tail []string // from "s0 seen plus j more": back to 1, out to 0, or end
	for j := 0; j+1 < len(rs); j++ {
		seen := lit(rs[1 : 1+j])
		back = append(back, seen+s0)
		out = append(out, seen+not(rs[1+j], rs[0]))
		tail = append(tail, seen)
	}
	one := s0 + "(?:" + strings.Join(back, "|") + ")*" // at 1, after any returns to 1
	seg := "(?:" + not(rs[0]) + "|" + one + "(?:" + strings.Join(out, "|") + "))"
	return regexp.MustCompile(`(?s)\A` + seg + "*(?:" + one + "(?:" + strings.Join(tail, "|") + "))?\\z")
}

// The pattern is right: it matches exactly the texts without the secret.
func TestEnvSecretAccWithout(t *testing.T) {
	secret := "abcd"
	re := envSecretAccWithout(secret)
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		b := make([]byte, r.IntN(14))
		for j := range b {
			b[j] = "abcdx\n"[r.IntN(6)]
		}
		text := string(b)
		if got, want := re.MatchString(text), !strings.Contains(text, secret); got != want {
			t.Fatalf("%q: matched %v, want %v", text, got, want)
		}
	}
	for _, s := range []string{"Error: abcabcd", "aabcd", "abcabc", "", "xyz"} {
		if got, want := re.MatchString(s), !strings.Contains(s, secret); got != want {
			t.Errorf("%q: matched %v, want %v", s, got, want)
		}
	}
}

// envSecretAccLog turns on Terraform's and the provider's trace logs into
// a file of the test's and returns its path.
func envSecretAccLog(t *testing.T) string {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), "terraform.log")
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_ACC_LOG_PATH", logPath)
	return logPath
}

// envSecretAccCheckLog proves the trace log was written, holds the
// diagnostic naming the variable (mustHave), and nowhere the secret.
func envSecretAccCheckLog(t *testing.T, logPath, secret string, mustHave ...string) {
	t.Helper()
	logs, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatalf("reading the trace log: %v", err)
	}
	for _, w := range mustHave {
		if !bytes.Contains(logs, []byte(w)) {
			t.Errorf("the trace log (%d bytes) does not contain %q: the check proves nothing", len(logs), w)
		}
	}
	if i := bytes.Index(logs, []byte(secret)); i >= 0 {
		line := logs[bytes.LastIndexByte(logs[:i], '\n')+1:]
		if j := bytes.IndexByte(line, '\n'); j >= 0 {
			line = line[:j]
		}
		t.Errorf("the secret env value is in the trace log:\n%.600s", line)
	}
}

// TestAccSandbox_envValueSecretNeverShown: an env value holding a NUL (which
// the engine refused at start, quoting NAME=value whole) is a plan-time
// error on env["API_TOKEN"] that names the variable; the value appears
// nowhere in terraform's output nor in the trace log of terraform and the
// provider.
func TestAccSandbox_envValueSecretNeverShown(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-sandbox-envsecret")
	secret := envSecretAccSecret()
	logPath := envSecretAccLog(t)
	cfg := sandboxAccTemplateHCL(t, name) + fmt.Sprintf(`
variable "token" {
  type = string
}

resource "sbx_sandbox" "test" {
  name        = %q
  template_id = sbx_template.t.id
  env         = { API_TOKEN = var.token, PLAIN = "x" }
}
`, name)
	vars := config.Variables{"token": config.StringVariable(secret + "\x00tail")}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy:             sandboxAccCheckDestroy(t, name),
		Steps: []resource.TestStep{
			{
				Config:          cfg,
				ConfigVariables: vars,
				ExpectError: sandboxAccErr(`(?s)Invalid environment variable value .*` +
					`The value of env\["API_TOKEN"\] contains a NUL character`),
			},
			{
				// The same error again, now matched against "any text
				// that does not contain the secret".
				Config:          cfg,
				ConfigVariables: vars,
				ExpectError:     envSecretAccWithout(secret),
			},
		},
	})
	envSecretAccCheckLog(t, logPath, secret, `Invalid environment variable value`, `API_TOKEN`)
}

// TestAccE2BSandbox_envSecretEchoedInError: an E2B answer that refuses a
// create by echoing the request (env values and all) gives an error that
// names the variable and masks its value, in terraform's output and in the
// trace log.
func TestAccE2BSandbox_envSecretEchoedInError(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := e2bAccFake(t, e2bfake.Options{})
	secret := envSecretAccSecret()
	logPath := envSecretAccLog(t)

	// In front of the fake: POST /sandboxes is refused with the request
	// quoted back, as a validating API may do; the rest is the fake's.
	target, err := url.Parse(fake.URL())
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/sandboxes" {
			proxy.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(map[string]any{
			"code": 400, "message": "invalid envVars in request " + string(body),
		})
	}))
	t.Cleanup(echo.Close)
	cfg = strings.Replace(cfg, fake.URL(), echo.URL, 1)

	step := func(expect *regexp.Regexp) resource.TestStep {
		return resource.TestStep{
			Config: cfg + `
variable "token" {
  type = string
}

resource "sbx_template" "t" {
  name       = "envsecret"
  dockerfile = "FROM alpine:3.20\nRUN echo ok\n"
}

resource "sbx_sandbox" "s" {
  template_id = sbx_template.t.id
  timeout     = "10m"
  env         = { API_TOKEN = var.token }
}
`,
			ConfigVariables: config.Variables{"token": config.StringVariable(secret)},
			ExpectError:     expect,
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			step(sandboxAccErr(`(?s)Failed to create sandbox .*POST /sandboxes: 400 Bad Request: invalid envVars in request .*"API_TOKEN":"\*\*\*"`)),
			step(envSecretAccWithout(secret)),
		},
	})
	envSecretAccCheckLog(t, logPath, secret, `invalid envVars in request`, `API_TOKEN`)
}
