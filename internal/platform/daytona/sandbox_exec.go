package daytona

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

var _ platform.CommandRunner = (*Platform)(nil)

// whyExecEnv is why env is refused: the daemon's ExecuteRequest is
// {command, cwd, timeout} (apps/daemon/pkg/toolbox/process/execute/
// types.go); Daytona's Go SDK says as much ("env parameter not supported
// in current toolbox API", libs/sdk-go/pkg/daytona/process.go).
const whyExecEnv = "Daytona's toolbox execute API takes only the command, a working directory and a timeout, no " +
	"environment; set the variable in the sandbox's env"

// execSupport is what the sbx_sandbox_exec action can do on Daytona.
var execSupport = platform.ExecSupport{
	Runs: true, WorkingDir: true, NoEnvWhy: whyExecEnv,
	Doc: "the command runs through the sandbox's toolbox (the daemon's process execute, as Daytona's SDKs call it) " +
		"in a started sandbox; a stopped, paused or archived one is an error. Daytona takes the command as one string, " +
		"which the provider quotes so that the daemon splits it back into the same arguments (an empty argument cannot " +
		"be passed), and runs it without a shell. stdout and stderr come back merged, shown as stdout. Daytona is given " +
		"the action's timeout (whole seconds) and ends the command and its child processes at it",
}

// executeRequest is the daemon's ExecuteRequest (the spec's
// ExecuteRequest): timeout whole seconds, none when absent.
type executeRequest struct {
	Command string  `json:"command"`
	Cwd     *string `json:"cwd,omitempty"`
	Timeout int     `json:"timeout,omitempty"`
}

// executeResponse is ExecuteResponse: the daemon points stdout and stderr
// at one buffer, so result is both, merged. exitCode is -1 when the
// program could not be started (result is then the reason).
type executeResponse struct {
	ExitCode float64 `json:"exitCode"`
	Result   string  `json:"result"`
}

// Exec implements platform.CommandRunner with the daemon's POST
// /process/execute, reached through the box's toolbox proxy
// (<toolboxProxyUrl>/<id>), as Daytona's SDKs reach it; the API's own
// /toolbox/{id}/toolbox/process/execute is deprecated. The daemon runs
// the command to its end and answers with the exit code and the output.
func (p *Platform) Exec(ctx context.Context, id string, spec platform.ExecSpec) (*platform.ExecResult, error) {
	if len(spec.Env) > 0 {
		return nil, fmt.Errorf("env (values not shown) is not supported on daytona: %s", whyExecEnv)
	}
	command, err := daemonCommand(spec.Command)
	if err != nil {
		return nil, err
	}
	d, err := (&sandboxes{p: p}).detail(ctx, id)
	if err != nil {
		return nil, err
	}
	if d.State != dtStarted {
		return nil, fmt.Errorf("sandbox %q is %s on Daytona, so no command can run in it; set its state to running first", id, d.State)
	}
	if d.ToolboxProxyURL == "" {
		return nil, fmt.Errorf("daytona reports no toolbox proxy URL for sandbox %q, so no command can run in it", id)
	}
	cfg := p.toolbox
	cfg.BaseURL = strings.TrimRight(d.ToolboxProxyURL, "/") + "/" + url.PathEscape(d.ID)
	toolbox, err := rest.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("daytona's toolbox proxy URL for sandbox %q: %w", id, err)
	}
	defer toolbox.CloseIdleConnections()
	body := executeRequest{Command: command}
	if spec.WorkingDir != "" {
		body.Cwd = &spec.WorkingDir
	}
	if spec.Timeout > 0 {
		body.Timeout = int((spec.Timeout + time.Second - 1) / time.Second)
	}
	var out executeResponse
	_, err = toolbox.Do(ctx, rest.Request{Method: http.MethodPost, Path: "/process/execute", Body: body, Header: p.header.Clone()}, &out)
	switch {
	case err == nil:
	case ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		detail := "it goes on running in the sandbox: Daytona's daemon runs it to its end whether or not the caller waits"
		if body.Timeout > 0 {
			detail = fmt.Sprintf("Daytona's daemon, given the same timeout (%d s), ends it and its child processes then", body.Timeout)
		}
		return nil, &platform.ExecTimeoutError{Timeout: spec.Timeout, Detail: detail}
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case rest.IsStatus(err, http.StatusRequestTimeout):
		return nil, &platform.ExecTimeoutError{Timeout: spec.Timeout,
			Detail: "Daytona's daemon ended it and its child processes at that timeout"}
	case rest.IsNotFound(err):
		if _, gone := (&sandboxes{p: p}).detail(ctx, id); platform.IsNotFound(gone) {
			return nil, gone
		}
		return nil, fmt.Errorf("running a command in sandbox %q: %w", id, err)
	default:
		return nil, fmt.Errorf("running a command in sandbox %q: %w", id, err)
	}
	stdout := []byte(out.Result)
	cut := false
	if spec.MaxOutput >= 0 && len(stdout) > spec.MaxOutput {
		stdout, cut = stdout[:spec.MaxOutput], true
	}
	return &platform.ExecResult{ExitCode: int(out.ExitCode), Stdout: stdout, Truncated: cut}, nil
}

// daemonCommand writes argv as the one command string the daemon's
// parseCommand (apps/daemon/pkg/toolbox/process/execute/execute.go)
// splits back into argv before it runs it without a shell. That parser
// splits on spaces outside quotes, takes a '...' or "..." span whole (the
// other quote is literal inside it), drops the quotes, joins spans that
// touch, and has no escape character. So each argument is written as
// touching spans: its runs without ' inside '...', its runs of ' inside
// "...". It cannot express an empty argument (the parser drops empty
// words), and the request is JSON, so text that is not UTF-8 cannot
// travel either.
func daemonCommand(argv []string) (string, error) {
	if len(argv) == 0 {
		return "", errors.New("no command to run")
	}
	words := make([]string, len(argv))
	for i, arg := range argv {
		switch {
		case arg == "":
			return "", fmt.Errorf("command[%d] is empty: Daytona's toolbox takes the command as one string and drops empty arguments, so it cannot be passed", i)
		case !utf8.ValidString(arg):
			return "", fmt.Errorf("command[%d] is not UTF-8 text, which Daytona's toolbox cannot take", i)
		}
		var b strings.Builder
		for len(arg) > 0 {
			quote, n := "'", strings.IndexByte(arg, '\'')
			if n == 0 {
				quote, n = `"`, len(arg)-len(strings.TrimLeft(arg, "'"))
			} else if n < 0 {
				n = len(arg)
			}
			b.WriteString(quote + arg[:n] + quote)
			arg = arg[n:]
		}
		words[i] = b.String()
	}
	return strings.Join(words, " "), nil
}
