package docker

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/docker/docker/client"
)

// The docker command line's context store (docker/cli cli/config and
// cli/context/store): its config directory is $DOCKER_CONFIG, else
// ~/.docker; config.json's "currentContext" is the context `docker context
// use` chose; a context's metadata is contexts/meta/<sha256 of its
// name>/meta.json and its TLS files contexts/tls/<same>/docker/.
const (
	envDockerConfig    = "DOCKER_CONFIG"
	envDockerContext   = "DOCKER_CONTEXT"
	defaultContextName = "default"
)

// engineHost is the engine the provider connects to when neither the
// block nor DOCKER_HOST (as Resolve read it) names one, the way the docker
// command line picks it: DOCKER_HOST as the process sees it, else the
// context DOCKER_CONTEXT names, else the current context of config.json,
// else the local socket; the context "default" is the local socket. via
// says where a context's host came from, for messages ("" when no context
// applies), and tls is then the context's TLS (see ContextTLS: never nil
// for a context, so DOCKER_CERT_PATH does not apply to its engine, as for
// the docker command line). getenv and home are os.Getenv and
// os.UserHomeDir in production.
//
// A context that does not exist, an unreadable or garbled config.json or
// meta.json, and a context without a docker endpoint are errors naming the
// context and the file.
func engineHost(getenv func(string) string, home func() (string, error)) (host, via string, tls *ContextTLS, err error) {
	if h := getenv(client.EnvOverrideHost); h != "" {
		return h, "", nil, nil
	}
	dir := getenv(envDockerConfig)
	if dir == "" {
		h, herr := home()
		if herr != nil {
			if name := getenv(envDockerContext); name != "" && name != defaultContextName {
				return "", "", nil, fmt.Errorf("cannot find docker context %q (DOCKER_CONTEXT): no %s and no home directory for ~/.docker: %w",
					name, envDockerConfig, herr)
			}
			return client.DefaultDockerHost, "", nil, nil
		}
		dir = filepath.Join(h, ".docker")
	}
	name, from := getenv(envDockerContext), envDockerContext
	if name == "" {
		cfgFile := filepath.Join(dir, "config.json")
		if name, err = currentContext(cfgFile); err != nil {
			return "", "", nil, err
		}
		from = "currentContext of " + cfgFile
	}
	if name == "" || name == defaultContextName {
		return client.DefaultDockerHost, "", nil, nil
	}
	via = fmt.Sprintf("docker context %q (%s)", name, from)
	host, skipVerify, err := contextEndpoint(dir, name, via)
	if err != nil {
		return "", "", nil, err
	}
	if host == "" {
		// The docker command line then leaves the client its default.
		return client.DefaultDockerHost, via, &ContextTLS{}, nil
	}
	if err := CheckHost(host); err != nil {
		return "", "", nil, fmt.Errorf("%s has the docker host %q, which %w", via, ShownHost(host), err)
	}
	tls = &ContextTLS{SkipVerify: skipVerify}
	if scheme, _, _ := strings.Cut(host, "://"); scheme == "tcp" {
		// The docker command line uses a context's TLS data for tcp://
		// only (not for sockets nor ssh://).
		tlsDir := filepath.Join(dir, "contexts", "tls", contextDir(name), "docker")
		for f, field := range map[string]*string{"ca.pem": &tls.CAFile, "cert.pem": &tls.CertFile, "key.pem": &tls.KeyFile} {
			if _, serr := os.Stat(filepath.Join(tlsDir, f)); serr == nil {
				*field = filepath.Join(tlsDir, f)
			}
		}
		if (tls.CertFile == "") != (tls.KeyFile == "") {
			return "", "", nil, fmt.Errorf("%s has only one of cert.pem and key.pem in %s: a client certificate needs both", via, tlsDir)
		}
	}
	return host, via, tls, nil
}

// currentContext is the "currentContext" of the docker command line's
// config.json at path; "" when there is no file or it names none.
func currentContext(path string) (string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("cannot read the docker config file %s: %w", path, unwrapPath(err))
	}
	var cfg struct {
		CurrentContext string `json:"currentContext"`
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		// The file may hold credentials: say where it is wrong, not what
		// it holds.
		return "", fmt.Errorf("cannot read the docker config file %s: %s", path, jsonProblem(err))
	}
	return cfg.CurrentContext, nil
}

// contextEndpoint reads the docker endpoint of the context called name in
// the config directory dir: its host and SkipTLSVerify.
func contextEndpoint(dir, name, via string) (host string, skipVerify bool, err error) {
	path := filepath.Join(dir, "contexts", "meta", contextDir(name), "meta.json")
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, fmt.Errorf("%s does not exist: there is no %s (`docker context ls` lists the contexts)", via, path)
	}
	if err != nil {
		return "", false, fmt.Errorf("cannot read %s: %s: %w", via, path, unwrapPath(err))
	}
	var meta struct {
		Endpoints map[string]json.RawMessage
	}
	if err := json.Unmarshal(data, &meta); err != nil {
		return "", false, fmt.Errorf("cannot read %s: %s: %s", via, path, jsonProblem(err))
	}
	raw, ok := meta.Endpoints["docker"]
	if !ok || string(raw) == "null" {
		return "", false, fmt.Errorf("%s has no docker endpoint (%s)", via, path)
	}
	var ep struct {
		Host          string
		SkipTLSVerify bool
	}
	if err := json.Unmarshal(raw, &ep); err != nil {
		return "", false, fmt.Errorf("cannot read %s: the docker endpoint of %s: %s", via, path, jsonProblem(err))
	}
	return ep.Host, ep.SkipTLSVerify, nil
}

// contextDir is the store's directory name of a context: the hex sha256
// of its name.
func contextDir(name string) string {
	sum := sha256.Sum256([]byte(name))
	return hex.EncodeToString(sum[:])
}

// jsonProblem says what is wrong with a JSON file without quoting it.
func jsonProblem(err error) string {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fmt.Sprintf("not valid JSON (at byte %d)", syntax.Offset)
	case errors.As(err, &typ):
		return fmt.Sprintf("%s is a JSON %s, not a %s", typ.Field, typ.Value, typ.Type)
	}
	return "not valid JSON"
}

// unwrapPath drops the path of an *fs.PathError, which the message around
// it names already.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
