package flyfake

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"
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
// programs (fakeapi.RunProgram), answered once it ended. It takes the lock itself:
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
	res, found := fakeapi.RunProgram(argv, env, "/")
	if !found {
		res = fakeapi.ProgramResult{Stderr: fmt.Sprintf("exec: %q: executable file not found in $PATH\n", argv[0]), Exit: 127}
	}
	run := ExecRun{Machine: m.id, Command: slices.Clone(argv), Timeout: in.Timeout, ExitCode: res.Exit}
	s.mu.Unlock()

	if res.Sleep > 0 {
		limit := res.Sleep
		timedOut := in.Timeout > 0 && res.Sleep > time.Duration(in.Timeout)*time.Second
		if timedOut {
			limit = time.Duration(in.Timeout) * time.Second
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
			return errorReply(http.StatusRequestTimeout, "client went away")
		}
		if timedOut {
			return errorReply(http.StatusRequestTimeout, "deadline_exceeded: the command did not end within %d s", in.Timeout)
		}
	}
	s.mu.Lock()
	s.execRuns = append(s.execRuns, run)
	s.mu.Unlock()
	return reply{status: http.StatusOK, body: execResponse{ExitCode: int32(res.Exit), StdOut: res.Stdout, StdErr: res.Stderr}}
}

// ExecsSleeping counts the exec requests the fake holds now, running a
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
		r.Command = slices.Clone(r.Command)
		out[i] = r
	}
	return out
}
