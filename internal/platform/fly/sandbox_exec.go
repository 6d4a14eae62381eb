package fly

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/restplatform"
)

var _ platform.CommandRunner = (*Platform)(nil)

// Why the exec action's arguments besides the command are refused on Fly:
// the Machines API's exec takes the command, a timeout and (fly-go's
// MachineExecRequest) a container and stdin; nothing else.
const (
	whyExecEnv = "Fly's exec API (POST /machines/{id}/exec) takes no environment for a command; " +
		"set the variable in the sandbox's env"
	whyExecWorkingDir = "Fly's exec API (POST /machines/{id}/exec) takes no working directory; " +
		"use a shell, e.g. [\"/bin/sh\", \"-c\", \"cd /dir && prog\"]"
)

// execSupport is what the sbx_sandbox_exec action can do on Fly.
var execSupport = platform.ExecSupport{
	Runs:     true,
	NoEnvWhy: whyExecEnv, NoWorkingDirWhy: whyExecWorkingDir,
	Doc: "the command runs through the Machines API's exec (POST /machines/{id}/exec), as argv without a shell, in a " +
		"started machine; a stopped or suspended one is an error. Fly answers once the command ended, with its exit " +
		"code, stdout and stderr; Fly is given the action's timeout (whole seconds) and how it ends a command still " +
		"running then is Fly's",
}

// execRequest is the spec's MachineExecRequest: command is argv (the
// spec's cmd string is deprecated), timeout whole seconds.
type execRequest struct {
	Command []string `json:"command"`
	Timeout int      `json:"timeout,omitempty"`
}

// execResponse is how Fly answers an exec: fly-go's MachineExecResponse
// (machine_types.go), read by flaps_machines.go Exec and flyctl's `fly
// machine exec`. The 2023 spec calls the 200 body a string; Fly sends this
// JSON object. exit_code, stdout and stderr are omitted when zero or empty.
type execResponse struct {
	ExitCode int32  `json:"exit_code"`
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
}

// Exec implements platform.CommandRunner with the Machines API's exec,
// which runs the command to its end and answers with its exit code and
// output. Fly takes neither env nor a working directory (execSupport).
func (p *Platform) Exec(ctx context.Context, id string, spec platform.ExecSpec) (*platform.ExecResult, error) {
	switch {
	case len(spec.Command) == 0:
		return nil, errors.New("no command to run")
	case len(spec.Env) > 0:
		return nil, fmt.Errorf("env (values not shown) is not supported on fly: %s", whyExecEnv)
	case spec.WorkingDir != "":
		return nil, fmt.Errorf("working_dir is not supported on fly: %s", whyExecWorkingDir)
	}
	body := execRequest{Command: spec.Command}
	if spec.Timeout > 0 {
		body.Timeout = int((spec.Timeout + time.Second - 1) / time.Second)
	}
	var out execResponse
	_, err := p.do(ctx, http.MethodPost, p.itemPath("machines", id, "exec"), nil, body, &out)
	if err != nil {
		if ctx.Err() != nil {
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return nil, &platform.ExecTimeoutError{Timeout: spec.Timeout,
					Detail: fmt.Sprintf("Fly was given a timeout of %d s for it; whether it still runs in the machine is Fly's to say", body.Timeout)}
			}
			return nil, ctx.Err()
		}
		return nil, p.execErr(ctx, id, err)
	}
	stdout, cutOut := capBytes([]byte(out.Stdout), spec.MaxOutput)
	stderr, cutErr := capBytes([]byte(out.Stderr), spec.MaxOutput)
	return &platform.ExecResult{ExitCode: int(out.ExitCode), Stdout: stdout, Stderr: stderr, Truncated: cutOut || cutErr}, nil
}

// execErr describes an exec Fly refused: a machine that is gone says so,
// one that is not started says which state it is in (Fly runs commands in
// a started machine only).
func (p *Platform) execErr(ctx context.Context, id string, err error) error {
	if nf := restplatform.NotFound(err, "sandbox", id); platform.IsNotFound(nf) {
		return nf
	}
	m, rerr := (&sandboxes{p: p}).read(ctx, id)
	switch {
	case rerr != nil && platform.IsNotFound(rerr):
		return rerr
	case rerr == nil && m.State != flyStarted:
		return fmt.Errorf("sandbox %q is %s on Fly, so no command can run in it (%s); set its state to running first",
			id, m.State, flyError(err))
	}
	return fmt.Errorf("running a command in sandbox %q: %s", id, flyError(err))
}

// capBytes keeps the first max bytes of b and says whether it dropped any.
func capBytes(b []byte, limit int) ([]byte, bool) {
	if limit >= 0 && len(b) > limit {
		return b[:limit], true
	}
	return b, false
}
