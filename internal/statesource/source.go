// Package statesource reads every workspace's state from a Terraform
// backend, for the commands that judge a whole fleet at once (drift,
// orphans): Terraform's pg backend on PostgreSQL, and a local working
// directory (terraform.tfstate and terraform.tfstate.d/<workspace>/).
//
// Reading is read-only and takes no state lock: the commands only read
// what the last apply wrote. A workspace that cannot be read is an error
// naming it, never an empty state: the orphans command treats what no
// state holds as deletable, so a state silently read as empty would delete
// that workspace's boxes.
package statesource

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
)

// Source is a backend holding the states of many workspaces.
type Source interface {
	// Describe names the source in reports and errors, without secrets.
	Describe() string
	// Each calls fn once per workspace, in name order, with the workspace's
	// state (r is nil for a workspace that has no state yet). The reader is
	// valid only during the call. An error of fn stops the walk and is
	// returned, wrapped with the workspace's name.
	Each(ctx context.Context, fn func(workspace string, r io.Reader) error) error
}

// Config is the --backend and --backend-config flags of a command.
type Config struct {
	Type     string
	settings settingList
}

type settingList []string

func (l *settingList) String() string     { return strings.Join(*l, ",") }
func (l *settingList) Set(v string) error { *l = append(*l, v); return nil }

// Usage describes the backend types for the commands' usage text.
const Usage = `  pg     Terraform's pg backend: every row of the states table. conn_str
         and schema_name as --backend-config, else PG_CONN_STR and
         PG_SCHEMA_NAME (default terraform_remote_state).
  s3     Terraform's s3 backend, or an S3-compatible store: bucket, key,
         workspace_key_prefix (default env:), region, endpoint,
         use_path_style; AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
         AWS_SESSION_TOKEN, AWS_REGION, AWS_ENDPOINT_URL_S3.
  local  a working directory (--backend-config dir=PATH, default .):
         terraform.tfstate and terraform.tfstate.d/<workspace>/terraform.tfstate.
`

// Types are the backend types --backend takes.
var Types = []string{"pg", "s3", "local"}

// RegisterFlags adds --backend and --backend-config to fs.
func RegisterFlags(fs *flag.FlagSet) *Config {
	c := &Config{}
	fs.StringVar(&c.Type, "backend", "", "read every workspace's state from this Terraform backend: pg, s3 or local (see --backend-config)")
	fs.Var(&c.settings, "backend-config", "a KEY=VALUE setting of --backend, as terraform init -backend-config takes it (repeatable): "+
		"pg: conn_str (default $PG_CONN_STR), schema_name (default $PG_SCHEMA_NAME, else terraform_remote_state); "+
		"s3: bucket, key, workspace_key_prefix (default env:), region (default $AWS_REGION), endpoint (default $AWS_ENDPOINT_URL_S3), use_path_style, "+
		"with AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN; "+
		"local: dir, the working directory (default .)")
	return c
}

// Set reports whether --backend was given.
func (c *Config) Set() bool { return c.Type != "" }

// keys of each backend type, as Terraform's backends name them (endpoint
// is the s3 block's endpoints.s3; dir is the local working directory,
// which Terraform takes from where it runs).
var keys = map[string][]string{
	"pg":    {"conn_str", "schema_name"},
	"s3":    {"bucket", "key", "workspace_key_prefix", "region", "endpoint", "use_path_style"},
	"local": {"dir"},
}

// Open checks the flags and returns the source they name; getenv reads
// the variables Terraform's own backends read (PG_CONN_STR,
// PG_SCHEMA_NAME). It connects to nothing yet.
func (c *Config) Open(getenv func(string) string) (Source, error) {
	allowed, ok := keys[c.Type]
	if !ok {
		return nil, fmt.Errorf("invalid --backend %q: use %s", c.Type, strings.Join(Types, ", "))
	}
	settings := map[string]string{}
	for _, kv := range c.settings {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("invalid --backend-config %q: want KEY=VALUE, with KEY one of %s", redactSetting(kv), strings.Join(allowed, ", "))
		}
		if !slices.Contains(allowed, k) {
			return nil, fmt.Errorf("invalid --backend-config key %q for the %s backend: use %s", k, c.Type, strings.Join(allowed, ", "))
		}
		settings[k] = v
	}
	switch c.Type {
	case "pg":
		return newPG(settings, getenv)
	case "s3":
		return newS3(settings, getenv)
	default:
		return newLocal(settings["dir"])
	}
}

// redactSetting keeps a malformed setting's key and drops anything that
// may be a secret.
func redactSetting(kv string) string {
	if len(kv) > 12 {
		return kv[:12] + "…"
	}
	return kv
}

// WorkspaceError is a workspace that could not be read or parsed.
type WorkspaceError struct {
	Source, Workspace string
	Err               error
}

func (e *WorkspaceError) Error() string {
	return fmt.Sprintf("%s: workspace %q: %v", e.Source, e.Workspace, e.Err)
}

func (e *WorkspaceError) Unwrap() error { return e.Err }

// sortedNames sorts workspace names with default first, as terraform
// workspace list shows them.
func sortedNames(names []string) {
	sort.Slice(names, func(i, j int) bool {
		if (names[i] == "default") != (names[j] == "default") {
			return names[i] == "default"
		}
		return names[i] < names[j]
	})
}
