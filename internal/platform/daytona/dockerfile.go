package daytona

import (
	"encoding/json"
	"fmt"
	"strings"

	dockerfileparse "github.com/sbxhq/terraform-provider-sbx/internal/dockerfile"
)

// contextSource is one COPY or ADD source that reads the build context.
type contextSource struct {
	line int // 1-based line of the instruction
	inst string
	src  string
}

// contextSources lists the sources the Dockerfile's COPY and ADD steps read
// from the build context: not a COPY --from (another stage or image), not
// an ADD of a URL or git repository, not a heredoc (it holds its own
// content).
func contextSources(content string) ([]contextSource, error) {
	f, err := dockerfileparse.Parse(content)
	if err != nil {
		return nil, err
	}
	var out []contextSource
	for _, in := range f.Instructions {
		if in.Keyword != "COPY" && in.Keyword != "ADD" {
			continue
		}
		if _, fromStage := in.Flag("from"); fromStage {
			continue
		}
		args := in.Argv()
		if !in.JSON {
			args = strings.Fields(in.Args)
		}
		if len(args) < 2 {
			return nil, fmt.Errorf("dockerfile line %d: %s needs a source and a destination", in.Line, in.Keyword)
		}
		for _, src := range args[:len(args)-1] {
			if in.Keyword == "ADD" && isRemote(src) || !in.JSON && dockerfileparse.IsHeredoc(src) {
				continue
			}
			out = append(out, contextSource{line: in.Line, inst: in.Keyword, src: src})
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
	return dockerfileparse.Append(content, "ENTRYPOINT "+string(b))
}

// dockerfileEntrypoint is the JSON-form argument of the Dockerfile's last
// ENTRYPOINT line (nil when it has none in that form).
func dockerfileEntrypoint(content string) []string {
	f, err := dockerfileparse.Parse(content)
	if err != nil {
		return nil
	}
	var ep []string
	for _, in := range f.Instructions {
		if in.Keyword == "ENTRYPOINT" {
			ep = in.Argv()
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
