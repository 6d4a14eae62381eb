package modalfake

import (
	"errors"
	"strings"
	"testing"

	modal "github.com/modal-labs/modal-client/go"
)

// Builds are asynchronous (the result comes from ImageJoinStreaming),
// content-addressed, and fail on a failing RUN.
func TestImageBuild(t *testing.T) {
	w := srv.NewWorkspace(t)
	c := newClient(t, w, false)
	ctx := ctxOf(t)
	app, err := c.Apps.FromName(ctx, "imgs", &modal.AppFromNameParams{CreateIfMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		commands []string
		fails    string
	}{
		{"succeeds", []string{"RUN echo hi"}, ""},
		{"RUN false", []string{"RUN echo hi", "RUN false"}, "RUN false"},
		{"RUN exit 3", []string{"RUN exit 3"}, "exited with status 3"},
		{"RUN exit 0", []string{"RUN exit 0"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			joins := w.Calls("ImageJoinStreaming")
			img, err := c.Images.FromRegistry("debian:12", nil).DockerfileCommands(tc.commands, nil).Build(ctx, app, nil)
			if w.Calls("ImageJoinStreaming") <= joins {
				t.Errorf("the build was not joined by streaming")
			}
			if tc.fails != "" {
				var remote modal.RemoteError
				if !errors.As(err, &remote) || !strings.Contains(err.Error(), tc.fails) {
					t.Fatalf("Build: %v, want a RemoteError mentioning %q", err, tc.fails)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// FromRegistry is a layer of its own; the commands are built on it.
			v, ok := w.Image(img.ImageID)
			base, _ := w.Image(v.BaseImageID)
			if !ok || v.Status != "ready" || v.DockerfileCommands[0] != "FROM base" || base.DockerfileCommands[0] != "FROM debian:12" {
				t.Fatalf("image %+v on %+v", v, base)
			}
			again, err := c.Images.FromRegistry("debian:12", nil).DockerfileCommands(tc.commands, nil).Build(ctx, app, nil)
			if err != nil || again.ImageID != img.ImageID {
				t.Errorf("same content built again: %v, %v; want the same id %s", again, err, img.ImageID)
			}
		})
	}
}

// Layers chain on their base image; ImageFromId and ImageDelete see ids.
func TestImageLayersAndDelete(t *testing.T) {
	f := newFixture(t, false)
	child, err := f.image.DockerfileCommands([]string{"RUN touch /x"}, nil).Build(f.ctx, f.app, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cv, _ := f.w.Image(child.ImageID); cv.BaseImageID != f.image.ImageID || cv.DockerfileCommands[0] != "FROM base" {
		t.Errorf("child %+v", cv)
	}
	if _, err := f.c.Images.FromID(f.ctx, child.ImageID, nil); err != nil {
		t.Fatal(err)
	}
	if err := f.c.Images.Delete(f.ctx, child.ImageID, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := f.c.Images.FromID(f.ctx, child.ImageID, nil); !errors.As(err, new(modal.NotFoundError)) {
		t.Errorf("FromID after delete: %v", err)
	}
	if err := f.w.DeleteImage(f.image.ImageID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.c.Sandboxes.Create(f.ctx, f.app, f.image, nil); err == nil || !strings.Contains(err.Error(), "NotFound") {
		t.Errorf("create from a deleted image: %v", err)
	}
}

// Apps are looked up unless asked to be created; names follow Modal's rules.
func TestApps(t *testing.T) {
	w := srv.NewWorkspace(t)
	c := newClient(t, w, false)
	ctx := ctxOf(t)
	if _, err := c.Apps.FromName(ctx, "missing", nil); !errors.As(err, new(modal.NotFoundError)) {
		t.Errorf("lookup of a missing app: %v", err)
	}
	a, err := c.Apps.FromName(ctx, "made", &modal.AppFromNameParams{CreateIfMissing: true})
	if err != nil || !strings.HasPrefix(a.AppID, "ap-") || len(a.AppID) != 25 {
		t.Fatalf("create: %v, %v", a, err)
	}
	b, err := c.Apps.FromName(ctx, "made", nil)
	if err != nil || b.AppID != a.AppID {
		t.Errorf("lookup: %v, %v", b, err)
	}
	// Another workspace does not see it.
	other := newClient(t, srv.NewWorkspace(t), false)
	if _, err := other.Apps.FromName(ctx, "made", nil); !errors.As(err, new(modal.NotFoundError)) {
		t.Errorf("other workspace: %v", err)
	}
}
