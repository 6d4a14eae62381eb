package docker

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docker/docker/client"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// storeContext is a context of the docker command line's store: its
// name, its meta.json and the names of its TLS files.
type storeContext struct {
	name, meta string
	tls        []string
}

// writeDockerConfig writes a docker command line config directory: a
// config.json (unless configJSON is empty) and the contexts.
func writeDockerConfig(t *testing.T, dir, configJSON string, contexts ...storeContext) {
	t.Helper()
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if configJSON != "" {
		write(filepath.Join(dir, "config.json"), configJSON)
	}
	for _, c := range contexts {
		// The store's layout, spelled out rather than through contextDir,
		// so a wrong digest fails here.
		sum := sha256.Sum256([]byte(c.name))
		id := hex.EncodeToString(sum[:])
		write(filepath.Join(dir, "contexts", "meta", id, "meta.json"), c.meta)
		for _, f := range c.tls {
			write(filepath.Join(dir, "contexts", "tls", id, "docker", f), "-----BEGIN CERTIFICATE-----\n")
		}
	}
}

// meta is a meta.json as `docker context create` writes it.
func meta(name, host string, skipTLSVerify bool) string {
	skip := "false"
	if skipTLSVerify {
		skip = "true"
	}
	return `{"Name":"` + name + `","Metadata":{"Description":"test"},"Endpoints":{"docker":{"Host":"` + host +
		`","SkipTLSVerify":` + skip + `}}}`
}

// TestEngineHost: the engine is DOCKER_HOST, else DOCKER_CONTEXT's, else
// config.json's currentContext, else the local socket, as for the docker
// command line; a tcp:// context with TLS settings and every broken piece
// of the store are errors naming the context and the file.
func TestEngineHost(t *testing.T) {
	remote := storeContext{name: "remote", meta: meta("remote", "tcp://remote-host:2375", false)}
	viaSSH := storeContext{name: "viassh", meta: meta("viassh", "ssh://me@build-host", false)}
	sock := storeContext{name: "sock", meta: meta("sock", "unix:///run/other.sock", false)}
	cases := []struct {
		name       string
		env        map[string]string // DOCKER_CONFIG defaults to the case's directory
		noConfig   bool              // leave DOCKER_CONFIG unset: ~/.docker
		configJSON string
		contexts   []storeContext
		homeErr    error
		want       string
		wantVia    string
		wantTLS    []string // the TLS files found, by name; "skip" for SkipTLSVerify
		wantErr    []string
	}{
		{name: "nothing: the local socket", want: client.DefaultDockerHost},
		{name: "DOCKER_HOST wins", env: map[string]string{"DOCKER_HOST": "tcp://env-host:2375", "DOCKER_CONTEXT": "remote"},
			configJSON: `{"currentContext":"remote"}`, contexts: []storeContext{remote}, want: "tcp://env-host:2375"},
		{name: "DOCKER_CONTEXT", env: map[string]string{"DOCKER_CONTEXT": "remote"}, contexts: []storeContext{remote},
			want: "tcp://remote-host:2375", wantVia: `docker context "remote" (DOCKER_CONTEXT)`},
		{name: "DOCKER_CONTEXT before currentContext", env: map[string]string{"DOCKER_CONTEXT": "viassh"},
			configJSON: `{"currentContext":"remote"}`, contexts: []storeContext{remote, viaSSH}, want: "ssh://me@build-host",
			wantVia: `docker context "viassh" (DOCKER_CONTEXT)`},
		{name: "DOCKER_CONTEXT default before currentContext", env: map[string]string{"DOCKER_CONTEXT": "default"},
			configJSON: `{"currentContext":"remote"}`, contexts: []storeContext{remote}, want: client.DefaultDockerHost},
		{name: "currentContext", configJSON: `{"auths":{},"currentContext":"sock"}`, contexts: []storeContext{remote, sock},
			want: "unix:///run/other.sock", wantVia: `docker context "sock" (currentContext of `},
		{name: "currentContext default", configJSON: `{"currentContext":"default"}`, want: client.DefaultDockerHost},
		{name: "config.json without a context", configJSON: `{"auths":{"x":{"auth":"c2VjcmV0"}}}`, want: client.DefaultDockerHost},
		{name: "~/.docker without DOCKER_CONFIG", noConfig: true, configJSON: `{"currentContext":"remote"}`,
			contexts: []storeContext{remote}, want: "tcp://remote-host:2375", wantVia: `docker context "remote" (currentContext of `},
		{name: "no home: the local socket", noConfig: true, homeErr: errors.New("no HOME"), want: client.DefaultDockerHost},
		{name: "no home, DOCKER_CONTEXT", noConfig: true, homeErr: errors.New("no HOME"), env: map[string]string{"DOCKER_CONTEXT": "remote"},
			wantErr: []string{`cannot find docker context "remote" (DOCKER_CONTEXT): no DOCKER_CONFIG and no home directory`}},
		{name: "endpoint without a host", env: map[string]string{"DOCKER_CONTEXT": "empty"},
			contexts: []storeContext{{name: "empty", meta: meta("empty", "", false)}}, want: client.DefaultDockerHost,
			wantVia: `docker context "empty" (DOCKER_CONTEXT)`},
		{name: "TLS files on a socket are not used", env: map[string]string{"DOCKER_CONTEXT": "sock"},
			contexts: []storeContext{{name: "sock", meta: sock.meta, tls: []string{"ca.pem"}}}, want: "unix:///run/other.sock",
			wantVia: `docker context "sock" (DOCKER_CONTEXT)`},
		{name: "TLS files on ssh are not used", env: map[string]string{"DOCKER_CONTEXT": "viassh"},
			contexts: []storeContext{{name: "viassh", meta: viaSSH.meta, tls: []string{"ca.pem", "cert.pem", "key.pem"}}}, want: "ssh://me@build-host",
			wantVia: `docker context "viassh" (DOCKER_CONTEXT)`},

		{name: "DOCKER_CONTEXT names no context", env: map[string]string{"DOCKER_CONTEXT": "nope"}, contexts: []storeContext{remote},
			wantErr: []string{`docker context "nope" (DOCKER_CONTEXT) does not exist: there is no `,
				filepath.Join("contexts", "meta", contextDigest("nope"), "meta.json"), "docker context ls"}},
		{name: "currentContext names no context", configJSON: `{"currentContext":"gone"}`,
			wantErr: []string{`docker context "gone" (currentContext of `, "config.json) does not exist"}},
		{name: "tcp with TLS files", env: map[string]string{"DOCKER_CONTEXT": "secure"},
			contexts: []storeContext{{name: "secure", meta: meta("secure", "tcp://secure-host:2376", false), tls: []string{"ca.pem", "cert.pem", "key.pem"}}},
			want:     "tcp://secure-host:2376", wantVia: `docker context "secure" (DOCKER_CONTEXT)`, wantTLS: []string{"ca.pem", "cert.pem", "key.pem"}},
		{name: "tcp with a CA only", env: map[string]string{"DOCKER_CONTEXT": "ca"},
			contexts: []storeContext{{name: "ca", meta: meta("ca", "tcp://h:2376", false), tls: []string{"ca.pem"}}},
			want:     "tcp://h:2376", wantVia: `docker context "ca" (DOCKER_CONTEXT)`, wantTLS: []string{"ca.pem"}},
		{name: "tcp skipping verification", configJSON: `{"currentContext":"skip"}`,
			contexts: []storeContext{{name: "skip", meta: meta("skip", "tcp://h:2376", true)}},
			want:     "tcp://h:2376", wantVia: `docker context "skip" (currentContext of `, wantTLS: []string{"skip"}},
		{name: "a certificate without its key", env: map[string]string{"DOCKER_CONTEXT": "half"},
			contexts: []storeContext{{name: "half", meta: meta("half", "tcp://h:2376", false), tls: []string{"cert.pem"}}},
			wantErr:  []string{`docker context "half" (DOCKER_CONTEXT) has only one of cert.pem and key.pem in `}},
		{name: "unsupported host", env: map[string]string{"DOCKER_CONTEXT": "ftp"},
			contexts: []storeContext{{name: "ftp", meta: meta("ftp", "ftp://x", false)}},
			wantErr:  []string{`docker context "ftp" (DOCKER_CONTEXT) has the docker host "ftp://x", which uses the scheme "ftp://"`}},
		{name: "no docker endpoint", env: map[string]string{"DOCKER_CONTEXT": "k8s"},
			contexts: []storeContext{{name: "k8s", meta: `{"Name":"k8s","Metadata":{},"Endpoints":{"kubernetes":{}}}`}},
			wantErr:  []string{`docker context "k8s" (DOCKER_CONTEXT) has no docker endpoint (`}},
		{name: "garbled meta.json", env: map[string]string{"DOCKER_CONTEXT": "bad"},
			contexts: []storeContext{{name: "bad", meta: `{"Name":"bad","Endpoints":`}},
			wantErr:  []string{`cannot read docker context "bad" (DOCKER_CONTEXT): `, "meta.json: not valid JSON"}},
		{name: "garbled endpoint", env: map[string]string{"DOCKER_CONTEXT": "bad"},
			contexts: []storeContext{{name: "bad", meta: `{"Name":"bad","Endpoints":{"docker":{"Host":7}}}`}},
			wantErr:  []string{`cannot read docker context "bad" (DOCKER_CONTEXT): the docker endpoint of `, "Host is a JSON number, not a string"}},
		{name: "garbled config.json", configJSON: `{"auths":{"x":{"auth":"secret-x"}},`,
			wantErr: []string{"cannot read the docker config file ", "config.json: not valid JSON (at byte"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			home := t.TempDir()
			store := dir
			if c.noConfig {
				store = filepath.Join(home, ".docker")
			}
			writeDockerConfig(t, store, c.configJSON, c.contexts...)
			getenv := func(k string) string {
				if k == envDockerConfig && !c.noConfig {
					return dir
				}
				return c.env[k]
			}
			host, via, tls, err := engineHost(getenv, func() (string, error) { return home, c.homeErr })
			if len(c.wantErr) > 0 {
				if err == nil {
					t.Fatalf("= %q, want an error", host)
				}
				for _, w := range c.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("err %v\nwant %q", err, w)
					}
				}
				if strings.Contains(err.Error(), "secret-x") {
					t.Errorf("err shows the file: %v", err)
				}
				return
			}
			if err != nil || host != c.want || !strings.HasPrefix(via, c.wantVia) || (c.wantVia == "") != (via == "") {
				t.Fatalf("= %q, %q, %v; want %q, %q", host, via, err, c.want, c.wantVia)
			}
			// A context's engine never takes DOCKER_CERT_PATH: its TLS is
			// the context's, empty when it has none.
			if (via != "") != (tls != nil) {
				t.Fatalf("TLS %+v for via %q: a context's engine has its own TLS, no other does", tls, via)
			}
			var got []string
			if tls != nil {
				tlsDir := filepath.Join(dir, "contexts", "tls", contextDigest(strings.Split(via, `"`)[1]), "docker")
				for name, file := range map[string]string{"ca.pem": tls.CAFile, "cert.pem": tls.CertFile, "key.pem": tls.KeyFile} {
					switch file {
					case "":
					case filepath.Join(tlsDir, name):
						got = append(got, name)
					default:
						t.Errorf("%s is %s, want it in %s", name, file, tlsDir)
					}
				}
				if tls.SkipVerify {
					got = append(got, "skip")
				}
			}
			slices.Sort(got)
			if want := slices.Sorted(slices.Values(c.wantTLS)); !slices.Equal(got, want) {
				t.Errorf("TLS %v, want %v", got, want)
			}
		})
	}
}

func contextDigest(name string) string {
	sum := sha256.Sum256([]byte(name))
	return hex.EncodeToString(sum[:])
}

// TestDefinitionContext: configure takes the engine from the docker
// context when neither the block nor DOCKER_HOST names one, and reports a
// broken context as such; the block's host still wins over the context.
func TestDefinitionContext(t *testing.T) {
	dir := t.TempDir()
	missing := "unix://" + filepath.Join(t.TempDir(), "no.sock")
	writeDockerConfig(t, dir, `{"currentContext":"gone-engine"}`,
		storeContext{name: "gone-engine", meta: meta("gone-engine", missing, false)},
		storeContext{name: "secure", meta: meta("secure", "tcp://secure-host:2376", false), tls: []string{"ca.pem", "cert.pem", "key.pem"}})
	t.Setenv("DOCKER_HOST", "")
	t.Setenv("DOCKER_CONFIG", dir)
	def := Definition()
	cases := []struct {
		name, dockerContext, host, summary string
		want                               []string
	}{
		{name: "current context's engine", summary: "Cannot connect to Docker",
			want: []string{"cannot reach the Docker engine at " + missing, `(the engine of docker context "gone-engine" (currentContext of ` +
				filepath.Join(dir, "config.json") + "))"}},
		{name: "block host wins", host: "unix://" + filepath.Join(dir, "block.sock"), summary: "Cannot connect to Docker",
			want: []string{"cannot reach the Docker engine at unix://" + filepath.Join(dir, "block.sock") + ": ", "running?\n\nStart the Docker engine"}},
		{name: "unknown context", dockerContext: "nope", summary: "Invalid Docker context",
			want: []string{`docker context "nope" (DOCKER_CONTEXT) does not exist`, "\n\nFix the context"}},
		{name: "TLS context with broken files", dockerContext: "secure", summary: "Cannot connect to Docker",
			want: []string{"docker TLS settings of the docker context: ", `(the engine of docker context "secure" (DOCKER_CONTEXT))`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("DOCKER_CONTEXT", c.dockerContext)
			block := map[string]string{}
			if c.host != "" {
				block["host"] = c.host
			}
			cfg, err := def.Resolve(block, os.Getenv)
			if err != nil {
				t.Fatal(err)
			}
			_, err = def.Configure(context.Background(), cfg)
			var ce *platform.ConfigureError
			if !errors.As(err, &ce) || ce.Summary != c.summary {
				t.Fatalf("err %v, want a ConfigureError %q", err, c.summary)
			}
			for _, w := range c.want {
				if !strings.Contains(ce.Err.Error(), w) {
					t.Errorf("err %q\nwant %q", ce.Err, w)
				}
			}
			if c.host != "" && strings.Contains(ce.Err.Error(), "docker context") {
				t.Errorf("the block's host did not win: %v", ce.Err)
			}
		})
	}
}

// TestDefinitionContextEngine: the docker context DOCKER_CONTEXT names,
// pointing at the real engine (a local socket through a link only the
// context names), configures a working platform connected there, though
// config.json's current context points at nothing.
func TestDefinitionContextEngine(t *testing.T) {
	acctest.RequireDocker(t)
	sock := os.Getenv("DOCKER_HOST")
	if sock == "" {
		sock = client.DefaultDockerHost
	}
	dir := t.TempDir()
	// A unix socket is reached through a link only the context names; any
	// other engine (tcp:// without TLS, ssh://) is named as it is.
	want := sock
	if path, ok := strings.CutPrefix(sock, "unix://"); ok {
		link := filepath.Join(dir, "engine.sock")
		if err := os.Symlink(path, link); err != nil {
			t.Fatal(err)
		}
		want = "unix://" + link
	} else if os.Getenv("DOCKER_CERT_PATH") != "" {
		t.Skipf("the engine at %s needs TLS; TestDefinitionContextTLS covers a context with TLS", sock)
	}
	writeDockerConfig(t, dir, `{"currentContext":"elsewhere"}`,
		storeContext{name: "elsewhere", meta: meta("elsewhere", "tcp://127.0.0.1:9", false)},
		storeContext{name: "local-engine", meta: meta("local-engine", want, false)})
	t.Setenv("DOCKER_HOST", "")
	t.Setenv("DOCKER_CONFIG", dir)
	t.Setenv("DOCKER_CONTEXT", "local-engine")
	def := Definition()
	cfg, err := def.Resolve(nil, os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	p, err := def.Configure(context.Background(), cfg)
	if err != nil {
		t.Fatalf("configure: %v", err)
	}
	t.Cleanup(func() { _ = p.Close() })
	dp, ok := p.(*Platform)
	if !ok {
		t.Fatalf("platform %T", p)
	}
	api := dp.Client()
	if got := api.DaemonHost(); got != want && !strings.HasPrefix(want, "ssh://") {
		t.Errorf("connected to %s, want the context's %s", got, want)
	}
	if _, err := api.Info(context.Background()); err != nil {
		t.Errorf("info through the context's engine: %v", err)
	}
	if _, err := p.Sandboxes().List(context.Background(), platform.SandboxFilter{}); err != nil {
		t.Errorf("list sandboxes: %v", err)
	}
}

// TestDefinitionContextTLS: the engine of a tcp:// docker context is
// reached over TLS with the context's CA (an engine stand-in serving TLS
// only, whose certificate only that CA vouches for), and DOCKER_CERT_PATH,
// meant for DOCKER_HOST, plays no part (its files do not exist); a context
// without TLS files speaks plain HTTP, as the docker command line does.
func TestDefinitionContextTLS(t *testing.T) {
	engine := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/_ping") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Api-Version", "1.41")
		_, _ = w.Write([]byte("OK"))
	}))
	t.Cleanup(engine.Close)
	caPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: engine.Certificate().Raw})
	host := "tcp://" + strings.TrimPrefix(engine.URL, "https://")

	for _, c := range []struct {
		name    string
		withCA  bool
		wantErr string
	}{
		{name: "the context's CA", withCA: true},
		{name: "no TLS files: plain HTTP, which the engine refuses", wantErr: "Client sent an HTTP request to an HTTPS server"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeDockerConfig(t, dir, `{"currentContext":"tls-engine"}`,
				storeContext{name: "tls-engine", meta: meta("tls-engine", host, false)})
			if c.withCA {
				tlsDir := filepath.Join(dir, "contexts", "tls", contextDigest("tls-engine"), "docker")
				if err := os.MkdirAll(tlsDir, 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(tlsDir, "ca.pem"), caPEM, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			t.Setenv("DOCKER_HOST", "")
			t.Setenv("DOCKER_CONTEXT", "")
			t.Setenv("DOCKER_CONFIG", dir)
			// Certificates for DOCKER_HOST that do not exist: used, they
			// would fail the connection.
			t.Setenv("DOCKER_CERT_PATH", filepath.Join(dir, "no-such-certs"))
			t.Setenv("DOCKER_TLS_VERIFY", "1")
			def := Definition()
			cfg, err := def.Resolve(nil, os.Getenv)
			if err != nil {
				t.Fatal(err)
			}
			p, err := def.Configure(context.Background(), cfg)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("configure without the context's CA: %v, want an error about the %s", err, c.wantErr)
				}
				t.Logf("refused as it should be: %v", err)
				return
			}
			if err != nil {
				t.Fatalf("configure through the TLS context: %v", err)
			}
			_ = p.Close()
		})
	}
}
