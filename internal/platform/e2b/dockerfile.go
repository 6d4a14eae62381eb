package e2b

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	dockerfileparse "github.com/sbxhq/terraform-provider-sbx/internal/dockerfile"
)

// E2B build step types, as the template build API names them.
const (
	stepRun     = "RUN"
	stepCopy    = "COPY"
	stepEnv     = "ENV"
	stepWorkdir = "WORKDIR"
	stepUser    = "USER"
)

// DockerfileError names the Dockerfile line E2B cannot express, so the plan
// error points at it.
type DockerfileError struct {
	Line        int    // 1-based line where the instruction starts
	Instruction string // upper-case instruction keyword, or "" for a syntax problem
	Reason      string
}

func (e *DockerfileError) Error() string {
	if e.Instruction == "" {
		return fmt.Sprintf("dockerfile line %d: %s", e.Line, e.Reason)
	}
	return fmt.Sprintf("dockerfile line %d: %s: %s", e.Line, e.Instruction, e.Reason)
}

// buildPlan is a Dockerfile translated into E2B's build request: a base
// image and the ordered steps run on it.
type buildPlan struct {
	FromImage string
	Steps     []templateStep
	// HasCopy is true when a step reads files from the build context.
	HasCopy bool
}

// unsupportedInstructions say, for each Dockerfile instruction E2B's build
// steps cannot express, what to do instead.
var unsupportedInstructions = map[string]string{
	"ARG":         "build arguments are not supported by E2B template builds; write the value into the Dockerfile or use ENV",
	"EXPOSE":      "E2B sandboxes expose every port through their own domain; remove it",
	"CMD":         "set the template's start_cmd instead",
	"ENTRYPOINT":  "set the template's start_cmd instead",
	"HEALTHCHECK": "set the template's ready_cmd instead",
	"VOLUME":      "mount an sbx_volume on the sandbox instead",
	"STOPSIGNAL":  "E2B sandboxes have no stop signal; remove it",
	"SHELL":       "E2B runs RUN steps with its own shell; write the shell into the RUN command",
	"ONBUILD":     "E2B template builds have no ONBUILD triggers; remove it",
	"LABEL":       "E2B templates have no image labels; remove it",
	"MAINTAINER":  "E2B templates have no image metadata; remove it",
}

// translateDockerfile turns a Dockerfile into E2B build steps. It is pure:
// it never reads the context, so the provider can run it at plan time. Any
// instruction E2B cannot express is a *DockerfileError naming its line.
func translateDockerfile(content string) (*buildPlan, error) {
	return translate(content, false)
}

// translateOnTemplate turns the Dockerfile of a template built on another
// template (fromTemplate) into E2B build steps: it has no FROM line (the
// base is the template), and its steps run as the base template's user in
// its working directory, as a Dockerfile's steps run on its base image.
func translateOnTemplate(content string) (*buildPlan, error) {
	return translate(content, true)
}

func translate(content string, onTemplate bool) (*buildPlan, error) {
	f, err := dockerfileparse.Parse(content)
	if err != nil {
		var pe *dockerfileparse.Error
		if errors.As(err, &pe) {
			return nil, &DockerfileError{Line: pe.Line, Reason: pe.Reason}
		}
		return nil, err
	}
	plan := &buildPlan{}
	sawUser, sawWorkdir := false, false
	for _, parsed := range f.Instructions {
		in := instruction{Instruction: parsed, escape: f.Escape}
		if len(in.Heredocs) > 0 {
			return nil, in.fail("heredocs are not supported on E2B; write the content with RUN printf or COPY a file")
		}
		if !onTemplate && plan.FromImage == "" && in.Keyword != "FROM" {
			return nil, in.fail("the first instruction must be FROM")
		}
		var steps []templateStep
		switch in.Keyword {
		case "FROM":
			if onTemplate {
				return nil, in.fail("a Dockerfile built on from_template has no FROM line: the base is the template; remove it")
			}
			if plan.FromImage != "" {
				return nil, in.fail("multi-stage builds are not supported by E2B template builds; use a single FROM")
			}
			img, err := parseFrom(in)
			if err != nil {
				return nil, err
			}
			plan.FromImage = img
			// E2B runs the build as the template's default user; the
			// Dockerfile's semantics start as root in /.
			steps = []templateStep{{Type: stepUser, Args: []string{"root"}}, {Type: stepWorkdir, Args: []string{"/"}}}
		case "RUN":
			steps, err = parseRun(in)
		case "COPY", "ADD":
			steps, err = parseCopy(in)
			plan.HasCopy = true
		case "ENV":
			steps, err = parseEnv(in)
		case "WORKDIR":
			sawWorkdir = true
			steps, err = singleArg(in, stepWorkdir)
		case "USER":
			sawUser = true
			steps, err = singleArg(in, stepUser)
		default:
			if hint, ok := unsupportedInstructions[in.Keyword]; ok {
				return nil, in.fail("not supported on E2B: " + hint)
			}
			return nil, in.fail("unknown instruction")
		}
		if err != nil {
			return nil, err
		}
		plan.Steps = append(plan.Steps, steps...)
	}
	if onTemplate {
		return plan, nil
	}
	if plan.FromImage == "" {
		return nil, &DockerfileError{Line: 1, Reason: "no FROM instruction: an E2B template build needs a base image"}
	}
	// Sandboxes start as E2B's default user in its home unless the
	// Dockerfile chose otherwise, as E2B's own Dockerfile import does.
	if !sawUser {
		plan.Steps = append(plan.Steps, templateStep{Type: stepUser, Args: []string{"user"}})
	}
	if !sawWorkdir {
		plan.Steps = append(plan.Steps, templateStep{Type: stepWorkdir, Args: []string{"/home/user"}})
	}
	return plan, nil
}

// instruction is one parsed Dockerfile instruction, with the file's
// escape character for the words of its arguments.
type instruction struct {
	dockerfileparse.Instruction
	escape rune
}

func (in instruction) fail(reason string) error {
	return &DockerfileError{Line: in.Line, Instruction: in.Keyword, Reason: reason}
}

// refuseFlags refuses every flag but those allowed.
func (in instruction) refuseFlags(allowed ...string) error {
	for _, f := range in.Flags {
		if !slices.Contains(allowed, f.Name) {
			return in.fail(fmt.Sprintf("the --%s flag is not supported on E2B", f.Name))
		}
	}
	return nil
}

func parseFrom(in instruction) (string, error) {
	if err := in.refuseFlags(); err != nil {
		return "", err
	}
	fields := strings.Fields(in.Args)
	switch {
	case len(fields) == 1:
	case len(fields) == 3 && strings.EqualFold(fields[1], "AS"):
		// A stage name alone is harmless in a single-stage build.
	default:
		return "", in.fail("expected FROM <image> [AS <name>]")
	}
	if strings.Contains(fields[0], "$") {
		return "", in.fail("variables in the base image are not supported on E2B; write the image reference out")
	}
	if fields[0] == "scratch" {
		return "", in.fail("E2B templates need a base image with a Linux userland; scratch is not supported")
	}
	return fields[0], nil
}

func parseRun(in instruction) ([]templateStep, error) {
	if err := in.refuseFlags(); err != nil {
		return nil, err
	}
	cmd := in.Args
	if in.JSON {
		cmd = shellJoin(in.Argv())
	}
	if cmd == "" {
		return nil, in.fail("a RUN needs a command")
	}
	return []templateStep{{Type: stepRun, Args: []string{cmd}}}, nil
}

// parseCopy translates COPY and ADD. ADD is accepted only where it means
// the same as COPY: local files, no URLs, no archives to unpack.
func parseCopy(in instruction) ([]templateStep, error) {
	if _, ok := in.Flag("from"); ok {
		return nil, in.fail("--from needs a multi-stage build, which E2B template builds do not support")
	}
	if err := in.refuseFlags("chown", "chmod"); err != nil {
		return nil, err
	}
	user, _ := in.Flag("chown")
	mode, _ := in.Flag("chmod")
	parts := in.Argv()
	if !in.JSON {
		parts = strings.Fields(in.Args)
	}
	if len(parts) < 2 {
		return nil, in.fail("expected at least one source and a destination")
	}
	srcs, dest := parts[:len(parts)-1], parts[len(parts)-1]
	if len(srcs) > 1 && !strings.HasSuffix(dest, "/") {
		return nil, in.fail("with several sources the destination must end with /")
	}
	steps := make([]templateStep, 0, len(srcs))
	for _, src := range srcs {
		if in.Keyword == "ADD" {
			if strings.Contains(src, "://") || strings.HasPrefix(src, "git@") {
				return nil, in.fail(fmt.Sprintf("ADD from a URL (%s) is not supported on E2B; download it in a RUN step", src))
			}
			if isArchiveName(src) {
				return nil, in.fail(fmt.Sprintf("ADD of an archive (%s) would unpack it, which E2B's COPY does not; unpack it in a RUN step", src))
			}
		}
		if strings.HasPrefix(src, "/") || src == ".." || strings.HasPrefix(src, "../") {
			return nil, in.fail(fmt.Sprintf("source %s is outside the build context", src))
		}
		steps = append(steps, templateStep{Type: stepCopy, Args: []string{src, dest, user, mode}})
	}
	return steps, nil
}

func isArchiveName(name string) bool {
	for _, ext := range []string{".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz", ".tar.zst"} {
		if strings.HasSuffix(strings.ToLower(name), ext) {
			return true
		}
	}
	return false
}

// parseEnv accepts both ENV key=value ... and the legacy ENV key value.
func parseEnv(in instruction) ([]templateStep, error) {
	words, err := shellWords(in.Args, in.escape)
	if err != nil {
		return nil, in.fail(err.Error())
	}
	if len(words) == 0 {
		return nil, in.fail("expected key=value")
	}
	var args []string
	if !strings.Contains(words[0], "=") {
		// Legacy form: the first word is the key, the rest of the line the value.
		key, value, _ := strings.Cut(in.Args, " ")
		vw, err := shellWords(strings.TrimSpace(value), in.escape)
		if err != nil {
			return nil, in.fail(err.Error())
		}
		return []templateStep{{Type: stepEnv, Args: []string{key, strings.Join(vw, " ")}}}, nil
	}
	for _, w := range words {
		k, v, ok := strings.Cut(w, "=")
		if !ok || k == "" {
			return nil, in.fail(fmt.Sprintf("%q is not key=value", w))
		}
		args = append(args, k, v)
	}
	return []templateStep{{Type: stepEnv, Args: args}}, nil
}

func singleArg(in instruction, typ string) ([]templateStep, error) {
	words, err := shellWords(in.Args, in.escape)
	if err != nil {
		return nil, in.fail(err.Error())
	}
	if len(words) != 1 {
		return nil, in.fail("expected exactly one argument")
	}
	return []templateStep{{Type: typ, Args: []string{words[0]}}}, nil
}

// shellWords splits s into words the way a Dockerfile does for ENV, USER
// and WORKDIR: whitespace separates, quotes group, the escape character (a
// backslash unless the escape directive chose the backtick) escapes.
func shellWords(s string, escape rune) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	escaped := false
	for _, r := range s {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case r == escape && quote != '\'':
			escaped, inWord = true, true
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated %c quote", quote)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// shellJoin quotes an exec-form argv into one shell command line.
func shellJoin(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,@%+") == "" {
			out[i] = a
			continue
		}
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}
