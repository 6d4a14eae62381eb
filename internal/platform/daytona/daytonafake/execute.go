package daytonafake

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"
)

// The toolbox proxy: every sandbox's toolboxProxyUrl is URL()+toolboxPrefix,
// and the SDKs call the sandbox's daemon at <toolboxProxyUrl>/<sandboxId>/
// <daemon path> (libs/sdk-go/pkg/daytona process.go through the toolbox
// API client; apps/proxy/pkg/proxy get_sandbox_target.go parseToolboxSubpath
// reads /toolbox/<sandboxId>/<path>). The fake serves one daemon path of
// it: POST /process/execute.
//
// Its request and answer are validated against the spec's ExecuteRequest
// and ExecuteResponse, the shapes the daemon defines under those names
// (apps/daemon/pkg/toolbox/process/execute/types.go): the fake hands the
// call to the spec's POST /toolbox/{sandboxId}/toolbox/process/execute,
// which the API still serves but marks deprecated. A client calling that
// deprecated route itself is answered 501 and recorded as a violation.
const (
	toolboxPrefix = "/_fake/toolbox/"
	routeExecute  = "POST /toolbox/{sandboxId}/toolbox/process/execute"
)

type viaToolboxProxy struct{}

// serveToolbox sends a call to the toolbox proxy's execute path through the
// spec-checking front as the spec's execute operation.
func (s *Server) serveToolbox(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.Path, toolboxPrefix)
	id, tail, _ := strings.Cut(rest, "/")
	if r.Method != http.MethodPost || tail != "process/execute" || id == "" {
		s.api.Violation("%s %s: the fake's toolbox proxy serves only POST <toolboxProxyUrl>/<sandboxId>/process/execute", r.Method, r.URL.Path)
		s.api.WriteRaw(w, r, errorReply(http.StatusNotFound, "Cannot %s %s", r.Method, r.URL.Path).wire())
		return
	}
	r2 := r.Clone(context.WithValue(r.Context(), viaToolboxProxy{}, true))
	r2.URL.Path, r2.URL.RawPath = "/toolbox/"+id+"/toolbox/process/execute", ""
	s.api.ServeHTTP(w, r2)
}

// executeRequest is ExecuteRequest (the daemon's: timeout whole seconds).
type executeRequest struct {
	Command string   `json:"command"`
	Timeout *float64 `json:"timeout"`
	Cwd     *string  `json:"cwd"`
}

// executeResponse is ExecuteResponse: the exit code, and stdout and
// stderr merged (the daemon points both at one buffer).
type executeResponse struct {
	ExitCode int    `json:"exitCode"`
	Result   string `json:"result"`
}

// ExecRun is one command the fake ran (ExecRuns).
type ExecRun struct {
	Sandbox string
	// Command is the command string as sent; Argv is how the daemon split it.
	Command string
	Argv    []string
	Cwd     string
	// Timeout is the request's timeout in seconds (0: none given).
	Timeout  int
	ExitCode int
}

// defaultCwd is where the fake runs a command sent without cwd: the
// daemon's own working directory, which the fake takes to be the default
// user's home.
const defaultCwd = "/home/daytona"

// execute is the daemon's ExecuteCommand (apps/daemon/pkg/toolbox/process/
// execute/execute.go) behind the toolbox proxy:
//   - the command string is split by the daemon's parseCommand (splitCommand
//     below) and run without a shell; an empty one is a 400;
//   - a program that cannot be started answers 200 with exitCode -1 and
//     the start error as result;
//   - a timeout (seconds, > 0) ends the command: 408 "Command execution
//     timed out after N seconds. ..."; without one it runs to its end;
//   - the answer is the exit code and the merged output.
//
// The fake's choices: a sandbox not started is a 400 (the proxy cannot
// reach a daemon; the real answer depends on the runner), every cwd exists,
// output is stdout then stderr. The call counts as activity (the proxy
// updates lastActivityAt). It takes the lock itself: a sleep runs without it.
func (s *Server) execute(c *call) reply {
	if c.r.Context().Value(viaToolboxProxy{}) == nil {
		s.api.Violation("%s: the deprecated API route was called instead of the sandbox's toolbox proxy", routeExecute)
		return errorReply(http.StatusNotImplemented, "the fake serves the daemon's execute only through the toolbox proxy")
	}
	var in executeRequest
	if err := json.Unmarshal(c.body, &in); err != nil {
		return errorReply(http.StatusBadRequest, "command is required")
	}
	argv := splitCommand(in.Command)
	if len(argv) == 0 {
		return errorReply(http.StatusBadRequest, "empty command")
	}
	timeout := 0
	if in.Timeout != nil && *in.Timeout > 0 {
		timeout = int(*in.Timeout)
	}
	cwd := defaultCwd
	if in.Cwd != nil {
		cwd = *in.Cwd
	}
	s.mu.Lock()
	s.advanceClock(c.now)
	sb, rep, ok := s.sandboxOr404(c)
	if !ok {
		s.mu.Unlock()
		return rep
	}
	if sb.state != stateStarted {
		s.mu.Unlock()
		return errorReply(http.StatusBadRequest, "Sandbox %s is not started (state %s)", sb.id, sb.state)
	}
	sb.lastActivityAt = c.now
	res, found := fakeapi.RunProgram(argv, sb.env, cwd)
	if !found {
		// As the daemon reports a program it cannot start: exit -1 and
		// Go's exec error.
		res = fakeapi.ProgramResult{Stderr: fmt.Sprintf("exec: %q: executable file not found in $PATH", argv[0]), Exit: -1}
	}
	run := ExecRun{Sandbox: sb.id, Command: in.Command, Argv: argv, Cwd: cwd, Timeout: timeout, ExitCode: res.Exit}
	s.mu.Unlock()

	if res.Sleep > 0 {
		limit := res.Sleep
		timedOut := timeout > 0 && res.Sleep > time.Duration(timeout)*time.Second
		if timedOut {
			limit = time.Duration(timeout) * time.Second
		}
		s.mu.Lock()
		s.sleeping++
		s.mu.Unlock()
		select {
		case <-time.After(limit):
		case <-c.r.Context().Done():
		}
		s.mu.Lock()
		s.sleeping--
		s.mu.Unlock()
		if c.r.Context().Err() != nil {
			// The daemon goes on regardless; the client is gone.
			return errorReply(http.StatusRequestTimeout, "client went away")
		}
		if timedOut {
			return errorReply(http.StatusRequestTimeout, "Command execution timed out after %d seconds. The timeout can be "+
				"increased by adjusting the timeout parameter in the request.", timeout)
		}
	}
	s.mu.Lock()
	s.execRuns = append(s.execRuns, run)
	s.mu.Unlock()
	return reply{status: http.StatusOK, body: executeResponse{ExitCode: res.Exit, Result: res.Stdout + res.Stderr}}
}

// ExecsSleeping counts the execute requests the fake holds now, running a
// sleep: a test whose deadline should pass while a command runs passes it
// once this is above zero, not at an instant of the wall clock.
func (s *Server) ExecsSleeping() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sleeping
}

// ExecRuns lists the commands the fake ran, oldest first.
func (s *Server) ExecRuns() []ExecRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]ExecRun, len(s.execRuns))
	for i, r := range s.execRuns {
		r.Argv = slices.Clone(r.Argv)
		out[i] = r
	}
	return out
}

// splitCommand is how the daemon's parseCommand splits the command string
// (apps/daemon/pkg/toolbox/process/execute/execute.go): words separated by
// spaces (only ' '), a '...' or "..." span kept whole with the other quote
// literal inside it, quotes removed, quoted spans and bare text next to
// each other joined into one word, and an empty word dropped. There is no
// escape character.
func splitCommand(command string) []string {
	var args []string
	var cur bytes.Buffer
	var quote rune
	for _, r := range command {
		switch {
		case (r == '"' || r == '\'') && quote == 0:
			quote = r
		case quote != 0 && r == quote:
			quote = 0
		case r == ' ' && quote == 0:
			if cur.Len() > 0 {
				args = append(args, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
		}
	}
	if cur.Len() > 0 {
		args = append(args, cur.String())
	}
	return args
}
