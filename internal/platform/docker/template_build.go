package docker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strings"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/build"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sbxhq/terraform-provider-sbx/internal/buildctx"
	dockerfileparse "github.com/sbxhq/terraform-provider-sbx/internal/dockerfile"
)

// buildImage builds dockerfile with the files of contextDir (none when
// empty) into an image tagged ref and carrying labels, and returns its ID.
// The build output goes to the provider log line by line; a failed build is
// an error naming the failing step with the last lines of output.
func buildImage(ctx context.Context, api *client.Client, name, ref, dockerfile, contextDir string, labels map[string]string) (string, error) {
	dockerfile, labels = withLabelInstruction(dockerfile, labels)
	var id string
	var err error
	for attempt := 1; ; attempt++ {
		id, err = buildOnce(ctx, api, name, ref, dockerfile, contextDir, labels)
		var lost *lostImageError
		if err == nil || !errors.As(err, &lost) || attempt == buildAttempts || ctx.Err() != nil {
			return id, err
		}
		tflog.Warn(ctx, "the engine lost an image in the middle of a build; building again", map[string]any{
			"template": name, "attempt": attempt, "error": err.Error()})
	}
}

// buildAttempts is how many times a build the engine broke by losing an
// image it had just made is run.
const buildAttempts = 3

// lostImageRE matches the engine's messages for an image or layer that
// vanished while a build read it. The legacy builder reads images of the
// whole engine during a build (a cached build's probe reads every base
// image, which is why every build here skips the cache) and commits every
// step as an image the next one stands on; an image remove elsewhere on the
// same engine (another template's destroy pruning its parents, another
// client's prune) can take one in between. Nothing in the Dockerfile or
// the context is wrong, so the same build run again works.
var lostImageRE = regexp.MustCompile(`unable to find image "?sha256:|unknown parent image ID|layer does not exist|No such image: sha256:`)

// lostImageError is a build the engine broke by losing an image it had made.
type lostImageError struct{ err error }

func (e *lostImageError) Error() string { return e.err.Error() }
func (e *lostImageError) Unwrap() error { return e.err }

// buildOnce runs one build; see buildImage.
func buildOnce(ctx context.Context, api *client.Client, name, ref, dockerfile, contextDir string, labels map[string]string) (string, error) {
	tarball, err := buildctx.Tar(contextDir, map[string][]byte{buildctx.DockerfileName: []byte(dockerfile)})
	if err != nil {
		return "", fmt.Errorf("template %q: %w", name, err)
	}
	// Closing the context's pipe only stops its writer; it never fails.
	defer func() { _ = tarball.Close() }()
	resp, err := api.ImageBuild(ctx, tarball, build.ImageBuildOptions{
		Tags:        []string{ref},
		Dockerfile:  buildctx.DockerfileName,
		Labels:      labels,
		Remove:      true, // intermediate containers of successful steps
		ForceRemove: true, // ... and of failed ones
		// No layer cache: with it, two builds share intermediate images, and
		// deleting one template (which prunes its untagged parents) can
		// remove a layer another build is standing on at that moment
		// ("unknown parent image ID"). Each template owns its layers.
		NoCache: true,
		Version: build.BuilderV1,
	})
	if err != nil {
		return "", fmt.Errorf("building template %q: %w", name, err)
	}
	// All that matters is read from the stream below; closing it
	// only frees the connection, so its error changes nothing.
	defer func() { _ = resp.Body.Close() }()

	var log buildLog
	readErr := log.read(resp.Body, func(line string) {
		tflog.Debug(ctx, "docker build: "+line, map[string]any{"template": name})
	})
	if err := log.err(name); err != nil {
		removeFailedBuild(ctx, api, name, log.made)
		if lostImageRE.MatchString(log.failure) {
			return "", &lostImageError{err: err}
		}
		return "", err
	}
	if readErr != nil {
		removeFailedBuild(ctx, api, name, log.made)
		return "", fmt.Errorf("building template %q: %w", name, readErr)
	}
	// The tag is the authority on what the build produced.
	img, err := api.ImageInspect(ctx, ref)
	if err != nil {
		return "", fmt.Errorf("building template %q: the build finished but %s cannot be read: %w", name, ref, err)
	}
	return img.ID, nil
}

// removeFailedBuild removes the images a failed build committed (made, as
// buildLog collected them: never its base image), newest first, each on its
// own: a parent is never pruned along with it, so nothing the build did not
// make can go. An image that has a tag, or that the engine refuses to remove
// (a child of it exists), stays. It runs on a fresh context, so a build
// cancelled by a timeout still cleans up.
func removeFailedBuild(ctx context.Context, api *client.Client, name string, made []string) {
	cleanup, cancel := context.WithTimeout(context.WithoutCancel(ctx), helperCleanupTimeout)
	defer cancel()
	for i := len(made) - 1; i >= 0; i-- {
		img, err := api.ImageInspect(cleanup, made[i])
		if err != nil || len(img.RepoTags) > 0 {
			continue
		}
		if _, err := api.ImageRemove(cleanup, img.ID, image.RemoveOptions{PruneChildren: false}); err != nil {
			tflog.Debug(ctx, "keeping an image of a failed build: "+err.Error(), map[string]any{"template": name, "image": img.ID})
		}
	}
}

// withLabelInstruction moves labels into one LABEL instruction appended to
// the Dockerfile, and returns the labels it could not move. The engine turns
// each build-option label into a step of its own, each leaving an
// intermediate image behind; one instruction is one step. Values with line
// breaks cannot be written on a Dockerfile line and stay build options, as
// do all labels of a Dockerfile whose escape directive makes the quoting
// below mean something else, or that does not parse (the build reports
// why).
func withLabelInstruction(dockerfile string, labels map[string]string) (string, map[string]string) {
	if len(labels) == 0 {
		return dockerfile, labels
	}
	if f, err := dockerfileparse.Parse(dockerfile); err != nil || f.Escape != '\\' {
		return dockerfile, labels
	}
	rest := map[string]string{}
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		v := labels[k]
		if strings.ContainsAny(k+v, "\r\n") {
			rest[k] = v
			continue
		}
		fmt.Fprintf(&b, " %s=%s", dockerfileQuote(k), dockerfileQuote(v))
	}
	if b.Len() == 0 {
		return dockerfile, labels
	}
	// dockerfileQuote (archive.go) escapes backslash, quote and dollar.
	return dockerfileparse.Append(dockerfile, "LABEL"+b.String()), rest
}

// localImage returns the image ref names, pulling it once when the engine
// does not have it. Sandboxes usually run where no registry is reachable, so
// the error says so plainly.
func localImage(ctx context.Context, api *client.Client, name, ref string) (image.InspectResponse, error) {
	img, err := api.ImageInspect(ctx, ref)
	if err == nil || !cerrdefs.IsNotFound(err) {
		return img, err
	}
	pullErr := pullImage(ctx, api, ref)
	if pullErr == nil {
		img, err = api.ImageInspect(ctx, ref)
		if err == nil {
			return img, nil
		}
		pullErr = err
	}
	return img, fmt.Errorf("template %q: image %q is not on the Docker engine, and pulling it failed "+
		"(no registry reachable, or no such image): %v", name, ref, pullErr)
}

func pullImage(ctx context.Context, api *client.Client, ref string) error {
	rc, err := api.ImagePull(ctx, ref, image.PullOptions{})
	if err != nil {
		return err
	}
	// All that matters is read from the stream below; closing it
	// only frees the connection, so its error changes nothing.
	defer func() { _ = rc.Close() }()
	// A pull reports failure inside its stream, not as a status code.
	dec := json.NewDecoder(rc)
	for {
		var m buildMessage
		if err := dec.Decode(&m); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		if m.Error != "" {
			return fmt.Errorf("%s", m.Error)
		}
	}
}
