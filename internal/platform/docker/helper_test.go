package docker

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Four concurrent callers on a missing helper image: all succeed, all get
// the same image, and exactly one image is made.
func TestHelperImageCreatedOnceUnderConcurrency(t *testing.T) {
	api := acctest.DockerClient(t)
	ctx := context.Background()
	ref := "sbx/helper-test-" + randomHex(5) + ":latest"
	byName := filters.NewArgs(filters.Arg("label", platform.LabelName+"="+ref))
	t.Cleanup(func() {
		imgs, _ := api.ImageList(context.Background(), image.ListOptions{All: true, Filters: byName})
		for _, img := range imgs {
			_, _ = api.ImageRemove(context.Background(), img.ID, image.RemoveOptions{Force: true, PruneChildren: true})
		}
	})

	const callers = 4
	ids := make([]string, callers)
	errs := make([]error, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ids[i], errs[i] = ensureHelperImage(ctx, api, ref)
		}()
	}
	wg.Wait()
	for i := range callers {
		if errs[i] != nil || ids[i] == "" || ids[i] != ids[0] {
			t.Fatalf("caller %d: id %q, err %v (caller 0 got %q)", i, ids[i], errs[i], ids[0])
		}
	}
	imgs, err := api.ImageList(ctx, image.ListOptions{All: true, Filters: byName})
	if err != nil || len(imgs) != 1 {
		t.Fatalf("helper images named %s: %d (%v), want 1", ref, len(imgs), err)
	}
	img, err := api.ImageInspect(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	if img.Config.Labels[platform.LabelManaged] != "true" || img.Config.Labels[platform.LabelKind] != kindHelper {
		t.Fatalf("helper image labels = %v", img.Config.Labels)
	}
	if len(img.Config.Cmd) != 1 || img.Config.Cmd[0] != "/"+helperMarkerFile {
		t.Fatalf("helper image CMD = %v", img.Config.Cmd)
	}
	// A later call finds it instead of importing again.
	if id, err := ensureHelperImage(ctx, api, ref); err != nil || id != ids[0] {
		t.Fatalf("later call = %q, %v", id, err)
	}
}

// Processes racing outside the in-process lock: every load succeeds, and as
// the image is the same every time, only one image exists afterwards.
func TestHelperImageRaceAcrossProcessesLeavesOneImage(t *testing.T) {
	api := acctest.DockerClient(t)
	ctx := context.Background()
	ref := "sbx/helper-test-" + randomHex(5) + ":latest"
	byName := filters.NewArgs(filters.Arg("label", platform.LabelName+"="+ref))
	t.Cleanup(func() {
		imgs, _ := api.ImageList(context.Background(), image.ListOptions{All: true, Filters: byName})
		for _, img := range imgs {
			_, _ = api.ImageRemove(context.Background(), img.ID, image.RemoveOptions{Force: true, PruneChildren: true})
		}
	})
	var wg sync.WaitGroup
	errs := make([]error, 3)
	ids := make([]string, 3)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ids[i], errs[i] = loadHelperImage(ctx, api, ref)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil || ids[i] != ids[0] {
			t.Fatalf("load %d: %q, %v (load 0 got %q)", i, ids[i], err, ids[0])
		}
	}
	imgs, err := api.ImageList(ctx, image.ListOptions{All: true, Filters: byName})
	if err != nil || len(imgs) != 1 {
		t.Fatalf("helper images named %s after a race: %d (%v), want 1", ref, len(imgs), err)
	}
}

func TestLabelChange(t *testing.T) {
	for _, tc := range []struct{ key, value, want string }{
		{"a", "b", `LABEL "a"="b"`},
		{"with space", "x y", `LABEL "with space"="x y"`},
		{"q", `say "hi"`, `LABEL "q"="say \"hi\""`},
		{"d", "$HOME", `LABEL "d"="\$HOME"`},
		{"b", `back\slash`, `LABEL "b"="back\\slash"`},
		{"e", "", `LABEL "e"=""`},
	} {
		if got := labelChange(tc.key, tc.value); got != tc.want {
			t.Errorf("labelChange(%q, %q) = %s, want %s", tc.key, tc.value, got, tc.want)
		}
	}
	if checkLabelForChange("k", "a\nb") == nil || checkLabelForChange("k\r", "v") == nil || checkLabelForChange("k", "v") != nil {
		t.Error("checkLabelForChange must refuse line breaks, and only them")
	}
}

func TestReadImportStream(t *testing.T) {
	for _, tc := range []struct {
		name, stream, wantID, wantErr string
	}{
		{"id", `{"status":"sha256:abc"}` + "\n", "sha256:abc", ""},
		{"progress then id", `{"status":"Downloading","progress":"[==>]"}{"status":"sha256:def\n"}`, "sha256:def", ""},
		{"error detail", `{"errorDetail":{"message":"no space"},"error":"no space"}`, "", "no space"},
		{"error only", `{"error":"bad tar"}`, "", "bad tar"},
		{"empty", ``, "", ""},
		{"garbage", `not json`, "", "reading the image import response"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, err := readImportStream(strings.NewReader(tc.stream))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || id != tc.wantID {
				t.Fatalf("= %q, %v; want %q", id, err, tc.wantID)
			}
		})
	}
}
