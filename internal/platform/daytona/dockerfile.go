package daytona

import (
	"encoding/json"
	"fmt"
	"strings"
)

// contextSource is one COPY or ADD source that reads the build context.
type contextSource struct {
	line int // 1-based line of the instruction
	inst string
	src  string
}

// dockerfileInstruction is one instruction with its continuation lines
// joined.
type dockerfileInstruction struct {
	line int
	word string // upper-case keyword
	rest string
}

// instructions splits a Dockerfile into instructions: comments and blank
// lines skipped, lines ending in a backslash joined to the next.
func instructions(content string) []dockerfileInstruction {
	var out []dockerfileInstruction
	var cur *dockerfileInstruction
	for i, raw := range strings.Split(content, "\n") {
		line := strings.TrimSpace(raw)
		if cur == nil && (line == "" || strings.HasPrefix(line, "#")) {
			continue
		}
		if cur != nil && strings.HasPrefix(line, "#") {
			continue // a comment inside a continuation
		}
		cont := strings.HasSuffix(line, "\\")
		line = strings.TrimSuffix(line, "\\")
		if cur == nil {
			word, rest, _ := strings.Cut(line, " ")
			if t := strings.IndexAny(word, "\t"); t >= 0 {
				word, rest = word[:t], word[t+1:]+" "+rest
			}
			cur = &dockerfileInstruction{line: i + 1, word: strings.ToUpper(word), rest: strings.TrimSpace(rest)}
		} else {
			cur.rest = strings.TrimSpace(cur.rest + " " + line)
		}
		if !cont {
			out = append(out, *cur)
			cur = nil
		}
	}
	if cur != nil {
		out = append(out, *cur)
	}
	return out
}

// contextSources lists the sources the Dockerfile's COPY and ADD steps read
// from the build context: not a COPY --from (another stage or image), not
// an ADD of a URL or git repository.
func contextSources(content string) ([]contextSource, error) {
	var out []contextSource
	for _, in := range instructions(content) {
		if in.word != "COPY" && in.word != "ADD" {
			continue
		}
		rest := in.rest
		fromStage := false
		for strings.HasPrefix(rest, "--") {
			flag, after, _ := strings.Cut(rest, " ")
			if strings.HasPrefix(flag, "--from=") {
				fromStage = true
			}
			rest = strings.TrimSpace(after)
		}
		if fromStage {
			continue
		}
		if strings.HasPrefix(rest, "<<") {
			continue // a heredoc holds its own content
		}
		var args []string
		if strings.HasPrefix(rest, "[") {
			if err := json.Unmarshal([]byte(rest), &args); err != nil {
				return nil, fmt.Errorf("dockerfile line %d: %s: cannot read its JSON arguments: %w", in.line, in.word, err)
			}
		} else {
			args = strings.Fields(rest)
		}
		if len(args) < 2 {
			return nil, fmt.Errorf("dockerfile line %d: %s needs a source and a destination", in.line, in.word)
		}
		for _, src := range args[:len(args)-1] {
			if in.word == "ADD" && isRemote(src) {
				continue
			}
			out = append(out, contextSource{line: in.line, inst: in.word, src: src})
		}
	}
	return out, nil
}

// isRemote reports whether an ADD source is fetched by the build, not read
// from the context.
func isRemote(src string) bool {
	for _, p := range []string{"http://", "https://", "git@", "git://"} {
		if strings.HasPrefix(src, p) {
			return true
		}
	}
	return false
}

// withEntrypoint appends start_cmd to a Dockerfile as an ENTRYPOINT line,
// the way Daytona's SDK Image.entrypoint writes one (a JSON array): the
// server takes a Dockerfile build's entrypoint from its last ENTRYPOINT
// line and refuses an entrypoint field beside buildInfo.
func withEntrypoint(content, startCmd string) string {
	if startCmd == "" {
		return content
	}
	b, _ := json.Marshal(entrypointOf(startCmd)) // a []string always marshals
	return strings.TrimRight(content, "\n") + "\nENTRYPOINT " + string(b) + "\n"
}

// dockerfileEntrypoint is the JSON-form argument of the Dockerfile's last
// ENTRYPOINT line (nil when it has none in that form).
func dockerfileEntrypoint(content string) []string {
	var ep []string
	for _, in := range instructions(content) {
		if in.word != "ENTRYPOINT" {
			continue
		}
		var args []string
		if json.Unmarshal([]byte(in.rest), &args) == nil {
			ep = args
		} else {
			ep = nil
		}
	}
	return ep
}

// entrypointOf is start_cmd as an entrypoint: run by a shell.
func entrypointOf(startCmd string) []string { return []string{"sh", "-c", startCmd} }

// startCmdOf reads start_cmd back from an entrypoint.
func startCmdOf(ep []string) string {
	if len(ep) == 3 && ep[0] == "sh" && ep[1] == "-c" {
		return ep[2]
	}
	return strings.Join(ep, " ")
}

// movingTags are the tags Daytona refuses (docs snapshots.mdx:34), as
// they name no fixed image.
var movingTags = []string{"latest", "lts", "stable"}

// imageTagError says why an image reference cannot be a Daytona snapshot:
// its tag moves, or it has none (which means latest). A digest pins it.
func imageTagError(ref string) error {
	if strings.Contains(ref, "@") {
		return nil
	}
	name := ref
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	_, tag, ok := strings.Cut(name, ":")
	switch {
	case !ok || tag == "":
		return fmt.Errorf("image %q has no tag, which means latest: Daytona refuses moving tags; pin a version (name:1.2.3) or a digest (name@sha256:...)", ref)
	}
	for _, t := range movingTags {
		if strings.EqualFold(tag, t) {
			return fmt.Errorf("image %q has the tag %q: Daytona refuses the moving tags latest, lts and stable; pin a version (name:1.2.3) or a digest (name@sha256:...)", ref, tag)
		}
	}
	return nil
}
