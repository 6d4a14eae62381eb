package modalfake

import (
	"errors"
	"maps"
	"strings"
	"testing"
	"time"

	modal "github.com/modal-labs/modal-client/go"
)

var backends = []struct {
	name string
	v1   bool
}{{"V2", false}, {"V1", true}}

// A sandbox goes through create, poll, tags, list and terminate on both
// backends, with the definition arriving as sent.
func TestSandboxLifecycle(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			f := newFixture(t, b.v1)
			vol := f.w.CreateVolume("work")
			volume, err := f.c.Volumes.FromName(f.ctx, "work", nil)
			if err != nil {
				t.Fatal(err)
			}
			sb := f.create(t, &modal.SandboxCreateParams{
				Name:        "box-1",
				CPU:         2,
				MemoryMiB:   2048,
				Timeout:     time.Hour,
				IdleTimeout: 10 * time.Minute,
				Env:         map[string]string{"A": "1", "B": "2"},
				Tags:        map[string]string{"owner": "sbx"},
				Volumes:     map[string]*modal.Volume{"/work": volume},
			})
			v := f.view(t, sb.SandboxID)
			if v.V2 == b.v1 {
				t.Errorf("V2 = %v for backend %s", v.V2, b.name)
			}
			wantLen := 29
			if b.v1 {
				wantLen = 25
			}
			if len(v.ID) != wantLen || !strings.HasPrefix(v.ID, "sb-") {
				t.Errorf("id %q, want sb- and %d characters in all", v.ID, wantLen)
			}
			if v.Name != "box-1" || v.MilliCPU != 2000 || v.MemoryMB != 2048 || v.TimeoutSecs != 3600 || v.IdleTimeoutSecs != 600 {
				t.Errorf("definition: %+v", v)
			}
			if !maps.Equal(v.Env, map[string]string{"A": "1", "B": "2"}) {
				t.Errorf("env %v", v.Env)
			}
			// V1 folds env vars into an ephemeral secret; V2 sends them inline.
			if n, want := f.w.Calls("SecretGetOrCreate"), map[bool]int{true: 1, false: 0}[b.v1]; n != want {
				t.Errorf("SecretGetOrCreate calls = %d, want %d", n, want)
			}
			if len(v.Mounts) != 1 || v.Mounts[0].VolumeID != vol || v.Mounts[0].Path != "/work" {
				t.Errorf("mounts %+v", v.Mounts)
			}
			if code, err := sb.Poll(f.ctx, nil); err != nil || code != nil {
				t.Fatalf("Poll = %v, %v; want running", code, err)
			}
			tags, err := sb.GetTags(f.ctx, nil)
			if err != nil || !maps.Equal(tags, map[string]string{"owner": "sbx"}) {
				t.Fatalf("GetTags = %v, %v", tags, err)
			}
			if err := sb.SetTags(f.ctx, map[string]string{"team": "infra"}, nil); err != nil {
				t.Fatal(err)
			}
			if tags, _ := sb.GetTags(f.ctx, nil); !maps.Equal(tags, map[string]string{"team": "infra"}) {
				t.Errorf("tags after set = %v, want a full replace", tags)
			}
			if _, err := f.c.Sandboxes.Create(f.ctx, f.app, f.image, &modal.SandboxCreateParams{Name: "box-1"}); !errors.As(err, new(modal.AlreadyExistsError)) {
				t.Errorf("second box-1: %v, want AlreadyExistsError", err)
			}
			// The first list after the create does not show the box yet
			// (async.go); the next one does.
			if ids := listIDs(t, f, nil); len(ids) != 0 {
				t.Errorf("first list = %v, want the new box left out", ids)
			}
			if ids := listIDs(t, f, nil); len(ids) != 1 || ids[0] != sb.SandboxID {
				t.Errorf("list = %v", ids)
			}
			code, err := sb.Terminate(f.ctx, &modal.SandboxTerminateParams{Wait: true})
			if err != nil || code != 137 {
				t.Fatalf("Terminate = %d, %v; want 137", code, err)
			}
			if v := f.view(t, sb.SandboxID); !v.Finished || v.Status != "GENERIC_STATUS_TERMINATED" {
				t.Errorf("after terminate: %+v", v)
			}
			if ids := listIDs(t, f, nil); len(ids) != 0 {
				t.Errorf("list after terminate = %v, want running ones only", ids)
			}
			if _, err := f.c.Sandboxes.Create(f.ctx, f.app, f.image, &modal.SandboxCreateParams{Name: "box-1"}); err != nil {
				t.Errorf("box-1 again once the first finished: %v", err)
			}
		})
	}
}

func listIDs(t *testing.T, f *fixture, tags map[string]string) []string {
	t.Helper()
	seq, err := f.c.Sandboxes.List(f.ctx, &modal.SandboxListParams{AppID: f.app.AppID, Tags: tags})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for sb, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, sb.SandboxID)
	}
	return ids
}

// Lists are newest first and page on past listPageSize.
func TestSandboxListPages(t *testing.T) {
	f := newFixture(t, false)
	var want []string
	for range listPageSize + 3 {
		want = append([]string{f.create(t, &modal.SandboxCreateParams{Tags: map[string]string{"k": "v"}}).SandboxID}, want...)
	}
	f.create(t, nil) // untagged: filtered out
	// Boxes made a moment ago are left out of the first list (async.go).
	if got := listIDs(t, f, map[string]string{"k": "v"}); len(got) != 0 {
		t.Errorf("first list = %v, want the new boxes left out", got)
	}
	before := f.w.Calls("SandboxListV2")
	got := listIDs(t, f, map[string]string{"k": "v"})
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("list =\n%v\nwant newest first\n%v", got, want)
	}
	if n := f.w.Calls("SandboxListV2") - before; n != 3 {
		t.Errorf("SandboxListV2 calls = %d, want 3 (two pages and an empty one)", n)
	}
}

// The workspace clock ends sandboxes at their timeout and idle timeout.
func TestSandboxTimeouts(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			f := newFixture(t, b.v1)
			short := f.create(t, &modal.SandboxCreateParams{Timeout: 10 * time.Minute})
			idle := f.create(t, &modal.SandboxCreateParams{Timeout: time.Hour, IdleTimeout: 20 * time.Minute})
			f.w.Advance(9 * time.Minute)
			if code, _ := short.Poll(f.ctx, nil); code != nil {
				t.Fatalf("finished before its timeout: %d", *code)
			}
			f.w.Advance(time.Minute)
			code, err := short.Wait(f.ctx, nil)
			if err != nil || code != 124 {
				t.Errorf("Wait = %d, %v; want 124 after the timeout", code, err)
			}
			if v := f.view(t, short.SandboxID); v.Status != "GENERIC_STATUS_TIMEOUT" || v.ExitCode != 124 {
				t.Errorf("view %+v", v)
			}
			if v := f.view(t, idle.SandboxID); v.Finished {
				t.Fatalf("idle one finished early: %+v", v)
			}
			f.w.Advance(10 * time.Minute)
			if v := f.view(t, idle.SandboxID); v.Status != "GENERIC_STATUS_IDLE_TIMEOUT" {
				t.Errorf("idle: %+v", v)
			}
		})
	}
}

// Out-of-band termination is seen by the SDK.
func TestTerminateSandboxOutOfBand(t *testing.T) {
	f := newFixture(t, false)
	sb := f.create(t, nil)
	if err := f.w.TerminateSandbox(sb.SandboxID); err != nil {
		t.Fatal(err)
	}
	if code, err := sb.Poll(f.ctx, nil); err != nil || code == nil || *code != 137 {
		t.Errorf("Poll = %v, %v", code, err)
	}
	if err := f.w.TerminateSandbox(sb.SandboxID); err == nil {
		t.Error("terminating a finished sandbox again succeeded")
	}
}

// The server refuses bad definitions with INVALID_ARGUMENT or NOT_FOUND.
func TestSandboxCreateValidation(t *testing.T) {
	f := newFixture(t, false)
	other := newFixture(t, false)
	for _, tc := range []struct {
		name   string
		params *modal.SandboxCreateParams
		image  *modal.Image
		want   string
	}{
		{"timeout over 24h", &modal.SandboxCreateParams{Timeout: 25 * time.Hour}, nil, "InvalidArgument"},
		{"idle over 24h", &modal.SandboxCreateParams{IdleTimeout: 25 * time.Hour}, nil, "InvalidArgument"},
		{"too much memory", &modal.SandboxCreateParams{MemoryMiB: 1 << 20}, nil, "InvalidArgument"},
		{"image of another workspace", nil, other.image, "NotFound"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			img := f.image
			if tc.image != nil {
				img = tc.image
			}
			_, err := f.c.Sandboxes.Create(f.ctx, f.app, img, tc.params)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %s", err, tc.want)
			}
		})
	}
	if n := len(f.w.Sandboxes()); n != 0 {
		t.Errorf("%d sandboxes made by refused creates", n)
	}
}

// Unknown ids are NOT_FOUND.
func TestUnknownSandbox(t *testing.T) {
	f := newFixture(t, false)
	sb, err := f.c.Sandboxes.FromID(f.ctx, newV2SandboxID(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sb.Poll(f.ctx, nil); err == nil || !strings.Contains(err.Error(), "NotFound") {
		t.Errorf("Poll of an unknown sandbox: %v", err)
	}
	if _, err := f.c.Sandboxes.FromName(f.ctx, "agents", "nobody", nil); !errors.As(err, new(modal.NotFoundError)) {
		t.Errorf("FromName: %v", err)
	}
}
