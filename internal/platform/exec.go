package platform

import (
	"context"
	"time"
)

// CommandRunner runs a command in a live sandbox and waits for it to end:
// the sbx_sandbox_exec action. A platform offers it (Extensions.Exec) when
// its API runs a command and reports the exit code; its Capabilities.Exec
// says what it takes besides the command.
type CommandRunner interface {
	// Exec runs spec.Command in the sandbox id and returns when the command
	// ended, with its exit code and output. A command that ran and failed
	// (a non-zero exit code) is a result, not an error; an error means the
	// command could not be run or its end could not be seen (the box is not
	// running, the platform refused, ctx ended first: *ExecTimeoutError
	// when spec.Timeout passed). Output past spec.MaxOutput bytes per
	// stream is dropped (ExecResult.Truncated). Values of spec.Env are
	// secrets: an error never shows them.
	Exec(ctx context.Context, id string, spec ExecSpec) (*ExecResult, error)
}

// ExecSpec is a command to run in a sandbox.
type ExecSpec struct {
	// Command is the program and its arguments, run without a shell.
	Command []string
	// Env is added to the box's environment for this command; only where
	// ExecSupport.Env says the platform takes it.
	Env map[string]string
	// WorkingDir is the directory it runs in ("" the box's default); only
	// where ExecSupport.WorkingDir says the platform takes it.
	WorkingDir string
	// Timeout bounds the command on the platform too, where the platform
	// takes a timeout (0: none); ctx bounds the call in every case.
	Timeout time.Duration
	// MaxOutput is how many bytes of each stream are kept.
	MaxOutput int
}

// ExecResult is how a command ended.
type ExecResult struct {
	ExitCode int
	Stdout   []byte
	Stderr   []byte
	// Truncated: a stream wrote more than MaxOutput bytes; the rest is
	// dropped.
	Truncated bool
}

// ExecSupport says what the sbx_sandbox_exec action can do on a platform.
// The zero value refuses it; Why says why. A platform that runs commands
// sets Runs and says which arguments besides the command it takes (the
// others are plan-time errors giving the reason).
type ExecSupport struct {
	// Runs: Extensions.Exec runs commands. Why is then empty.
	Runs bool
	// Why the platform does not run commands (when Runs is false), for the
	// plan-time error and the docs; lower case, no final period.
	Why string
	// Env, WorkingDir: the platform takes the argument with the command.
	// NoEnvWhy, NoWorkingDirWhy say why it does not, when it does not.
	Env             bool
	NoEnvWhy        string
	WorkingDir      bool
	NoWorkingDirWhy string
	// Doc is what running a command is on the platform (how it is run,
	// which states of the box it needs), for the docs; lower case, no
	// final period.
	Doc string
}

// ExecTimeoutError is a command still running when its timeout passed.
// Whether it goes on running on the platform depends on the platform;
// Detail says.
type ExecTimeoutError struct {
	Timeout time.Duration
	Detail  string
}

func (e *ExecTimeoutError) Error() string {
	msg := "the command did not end within " + e.Timeout.String()
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}
