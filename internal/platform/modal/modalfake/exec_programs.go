package modalfake

import (
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"
)

// The programs the fake's exec knows (exec.go lists them).

// programName is a command's program as run from PATH: a bare name, or one
// under /bin or /usr/bin; "" for any other path.
func programName(arg string) string {
	if !strings.Contains(arg, "/") {
		return arg
	}
	if dir := path.Dir(arg); dir == "/bin" || dir == "/usr/bin" {
		return path.Base(arg)
	}
	return ""
}

// commandSteps is what argv does in a box with env, run in workdir.
func commandSteps(argv []string, env map[string]string, workdir string) []step {
	name := programName(argv[0])
	if name == "sh" {
		if len(argv) < 3 || argv[1] != "-c" {
			return exitWith(step{stderr: "modalfake: sh is modelled only as sh -c SCRIPT\n"}, 2)
		}
		return shellSteps(argv[2], env, workdir)
	}
	steps, code, ok := program(name, argv[1:], env, workdir)
	if !ok {
		return exitWith(step{stderr: fmt.Sprintf("exec: %q: executable file not found in $PATH\n", argv[0])}, 127)
	}
	return append(steps, exitStep(code))
}

func exitStep(code int32) step { return step{exit: &code} }

func exitWith(s step, code int32) []step { return []step{s, exitStep(code)} }

// program runs one known program; ok is false for an unknown one.
func program(name string, args []string, env map[string]string, workdir string) (steps []step, code int32, ok bool) {
	switch name {
	case "echo":
		return []step{{stdout: strings.Join(args, " ") + "\n"}}, 0, true
	case "printenv":
		if len(args) == 0 {
			var b strings.Builder
			for _, k := range sortedKeys(env) {
				fmt.Fprintf(&b, "%s=%s\n", k, env[k])
			}
			return []step{{stdout: b.String()}}, 0, true
		}
		var b strings.Builder
		for _, k := range args {
			v, set := env[k]
			if !set {
				code = 1
				continue
			}
			b.WriteString(v + "\n")
		}
		return []step{{stdout: b.String()}}, code, true
	case "pwd":
		return []step{{stdout: workdir + "\n"}}, 0, true
	case "true":
		return nil, 0, true
	case "false":
		return nil, 1, true
	case "sleep":
		if len(args) != 1 {
			return []step{{stderr: "sleep: missing operand\n"}}, 1, true
		}
		secs, err := strconv.ParseFloat(args[0], 64)
		if err != nil || secs < 0 {
			return []step{{stderr: fmt.Sprintf("sleep: invalid time interval '%s'\n", args[0])}}, 1, true
		}
		return []step{{sleep: time.Duration(secs * float64(time.Second))}}, 0, true
	}
	return nil, 0, false
}

// shellSteps runs an sh -c script of the fake's small shell.
func shellSteps(script string, env map[string]string, workdir string) []step {
	var steps []step
	var last int32
	for _, stmt := range strings.FieldsFunc(script, func(r rune) bool { return r == ';' || r == '\n' }) {
		words := strings.Fields(stmt)
		if len(words) == 0 {
			continue
		}
		switch {
		case words[0] == "exit":
			if len(words) > 1 {
				n, err := strconv.Atoi(words[1])
				if err != nil {
					return append(steps, step{stderr: fmt.Sprintf("sh: 1: exit: Illegal number: %s\n", words[1])}, exitStep(2))
				}
				last = int32(n & 0xff)
			}
			return append(steps, exitStep(last))
		case words[0] == "kill" && len(words) == 3 && words[2] == "$$" && strings.HasPrefix(words[1], "-"):
			sig, err := strconv.Atoi(words[1][1:])
			if err != nil || sig <= 0 || sig > 64 {
				return append(steps, step{stderr: fmt.Sprintf("sh: 1: kill: invalid signal number or name: %s\n", words[1][1:])}, exitStep(2))
			}
			return append(steps, step{signal: int32(sig)})
		case words[0] == "echo" && words[len(words)-1] == ">&2":
			steps = append(steps, step{stderr: strings.Join(words[1:len(words)-1], " ") + "\n"})
			last = 0
		default:
			out, code, ok := program(programName(words[0]), words[1:], env, workdir)
			if !ok {
				out, code = []step{{stderr: fmt.Sprintf("sh: 1: %s: not found\n", words[0])}}, 127
			}
			steps = append(steps, out...)
			last = code
		}
	}
	return append(steps, exitStep(last))
}
