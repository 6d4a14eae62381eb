package daytona

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

func TestSandboxCreateAndRead(t *testing.T) {
	// The list's label filter is checked right after the create: the list's
	// lag (TestListLag in the fake) is left out.
	f := newFixture(t, daytonafake.Options{ListLagLists: -1})
	ctx := context.Background()
	sb := f.box(t, "", platform.SandboxSpec{Name: "web", Marks: platform.Marks{Owner: "team", CreateToken: "tok1"},
		Env: map[string]string{"A": "1"}, Labels: map[string]string{"app": "x"},
		Lifecycle: platform.Lifecycle{IdleTimeout: 30 * time.Minute, AutoArchiveAfter: 48 * time.Hour, AutoDeleteAfter: 72 * time.Hour}})
	if sb.Status != platform.StateRunning || sb.PlatformStatus != "started" {
		t.Fatalf("status %s/%s, want running/started", sb.Status, sb.PlatformStatus)
	}
	if sb.Labels["app"] != "x" || sb.Labels[platform.LabelCreateToken] != "tok1" || sb.Labels[platform.LabelOwner] != "team" ||
		sb.Labels[platform.LabelManaged] != "true" || sb.Labels[platform.LabelName] != "web" {
		t.Errorf("labels %v", sb.Labels)
	}
	if sb.Env["A"] != "1" {
		t.Errorf("env %v", sb.Env)
	}
	lc := sb.Lifecycle
	if lc.IdleTimeout != 30*time.Minute || lc.AutoArchiveAfter != 48*time.Hour || lc.AutoDeleteAfter != 72*time.Hour {
		t.Errorf("lifecycle %+v", lc)
	}
	// A second create of the name (another state) is refused, naming the id.
	_, err := f.p.Sandboxes().Create(ctx, platform.SandboxSpec{Name: "web", TemplateID: daytonafake.DefaultSnapshotName, Marks: platform.NewMarks("")})
	var no *platform.NotOwnedError
	if !errors.As(err, &no) || no.ID != sb.ID {
		t.Fatalf("second create: %v, want NotOwnedError naming %s", err, sb.ID)
	}
	// Sizes are refused at create (UpdateOnly).
	if _, err := f.p.Sandboxes().Create(ctx, platform.SandboxSpec{TemplateID: daytonafake.DefaultSnapshotName, CPUCount: 2}); !errors.Is(err, platform.ErrUnsupported) {
		t.Errorf("create with cpu_count: %v, want unsupported", err)
	}
	list, err := f.p.Sandboxes().List(ctx, platform.SandboxFilter{Labels: map[string]string{"app": "x"}})
	if err != nil || len(list) != 1 || list[0].ID != sb.ID {
		t.Fatalf("list: %v %v", list, err)
	}
	if err := f.p.Sandboxes().Delete(ctx, sb.ID); err != nil {
		t.Fatal(err)
	}
	if err := f.p.Sandboxes().Delete(ctx, sb.ID); err != nil {
		t.Fatalf("second delete: %v", err)
	}
	f.srv.SettleAll()
	if _, err := f.p.Sandboxes().Get(ctx, sb.ID); !platform.IsNotFound(err) {
		t.Errorf("get after delete: %v", err)
	}
}

// TestSetState: every move Daytona's rules allow, from every resting state,
// including boxes stopped, archived and failed out of band.
func TestSetState(t *testing.T) {
	cases := []struct {
		name    string
		class   string
		prepare func(f *fixture, id string)
		want    platform.SandboxState
		status  platform.SandboxState
		errHas  string
	}{
		{name: "running to stopped", want: platform.StateStopped, status: platform.StateStopped},
		{name: "running stays running", want: platform.StateRunning, status: platform.StateRunning},
		{name: "stopped out of band back to running", prepare: func(f *fixture, id string) { f.srv.StopOutOfBand(id) },
			want: platform.StateRunning, status: platform.StateRunning},
		{name: "archived back to running", prepare: func(f *fixture, id string) { f.srv.StopOutOfBand(id); f.srv.ArchiveOutOfBand(id) },
			want: platform.StateRunning, status: platform.StateRunning},
		{name: "archived counts as stopped", prepare: func(f *fixture, id string) { f.srv.StopOutOfBand(id); f.srv.ArchiveOutOfBand(id) },
			want: platform.StateStopped, status: platform.StateArchived},
		{name: "vm box paused", class: "linux-vm", want: platform.StatePaused, status: platform.StatePaused},
		{name: "vm box paused then stopped", class: "linux-vm", prepare: func(f *fixture, id string) { f.srv.PauseOutOfBand(id) },
			want: platform.StateStopped, status: platform.StateStopped},
		{name: "vm box stopped then paused", class: "linux-vm", prepare: func(f *fixture, id string) { f.srv.StopOutOfBand(id) },
			want: platform.StatePaused, status: platform.StatePaused},
		{name: "container box cannot pause", want: platform.StatePaused, errHas: `state = "paused" needs a VM-class`},
		{name: "recoverable error is recovered", prepare: func(f *fixture, id string) { f.srv.FailSandbox(id, "disk full", true) },
			want: platform.StateRunning, status: platform.StateRunning},
		{name: "unrecoverable error names the reason", prepare: func(f *fixture, id string) { f.srv.FailSandbox(id, "runner lost", false) },
			want: platform.StateRunning, errHas: "runner lost"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, daytonafake.Options{})
			tpl := ""
			if c.class != "" {
				tpl = f.seedClass("vm-template", c.class)
			}
			sb := f.box(t, tpl, platform.SandboxSpec{})
			if c.prepare != nil {
				c.prepare(f, sb.ID)
				f.srv.SettleAll()
			}
			got, err := f.p.Sandboxes().SetState(context.Background(), sb.ID, c.want)
			if c.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), c.errHas) {
					t.Fatalf("err %v, want one containing %q", err, c.errHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != c.status {
				t.Errorf("status %s (%s), want %s", got.Status, got.PlatformStatus, c.status)
			}
		})
	}
}

func TestCreateInStates(t *testing.T) {
	f := newFixture(t, daytonafake.Options{})
	sb := f.box(t, "", platform.SandboxSpec{State: platform.StateStopped})
	if sb.Status != platform.StateStopped {
		t.Errorf("created stopped: %s", sb.Status)
	}
}

func TestResize(t *testing.T) {
	i := func(v int64) *int64 { return &v }
	cases := []struct {
		name      string
		state     platform.SandboxState
		change    platform.SandboxUpdate
		cpu, mem  int64
		disk      int64
		stops     int // POST stop requests the resize makes
		errHas    string
		noResize  bool
		disabled  bool
		wantState platform.SandboxState
	}{
		{name: "cpu up, live", change: platform.SandboxUpdate{CPUCount: i(4)}, cpu: 4, wantState: platform.StateRunning},
		{name: "memory down stops and starts", change: platform.SandboxUpdate{MemoryMB: i(1024)}, mem: 1024, stops: 1, wantState: platform.StateRunning},
		{name: "disk up stops and starts", change: platform.SandboxUpdate{DiskMB: i(20 * 1024)}, disk: 20 * 1024, stops: 1, wantState: platform.StateRunning},
		{name: "disk up on a stopped box stays stopped", state: platform.StateStopped, change: platform.SandboxUpdate{DiskMB: i(20 * 1024)},
			disk: 20 * 1024, wantState: platform.StateStopped},
		{name: "disk shrink refused", change: platform.SandboxUpdate{DiskMB: i(1024)}, errHas: "cannot shrink"},
		{name: "resize disabled", disabled: true, change: platform.SandboxUpdate{CPUCount: i(4)}, errHas: "resizing may not be enabled"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, daytonafake.Options{ResizeDisabled: c.disabled})
			tpl := f.srv.SeedSnapshot(daytonafake.SnapshotSeed{Name: "sized", ImageName: "ubuntu:24.04", CPU: 2, MemoryGB: 4, DiskGB: 10})
			sb := f.box(t, tpl, platform.SandboxSpec{State: c.state})
			stopsBefore := f.srv.Requests("POST /sandbox/{sandboxIdOrName}/stop")
			got, err := f.p.Sandboxes().Update(context.Background(), sb.ID, c.change)
			if c.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), c.errHas) {
					t.Fatalf("err %v, want %q", err, c.errHas)
				}
				after, _ := f.p.Sandboxes().Get(context.Background(), sb.ID)
				if after.Status != sb.Status {
					t.Errorf("the box was left %s, was %s", after.Status, sb.Status)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.cpu != 0 && got.CPUCount != c.cpu || c.mem != 0 && got.MemoryMB != c.mem || c.disk != 0 && got.DiskMB != c.disk {
				t.Errorf("size %d cpu %d MB %d MB", got.CPUCount, got.MemoryMB, got.DiskMB)
			}
			if got.Status != c.wantState {
				t.Errorf("left %s, want %s", got.Status, c.wantState)
			}
			if n := f.srv.Requests("POST /sandbox/{sandboxIdOrName}/stop") - stopsBefore; n != c.stops {
				t.Errorf("%d stops, want %d", n, c.stops)
			}
		})
	}
}

func TestUpdateLabelsLifecycle(t *testing.T) {
	f := newFixture(t, daytonafake.Options{})
	ctx := context.Background()
	sb := f.box(t, "", platform.SandboxSpec{Labels: map[string]string{"a": "1"}, Marks: platform.Marks{CreateToken: "tok"}})
	labels := map[string]string{"b": "2"}
	got, err := f.p.Sandboxes().Update(ctx, sb.ID, platform.SandboxUpdate{
		Labels: &labels,
		Lifecycle: &platform.LifecycleUpdate{Lifecycle: platform.Lifecycle{IdleTimeout: time.Hour},
			Changed: []string{platform.AttrSandboxIdleTimeout, platform.AttrSandboxAutoDeleteAfter}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got.Labels["b"] != "2" || got.Labels["a"] != "" || got.Labels[platform.LabelCreateToken] != "tok" {
		t.Errorf("labels %v", got.Labels)
	}
	if got.Lifecycle.IdleTimeout != time.Hour || got.Lifecycle.AutoDeleteAfter != 0 {
		t.Errorf("lifecycle %+v", got.Lifecycle)
	}
	if f.srv.Requests("POST /sandbox/{sandboxIdOrName}/autoarchive/{interval}") != 0 {
		t.Error("an unchanged interval was set")
	}
	if _, err := f.p.Sandboxes().Update(ctx, sb.ID, platform.SandboxUpdate{Lifecycle: &platform.LifecycleUpdate{
		Lifecycle: platform.Lifecycle{IdleTimeout: 90 * time.Second}, Changed: []string{platform.AttrSandboxIdleTimeout}}}); err == nil {
		t.Error("90s was accepted as a whole number of minutes")
	}
}

// TestLostSandboxCreate: an answer lost after the server made the box
// finds that box by its create token: one box, never two.
func TestLostSandboxCreate(t *testing.T) {
	f := newFixture(t, daytonafake.Options{})
	f.srv.Inject("POST /sandbox", daytonafake.Fault{DropAfterHandling: true})
	sb := f.box(t, "", platform.SandboxSpec{Name: "lost", Marks: platform.NewMarks("o")})
	if sb.Status != platform.StateRunning {
		t.Errorf("status %s", sb.Status)
	}
	if n := f.srv.Requests("POST /sandbox"); n != 1 {
		t.Errorf("%d creates sent, want 1", n)
	}
	if n := len(f.srv.Sandboxes()); n != 1 {
		t.Errorf("%d boxes, want 1", n)
	}
	// Dropped before the server acted: nothing is found, and the create is
	// sent once more, under the same name.
	f.srv.Inject("POST /sandbox", daytonafake.Fault{DropBeforeHandling: true})
	if _, err := f.p.Sandboxes().Create(context.Background(), platform.SandboxSpec{TemplateID: daytonafake.DefaultSnapshotName, Marks: platform.NewMarks("o")}); err != nil {
		t.Fatal(err)
	}
	if n := f.srv.Requests("POST /sandbox"); n != 3 {
		t.Errorf("%d creates sent, want 3", n)
	}
	if n := len(f.srv.Sandboxes()); n != 2 {
		t.Errorf("%d boxes, want 2", n)
	}
	// Both sends lost: the create fails saying how to find the box.
	f.srv.Inject("POST /sandbox", daytonafake.Fault{DropBeforeHandling: true, Times: 2})
	_, err := f.p.Sandboxes().Create(context.Background(), platform.SandboxSpec{TemplateID: daytonafake.DefaultSnapshotName, Marks: platform.NewMarks("o")})
	if !errors.Is(err, rest.ErrMaybeApplied) || !strings.Contains(err.Error(), "was not sent again") {
		t.Fatalf("err %v", err)
	}
	if n := len(f.srv.Sandboxes()); n != 2 {
		t.Errorf("%d boxes, want 2", n)
	}
}

// TestCreateThrottled: a 429 waits what Retry-After-sandbox-create says.
func TestCreateThrottled(t *testing.T) {
	f := newFixture(t, daytonafake.Options{})
	f.srv.Inject("POST /sandbox", daytonafake.Fault{Status: 429, Throttler: daytonafake.ThrottlerSandboxCreate, RetryAfter: 7, Times: 2})
	f.box(t, "", platform.SandboxSpec{})
	if n := len(f.srv.Sandboxes()); n != 1 {
		t.Errorf("%d boxes, want 1", n)
	}
	got := f.retry.all()
	if len(got) != 2 || got[0] != 7*time.Second || got[1] != 7*time.Second {
		t.Errorf("waits %v, want [7s 7s]", got)
	}
}

// TestSandboxPaging: a list reads every cursor page and filters labels on
// the server.
func TestSandboxPaging(t *testing.T) {
	// The pages are the subject, not the list's lag behind the creates.
	f := newFixture(t, daytonafake.Options{ListLagLists: -1})
	for i := range 205 {
		f.post(t, "/sandbox", map[string]any{"name": fmt.Sprintf("b%03d", i),
			"labels": map[string]string{platform.LabelManaged: "true", "set": fmt.Sprint(i % 2)}})
	}
	all, err := f.p.Sandboxes().List(context.Background(), platform.SandboxFilter{})
	if err != nil || len(all) != 205 {
		t.Fatalf("%d boxes, %v; want 205", len(all), err)
	}
	odd, err := f.p.Sandboxes().List(context.Background(), platform.SandboxFilter{Labels: map[string]string{"set": "1"}})
	if err != nil || len(odd) != 102 {
		t.Fatalf("%d odd boxes, %v; want 102", len(odd), err)
	}
	if n := f.srv.Requests("GET /sandbox"); n != 3 {
		t.Errorf("%d list requests, want 3 (2 pages, then 1)", n)
	}
}

// TestUpdateNetwork: the network settings change in place, and an update
// back to the internet clears the allow list.
func TestUpdateNetwork(t *testing.T) {
	f := newFixture(t, daytonafake.Options{})
	ctx := context.Background()
	sb := f.box(t, "", platform.SandboxSpec{})
	off, on := false, true
	got, err := f.p.Sandboxes().Update(ctx, sb.ID, platform.SandboxUpdate{Network: &platform.Network{Internet: &off, AllowOut: []string{"10.0.0.0/8"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got.Network == nil || !got.Network.InternetOff() || fmt.Sprint(got.Network.AllowOut) != "[10.0.0.0/8]" {
		t.Errorf("network %+v", got.Network)
	}
	got, err = f.p.Sandboxes().Update(ctx, sb.ID, platform.SandboxUpdate{Network: &platform.Network{Internet: &off}})
	if err != nil || got.Network == nil || !got.Network.InternetOff() || len(got.Network.AllowOut) != 0 {
		t.Fatalf("blocked: %+v %v", got.Network, err)
	}
	got, err = f.p.Sandboxes().Update(ctx, sb.ID, platform.SandboxUpdate{Network: &platform.Network{Internet: &on}})
	if err != nil || got.Network != nil {
		t.Fatalf("open again: %+v %v", got.Network, err)
	}
	if v, _ := f.srv.Sandbox(sb.ID); v.NetworkBlockAll || v.NetworkAllowList != "" {
		t.Errorf("fake holds %+v", v)
	}
}

// TestIdleDeadline: a started box reports when Daytona's auto-stop will
// stop it: its last activity plus autoStopInterval.
func TestIdleDeadline(t *testing.T) {
	f := newFixture(t, daytonafake.Options{})
	sb := f.box(t, "", platform.SandboxSpec{Lifecycle: platform.Lifecycle{IdleTimeout: 30 * time.Minute}})
	v, _ := f.srv.Sandbox(sb.ID)
	if want := v.LastActivityAt.Add(30 * time.Minute); !sb.ExpiresAt.Equal(want) {
		t.Errorf("expires %s, want %s", sb.ExpiresAt, want)
	}
}

// TestSandboxRegion: a box's region is Daytona's target, the provider's
// target when the box names none; it reads back, and a region the
// organisation does not have is Daytona's 404, not a box elsewhere.
func TestSandboxRegion(t *testing.T) {
	f := newFixture(t, daytonafake.Options{Regions: []string{"us", "eu"}})
	tests := []struct {
		name, region, want string
	}{
		{"the default region", "", "us"},
		{"a region of its own", "eu", "eu"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sb := f.box(t, "", platform.SandboxSpec{Region: tt.region})
			if v, _ := f.srv.Sandbox(sb.ID); v.Region != tt.want || sb.Region != tt.want {
				t.Errorf("box in %q (read back %q), want %q", v.Region, sb.Region, tt.want)
			}
		})
	}
	_, err := f.p.Sandboxes().Create(context.Background(), platform.SandboxSpec{TemplateID: daytonafake.DefaultSnapshotName, Region: "mars"})
	if err == nil || !strings.Contains(err.Error(), "Region not found") {
		t.Errorf("create in an unknown region: %v, want Daytona's Region not found", err)
	}
}

// TestDeleteBoxBeingCreated: Daytona refuses to delete a box whose create
// is still under way (409, a state change in progress); the delete waits
// for the box to settle, deletes it and waits until it is gone.
func TestDeleteBoxBeingCreated(t *testing.T) {
	f := newFixture(t, daytonafake.Options{})
	var created struct{ ID, State string }
	b, _ := json.Marshal(map[string]any{"name": "young"})
	req, _ := http.NewRequest(http.MethodPost, f.srv.URL()+"/sandbox", bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+testKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.NewDecoder(resp.Body).Decode(&created); err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if created.State != "creating" {
		t.Fatalf("create answered %s, want creating", created.State)
	}
	if err := f.p.Sandboxes().Delete(context.Background(), created.ID); err != nil {
		t.Fatalf("delete of a box being created: %v", err)
	}
	if v, ok := f.srv.Sandbox(created.ID); !ok || !v.Destroyed {
		t.Fatalf("box after the delete: %+v", v)
	}
	if n := f.srv.Requests("DELETE /sandbox/{sandboxIdOrName}"); n != 2 {
		t.Errorf("%d deletes sent, want 2 (refused while creating, then accepted)", n)
	}
}
