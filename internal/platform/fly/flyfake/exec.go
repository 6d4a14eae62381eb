package flyfake

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
)

// RouteExec is POST /apps/{app}/machines/{id}/exec. The 2023 spec has it
// (Machines_exec) with MachineExecRequest {cmd (deprecated), command,
// timeout}, and the request is validated against that schema. Its 200 is
// declared a string; Fly answers fly-go's MachineExecResponse {exit_code,
// stdout, stderr}, each omitted when zero or empty (machine_types.go,
// read by flaps/flaps_machines.go Exec and flyctl's `fly machine exec`),
// so the answer is checked by hand, as the other off-spec routes' are.
const RouteExec = "POST /apps/{app_name}/machines/{machine_id}/exec"

// execResponse is fly-go's MachineExecResponse.
type execResponse struct {
	ExitCode int32  `json:"exit_code,omitempty"`
	StdOut   string `json:"stdout,omitempty"`
	StdErr   string `json:"stderr,omitempty"`
}

// execBody is MachineExecRequest as the fake reads it.
type execBody struct {
	Cmd     string   `json:"cmd"`
	Command []string `json:"command"`
	Timeout int      `json:"timeout"`
}

// ExecRun is one command the fake ran (ExecRuns).
type ExecRun struct {
	Machine string
	Command []string
	// Timeout is the request's timeout in seconds (0: none given).
	Timeout  int
	ExitCode int
}

// checkExecRequest validates an exec request against the spec's
// Machines_exec operation (MachineExecRequest).
func (s *Server) checkExecRequest(r *http.Request, body []byte) []string {
	vreq := r.Clone(r.Context())
	vreq.URL.Path, vreq.URL.RawPath = strings.TrimPrefix(r.URL.Path, "/v1"), ""
	vreq.Body = nopCloser{bytes.NewReader(body)}
	route, params, err := s.api.Router().FindRoute(vreq)
	if err != nil {
		return []string{"no Machines_exec operation in the spec: " + err.Error()}
	}
	opts := &openapi3filter.Options{MultiError: true, SkipSettingDefaults: true}
	opts.AuthenticationFunc = func(context.Context, *openapi3filter.AuthenticationInput) error { return nil }
	opts.WithCustomSchemaErrorFunc(func(err *openapi3.SchemaError) string {
		return fmt.Sprintf("at /%s: %s", strings.Join(err.JSONPointer(), "/"), err.Reason)
	})
	err = openapi3filter.ValidateRequest(r.Context(), &openapi3filter.RequestValidationInput{
		Request: vreq, PathParams: params, Route: route, Options: opts})
	if err == nil {
		return nil
	}
	var problems []string
	var me openapi3.MultiError
	if errors.As(err, &me) {
		for _, e := range me {
			problems = append(problems, strings.ReplaceAll(e.Error(), "\n", " "))
		}
		return problems
	}
	return []string{strings.ReplaceAll(err.Error(), "\n", " ")}
}

type nopCloser struct{ *bytes.Reader }

func (nopCloser) Close() error { return nil }

// execMachine runs a command in a started machine: the fake's small set of
// programs (fakeProgram), answered once it ended. It takes the lock itself:
// a sleep runs without it.
//
// The fake's choices where Fly documents nothing: a machine not started is
// a 412 failed_precondition (as the fake's other actions from the wrong
// state); a program the fake does not know exits 127 with "not found" on
// stderr; a sleep past the request's timeout is a 408 when the timeout
// passes. A request with the deprecated cmd instead of command is served
// (split on spaces) but recorded as a violation: the provider's client
// must send argv.
func (s *Server) execMachine(c *call) reply {
	var in execBody
	if err := json.Unmarshal(c.body, &in); err != nil {
		return errorReply(http.StatusBadRequest, "invalid exec request: %v", err)
	}
	argv := in.Command
	if len(argv) == 0 && in.Cmd != "" {
		s.api.Violation("%s: the deprecated cmd %q was sent instead of command", RouteExec, in.Cmd)
		argv = strings.Fields(in.Cmd)
	}
	if len(argv) == 0 {
		return errorReply(http.StatusBadRequest, "invalid exec request: command is required")
	}
	s.mu.Lock()
	s.advanceClock(c.now)
	m, rep, found := s.machineFor(c)
	if !found {
		s.mu.Unlock()
		return rep
	}
	if m.state != StateStarted {
		s.mu.Unlock()
		return errorReply(http.StatusPreconditionFailed, "failed_precondition: unable to exec on machine %s, current state is '%s'", m.id, m.state)
	}
	env := map[string]string{}
	for k, v := range m.parsed.Env {
		env[k] = v
	}
	res := fakeProgram(argv, env, "/")
	run := ExecRun{Machine: m.id, Command: slices.Clone(argv), Timeout: in.Timeout, ExitCode: res.exit}
	s.mu.Unlock()

	if res.sleep > 0 {
		limit := res.sleep
		timedOut := in.Timeout > 0 && res.sleep > time.Duration(in.Timeout)*time.Second
		if timedOut {
			limit = time.Duration(in.Timeout) * time.Second
		}
		select {
		case <-time.After(limit):
		case <-c.r.Context().Done():
			return errorReply(http.StatusRequestTimeout, "client went away")
		}
		if timedOut {
			return errorReply(http.StatusRequestTimeout, "deadline_exceeded: the command did not end within %d s", in.Timeout)
		}
	}
	s.mu.Lock()
	s.execRuns = append(s.execRuns, run)
	s.mu.Unlock()
	return reply{status: http.StatusOK, body: execResponse{ExitCode: int32(res.exit), StdOut: res.stdout, StdErr: res.stderr}}
}

// ExecRuns lists the commands the fake ran, oldest first.
func (s *Server) ExecRuns() []ExecRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]ExecRun, len(s.execRuns))
	for i, r := range s.execRuns {
		r.Command = slices.Clone(r.Command)
		out[i] = r
	}
	return out
}

// programResult is how a fake program ended.
type programResult struct {
	stdout, stderr string
	exit           int
	sleep          time.Duration
}

// fakeProgram runs argv as the fake's programs do. It knows (bare, or in
// /bin or /usr/bin):
//   - echo ARGS...: prints them, space-separated, and a newline.
//   - printenv NAME: prints the variable of the machine's env (config.env),
//     exit 1 when unset.
//   - pwd: prints dir.
//   - true, false: exit 0, 1.
//   - seq N: prints 1 to N, one a line (N at most 1,000,000).
//   - sleep S: ends after S seconds (real time; a fraction is allowed).
//   - sh -c SCRIPT: statements separated by ";": exit N, echo WORDS,
//     echo WORDS >&2; any other is sh's "not found" (127).
//
// Any other program is not found: exit 127.
func fakeProgram(argv []string, env map[string]string, dir string) programResult {
	prog := strings.TrimPrefix(strings.TrimPrefix(argv[0], "/usr/bin/"), "/bin/")
	args := argv[1:]
	switch prog {
	case "echo":
		return programResult{stdout: strings.Join(args, " ") + "\n"}
	case "printenv":
		if len(args) == 1 {
			if v, set := env[args[0]]; set {
				return programResult{stdout: v + "\n"}
			}
		}
		return programResult{exit: 1}
	case "pwd":
		return programResult{stdout: dir + "\n"}
	case "true":
		return programResult{}
	case "false":
		return programResult{exit: 1}
	case "seq":
		n, err := strconv.Atoi(strings.Join(args, ""))
		if err != nil || n < 0 || n > 1_000_000 {
			return programResult{stderr: "seq: invalid argument\n", exit: 1}
		}
		var b strings.Builder
		for i := 1; i <= n; i++ {
			b.WriteString(strconv.Itoa(i))
			b.WriteByte('\n')
		}
		return programResult{stdout: b.String()}
	case "sleep":
		secs, err := strconv.ParseFloat(strings.Join(args, ""), 64)
		if err != nil || secs < 0 || math.IsInf(secs, 0) || math.IsNaN(secs) {
			return programResult{stderr: "sleep: invalid time interval\n", exit: 1}
		}
		return programResult{sleep: time.Duration(secs * float64(time.Second))}
	case "sh":
		if len(args) == 2 && args[0] == "-c" {
			return fakeShell(args[1])
		}
		return programResult{stderr: "sh: the fake runs only sh -c SCRIPT\n", exit: 2}
	}
	return programResult{stderr: fmt.Sprintf("exec: %q: executable file not found in $PATH\n", argv[0]), exit: 127}
}

// fakeShell runs a script of exit, echo and echo >&2 statements.
func fakeShell(script string) programResult {
	var res programResult
	for stmt := range strings.SplitSeq(script, ";") {
		words := strings.Fields(stmt)
		switch {
		case len(words) == 0:
		case words[0] == "exit":
			n := 0
			if len(words) > 1 {
				v, err := strconv.Atoi(words[1])
				if err != nil {
					res.stderr += "sh: exit: Illegal number: " + words[1] + "\n"
					res.exit = 2
					return res
				}
				n = v & 0xff
			}
			res.exit = n
			return res
		case words[0] == "echo" && len(words) > 1 && words[len(words)-1] == ">&2":
			res.stderr += strings.Join(words[1:len(words)-1], " ") + "\n"
		case words[0] == "echo":
			res.stdout += strings.Join(words[1:], " ") + "\n"
		default:
			res.stderr += "sh: " + words[0] + ": not found\n"
			res.exit = 127
		}
	}
	return res
}
