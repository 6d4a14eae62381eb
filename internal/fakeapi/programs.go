package fakeapi

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// ProgramResult is how a fake program ended.
type ProgramResult struct {
	Stdout, Stderr string
	Exit           int
	// Sleep is how long the program runs before it ends (sleep S).
	Sleep time.Duration
}

// RunProgram runs argv as the fakes' exec APIs run commands: the fakes
// cannot run real programs, so they understand these few (bare, or in /bin
// or /usr/bin):
//   - echo ARGS...: prints them, space-separated, and a newline.
//   - printenv NAME: prints the variable of env (the box's), exit 1 when
//     unset.
//   - pwd: prints dir.
//   - true, false: exit 0, 1.
//   - seq N: prints 1 to N, one a line (N at most 1,000,000).
//   - sleep S: ends after S seconds (real time; a fraction is allowed).
//   - sh -c SCRIPT: statements separated by ";": exit N, echo WORDS,
//     echo WORDS >&2; any other is sh's "not found" (127).
//   - /usr/local/bin/agent cat PATH: the quickstart agent (where the test
//     templates install it) printing a file the box holds. A fake box holds
//     what its agent writes at start: the files its AGENT_FILES variable
//     names (AgentFiles).
//
// Any other program is not found (found false): each fake answers that as
// its platform does.
func RunProgram(argv []string, env map[string]string, dir string) (res ProgramResult, found bool) {
	prog := strings.TrimPrefix(strings.TrimPrefix(argv[0], "/usr/bin/"), "/bin/")
	args := argv[1:]
	switch prog {
	case "echo":
		return ProgramResult{Stdout: strings.Join(args, " ") + "\n"}, true
	case "printenv":
		if len(args) == 1 {
			if v, set := env[args[0]]; set {
				return ProgramResult{Stdout: v + "\n"}, true
			}
		}
		return ProgramResult{Exit: 1}, true
	case "pwd":
		return ProgramResult{Stdout: dir + "\n"}, true
	case "true":
		return ProgramResult{}, true
	case "false":
		return ProgramResult{Exit: 1}, true
	case "seq":
		n, err := strconv.Atoi(strings.Join(args, ""))
		if err != nil || n < 0 || n > 1_000_000 {
			return ProgramResult{Stderr: "seq: invalid argument\n", Exit: 1}, true
		}
		var b strings.Builder
		for i := 1; i <= n; i++ {
			b.WriteString(strconv.Itoa(i))
			b.WriteByte('\n')
		}
		return ProgramResult{Stdout: b.String()}, true
	case "sleep":
		secs, err := strconv.ParseFloat(strings.Join(args, ""), 64)
		if err != nil || secs < 0 || math.IsInf(secs, 0) || math.IsNaN(secs) {
			return ProgramResult{Stderr: "Sleep: invalid time interval\n", Exit: 1}, true
		}
		return ProgramResult{Sleep: time.Duration(secs * float64(time.Second))}, true
	case AgentPath:
		return agentCommand(args, env), true
	case "sh":
		if len(args) == 2 && args[0] == "-c" {
			return fakeShell(args[1]), true
		}
		return ProgramResult{Stderr: "sh: the fake runs only sh -c SCRIPT\n", Exit: 2}, true
	}
	return ProgramResult{}, false
}

// fakeShell runs a script of exit, echo and echo >&2 statements.
func fakeShell(script string) ProgramResult {
	var res ProgramResult
	for stmt := range strings.SplitSeq(script, ";") {
		words := strings.Fields(stmt)
		switch {
		case len(words) == 0:
		case words[0] == "exit":
			n := 0
			if len(words) > 1 {
				v, err := strconv.Atoi(words[1])
				if err != nil {
					res.Stderr += "sh: Exit: Illegal number: " + words[1] + "\n"
					res.Exit = 2
					return res
				}
				n = v & 0xff
			}
			res.Exit = n
			return res
		case words[0] == "echo" && len(words) > 1 && words[len(words)-1] == ">&2":
			res.Stderr += strings.Join(words[1:len(words)-1], " ") + "\n"
		case words[0] == "echo":
			res.Stdout += strings.Join(words[1:], " ") + "\n"
		default:
			res.Stderr += "sh: " + words[0] + ": not found\n"
			res.Exit = 127
		}
	}
	return res
}

// AgentPath is where the test templates install the quickstart agent
// (examples/quickstart/agent).
const AgentPath = "/usr/local/bin/agent"

// agentCommand is the quickstart agent's cat on a fake box: its files are
// what AGENT_FILES names. The agent's other commands are not modelled.
func agentCommand(args []string, env map[string]string) ProgramResult {
	if len(args) != 2 || args[0] != "cat" {
		return ProgramResult{Stderr: "agent: the fakes model only agent cat PATH\n", Exit: 2}
	}
	content, ok := AgentFiles(env)[args[1]]
	if !ok {
		return ProgramResult{Stderr: "open " + args[1] + ": no such file or directory\n", Exit: 1}
	}
	return ProgramResult{Stdout: content}
}

// AgentFiles are the files the quickstart agent writes at start, from its
// AGENT_FILES variable ("path=content;path=content"): what a fake that runs
// no programs holds in a box whose env it received.
func AgentFiles(env map[string]string) map[string]string {
	files := map[string]string{}
	spec, ok := env["AGENT_FILES"]
	if !ok {
		return files
	}
	for pair := range strings.SplitSeq(spec, ";") {
		if p, c, ok := strings.Cut(pair, "="); ok {
			files[p] = c
		}
	}
	return files
}
