// Package docker implements the sandbox platform on a Docker Engine: templates
// are images, sandboxes are containers, volumes are Docker volumes, snapshots
// are committed or imported images.
package docker

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/docker/docker/client"
	"github.com/docker/go-connections/tlsconfig"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Config configures the connection to the Docker Engine.
type Config struct {
	// Host is the engine address, e.g. unix:///var/run/docker.sock or
	// tcp://host:2376. Empty means DOCKER_HOST, else the local socket.
	Host string
	// FromContext is set when Host is a docker context's: its TLS
	// settings (nil without any) replace DOCKER_CERT_PATH and
	// DOCKER_TLS_VERIFY, as for the docker command line.
	FromContext *ContextTLS
}

// ContextTLS is a docker context's TLS for its tcp:// engine: the files
// its store holds ("" for one it does not) and SkipTLSVerify.
type ContextTLS struct {
	CAFile, CertFile, KeyFile string
	SkipVerify                bool
}

// Platform is the Docker implementation of platform.Platform.
type Platform struct {
	api *client.Client
}

var _ platform.Platform = (*Platform)(nil)

// New connects to the Docker Engine and negotiates the API version, so an
// older engine (Debian's 20.10 speaks API 1.41) works with this client.
//
// Every call gets a deadline (see deadlineTransport): an engine that
// accepts the connection and never answers fails the ping after
// AnswerTimeout with a NoAnswerError naming the host, instead of hanging.
// TLS comes from DOCKER_TLS_VERIFY and DOCKER_CERT_PATH, as for the docker
// command line.
func New(ctx context.Context, cfg Config) (*Platform, error) {
	host := cfg.Host
	if host == "" {
		host = defaultHost()
	}
	shown := ShownHost(host)
	if err := CheckHost(host); err != nil {
		return nil, fmt.Errorf("docker host %q %w", shown, err)
	}
	deadlines := &deadlineTransport{answer: AnswerTimeout, ceiling: longCallCeiling,
		probe: aliveProbeTimeout, busy: busyEngineLimit}
	api, err := engineClient(host, cfg.FromContext, deadlines)
	if err != nil {
		return nil, err
	}

	// The client pings with a HEAD and, when that fails short of a refused
	// connection, again with a GET. The HEAD's deadline is the one that
	// counts; the GET gets only a moment more.
	pingCtx, cancel := context.WithTimeout(ctx, AnswerTimeout+2*time.Second)
	defer cancel()
	if _, err := api.Ping(pingCtx); err != nil {
		_ = api.Close() // nothing was opened that outlives the failed ping
		var noAnswer *NoAnswerError
		switch {
		case errors.As(err, &noAnswer):
			return nil, noAnswer
		case ctx.Err() == nil && pingCtx.Err() != nil:
			if last := deadlines.last.Load(); last != nil {
				return nil, last
			}
			return nil, &NoAnswerError{Host: shown, Method: http.MethodHead, Path: "/_ping", Timeout: AnswerTimeout, Stage: StageWaiting}
		}
		return nil, fmt.Errorf("cannot reach the Docker engine at %s: %w", shown, err)
	}
	return &Platform{api: api}, nil
}

// engineClient is the client of the engine at host, every call made
// under the deadlines d (whose next and host it sets).
func engineClient(host string, fromContext *ContextTLS, d *deadlineTransport) (*client.Client, error) {
	shown := ShownHost(host)
	// The client configures this transport (socket, TLS) in place; the
	// deadlines wrap it, and everything the client adds, once it is built.
	tr := &http.Transport{MaxIdleConns: 6, IdleConnTimeout: 30 * time.Second}
	hc := &http.Client{Transport: tr, CheckRedirect: client.CheckRedirect}
	opts, err := connectOpts(host, fromContext, tr)
	if err != nil {
		return nil, err
	}
	opts = append([]client.Opt{client.WithHTTPClient(hc)}, opts...)
	opts = append(opts, client.WithVersionFromEnv(), client.WithAPIVersionNegotiation())
	api, err := client.NewClientWithOpts(opts...)
	if err != nil {
		return nil, fmt.Errorf("docker client for %s: %w", shown, err)
	}
	if strings.HasPrefix(host, "ssh://") {
		// The made-up tcp:// address set a proxy from the environment,
		// which would be asked for that host through the ssh connection.
		tr.Proxy = nil
	}
	d.next, d.host = hc.Transport, shown
	hc.Transport = d
	return api, nil
}

// connectOpts are the client options that reach host through tr: its
// address, and TLS from DOCKER_CERT_PATH and DOCKER_TLS_VERIFY as
// client.FromEnv (and the docker command line) reads them: without
// DOCKER_TLS_VERIFY the certificates authenticate the client only. An
// ssh:// host is dialled with an ssh process per connection (ssh.go); the
// address the client is given then only names the engine in requests.
func connectOpts(host string, fromContext *ContextTLS, tr *http.Transport) ([]client.Opt, error) {
	if strings.HasPrefix(host, "ssh://") {
		target, err := parseSSHHost(host)
		if err != nil {
			return nil, fmt.Errorf("docker host %q %w", ShownHost(host), err)
		}
		return []client.Opt{client.WithHost("tcp://docker-over-ssh.invalid:2375"), client.WithDialContext(target.dial)}, nil
	}
	if fromContext != nil {
		if !strings.HasPrefix(host, "tcp://") || *fromContext == (ContextTLS{}) {
			return []client.Opt{client.WithHost(host)}, nil
		}
		tlsc, err := tlsconfig.Client(tlsconfig.Options{
			CAFile: fromContext.CAFile, CertFile: fromContext.CertFile, KeyFile: fromContext.KeyFile,
			InsecureSkipVerify: fromContext.SkipVerify,
		})
		if err != nil {
			return nil, fmt.Errorf("docker TLS settings of the docker context: %w", err)
		}
		tr.TLSClientConfig = tlsc
		return []client.Opt{client.WithHost(host)}, nil
	}
	if certs := os.Getenv(client.EnvOverrideCertPath); certs != "" {
		tlsc, err := tlsconfig.Client(tlsconfig.Options{
			CAFile:             filepath.Join(certs, "ca.pem"),
			CertFile:           filepath.Join(certs, "cert.pem"),
			KeyFile:            filepath.Join(certs, "key.pem"),
			InsecureSkipVerify: os.Getenv(client.EnvTLSVerify) == "",
		})
		if err != nil {
			return nil, fmt.Errorf("docker TLS settings from %s: %w", client.EnvOverrideCertPath, err)
		}
		tr.TLSClientConfig = tlsc
	}
	return []client.Opt{client.WithHost(host)}, nil
}

// Name implements platform.Platform.
func (p *Platform) Name() string { return "docker" }

// Capabilities implements platform.Platform.
func (p *Platform) Capabilities() platform.Capabilities { return capabilities }

// Extensions implements platform.Platform: ids follow from names, and every
// object the provider made carries its labels.
func (p *Platform) Extensions() platform.Extensions {
	return platform.Extensions{IDs: p, Inventory: p, TemplateSpecs: p, Exec: p, TemplateBuilds: &templates{api: p.api}}
}

// Templates implements platform.Platform.
func (p *Platform) Templates() platform.TemplateService { return &templates{api: p.api} }

// Volumes implements platform.Platform.
func (p *Platform) Volumes() platform.VolumeService { return &volumes{api: p.api} }

// Sandboxes implements platform.Platform.
func (p *Platform) Sandboxes() platform.SandboxService {
	return maskedSandboxes{&sandboxes{api: p.api}}
}

// Snapshots implements platform.Platform.
func (p *Platform) Snapshots() platform.SnapshotService { return &snapshots{api: p.api} }

// Client exposes the engine client to tests in other packages that need to
// act out of band (pause a container, delete a volume).
func (p *Platform) Client() *client.Client { return p.api }

// Close implements platform.Platform: it closes the engine client.
func (p *Platform) Close() error { return p.api.Close() }

var _ platform.IDPlanner = (*Platform)(nil)

// PlannedID implements platform.IDPlanner: a template's id is its tag and a
// volume's id its name, both known before anything is made.
func (p *Platform) PlannedID(kind, name string) (string, bool) {
	switch kind {
	case kindTemplate:
		return TemplateID(name), true
	case kindVolume:
		return name, true
	}
	return "", false
}
