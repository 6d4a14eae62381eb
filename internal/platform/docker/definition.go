package docker

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Definition is the Docker platform as the provider registers it: the
// docker {} block, the default when the provider block names no platform.
func Definition() platform.Definition {
	return platform.Definition{
		Name:        "docker",
		Title:       "Docker",
		Description: "Use a Docker engine as the platform. This is the default when no platform block is given.",
		Default:     true,
		// The engine is called directly; nothing retries there.
		Retries: false,
		Settings: []platform.Setting{{
			Name: "host",
			Description: "Address of the Docker engine, e.g. `unix:///var/run/docker.sock`, " +
				"`tcp://build-host:2376` or `ssh://user@host`. TLS settings come from `DOCKER_TLS_VERIFY` and `DOCKER_CERT_PATH`, " +
				"or, for the engine of a docker context, from the context (its `ca.pem`, `cert.pem`, `key.pem` and " +
				"`SkipTLSVerify`), as for the docker command line. " +
				"`ssh://` runs the local `ssh` client, which must log in without a prompt, and `docker system dial-stdio` " +
				"on that host, as the docker command line does. An engine that does not answer within " +
				strconv.Itoa(int(AnswerTimeout/time.Second)) + " seconds (to connect, ping, inspect or list) is an " +
				"error naming it, unless it still answers a ping: then it is busy (an inspect waits while the engine " +
				"starts or stops that container) and the call waits up to " + strconv.Itoa(int(busyEngineLimit/time.Minute)) +
				" minutes; builds, commits, starts, stops and other long calls are bounded by the resources' " +
				"`timeouts` instead.",
			Fallback: "the engine of the current docker context (`DOCKER_CONTEXT`, else the one `docker context use` chose, " +
				"read from `$DOCKER_CONFIG`, else `~/.docker`), else the local socket",
			Env:      []string{"DOCKER_HOST"},
			Validate: validateHost,
		}},
		Retention: retentionRules(),
		// One table, whatever the settings.
		Capabilities: func() platform.Capabilities { return capabilities },
		// No tiers: TierOverrides is nil.
		Configure: configure,
	}
}

// validateHost rejects an engine address the Docker client cannot connect
// to (a scheme it does not speak, a tcp:// without a port), naming the
// value and what is supported; the client would otherwise dial it as TCP
// and fail with "Is the docker daemon running?".
func validateHost(host string) error {
	if err := CheckHost(host); err != nil {
		return fmt.Errorf("%q %w", ShownHost(host), err)
	}
	return nil
}

// configure connects to the engine of cfg's host, else the one the docker
// command line would use (DOCKER_HOST as the process sees it, else the
// current docker context, else the local socket: see engineHost).
func configure(ctx context.Context, cfg platform.Config) (platform.Platform, error) {
	host, via := cfg.Settings["host"], ""
	var fromContext *ContextTLS
	if host == "" {
		var err error
		if host, via, fromContext, err = engineHost(os.Getenv, os.UserHomeDir); err != nil {
			return nil, &platform.ConfigureError{Summary: "Invalid Docker context", Err: fmt.Errorf("%w.\n\n%s", err,
				"Fix the context (docker context inspect), pick another (DOCKER_CONTEXT, docker context use), "+
					"or point the provider at an engine with docker { host = ... } or DOCKER_HOST.")}
		}
	}
	plat, err := New(ctx, Config{Host: host, FromContext: fromContext})
	if err != nil {
		if via != "" {
			err = fmt.Errorf("%w (the engine of %s)", err, via)
		}
		var noAnswer *NoAnswerError
		hint := "Start the Docker engine, or point the provider at one with docker { host = ... } or DOCKER_HOST."
		if errors.As(err, &noAnswer) {
			hint = fmt.Sprintf("Check that a Docker engine listens at %s and is not hung (docker -H %s version), "+
				"or point the provider at another with docker { host = ... } or DOCKER_HOST.", noAnswer.Host, noAnswer.Host)
		}
		return nil, &platform.ConfigureError{Summary: "Cannot connect to Docker", Err: fmt.Errorf("%w\n\n%s", err, hint)}
	}
	return plat, nil
}
