package crashtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/orphans"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// workdir is one Terraform working directory with local state, driving the
// built provider binary through a dev_overrides CLI configuration.
type workdir struct {
	t   *testing.T
	tf  string // the terraform CLI
	bin string // the provider binary (also the orphans command)
	dir string
	env []string
}

func (w *workdir) write(name, content string) {
	w.t.Helper()
	if err := os.WriteFile(filepath.Join(w.dir, name), []byte(content), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

func (w *workdir) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = w.dir, w.env
	// Its own process group: the provider processes terraform starts are
	// in it too, so the test can tell when they are gone (groupAlive).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

// terraform runs the CLI to its end and returns its output (stdout, then
// stderr) and exit code.
func (w *workdir) terraform(args ...string) (string, int) {
	w.t.Helper()
	return w.run(w.command(w.tf, args...))
}

// orphans runs the provider binary's orphans subcommand.
func (w *workdir) orphans(args ...string) (string, int) {
	w.t.Helper()
	return w.run(w.command(w.bin, append([]string{"orphans"}, args...)...))
}

func (w *workdir) run(cmd *exec.Cmd) (string, int) {
	w.t.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		w.t.Fatalf("running %s: %v", cmd.Path, err)
	}
	return stdout.String() + stderr.String(), code
}

// orphansOf runs the orphans command for s: the provider binary's, or in
// the test process with the kit's Definition where the binary cannot reach
// the instance from the environment alone.
func (w *workdir) orphansOf(s *site, args ...string) (string, int) {
	w.t.Helper()
	if s.orphansInProcess() {
		return w.orphansInProcess(s.orphansPlatforms(), args...)
	}
	return w.orphans(args...)
}

// orphansInProcess runs the orphans command in the test process with the
// given platforms and the working directory's environment.
func (w *workdir) orphansInProcess(platforms []platform.Definition, args ...string) (string, int) {
	env := map[string]string{}
	for _, kv := range w.env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	var out bytes.Buffer
	code := orphans.Main(context.Background(), args, orphans.Env{
		Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out,
		Getenv: func(k string) string { return env[k] }, Version: "crashtest", Platforms: platforms,
	})
	return out.String(), code
}

// lockedBuffer collects a process's output while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// interruption is how the interrupted apply is ended.
type interruption struct {
	// sig is sent to terraform; 0: none, terraform ends by itself.
	sig syscall.Signal
	// ready says the apply has come to where sig is to land: the platform
	// has seen the creates the run waits for, or the state file is torn.
	ready func() bool
	// whileStopped, when set, must also hold for sig to be sent, asked of
	// terraform stopped (SIGSTOP) so that nothing moves while it is
	// checked: the state file whole, or torn. Where it does not hold,
	// terraform resumes and the test looks again.
	whileStopped func() bool
	// fileSizeLimit, when positive, is the apply's RLIMIT_FSIZE: the
	// kernel cuts every write past it, so the state write that grows the
	// file past the limit leaves it torn at exactly that byte, as a kill
	// landing in the write would (terraform, a Go program, ignores the
	// SIGXFSZ that comes with it and halts on the failed write).
	fileSizeLimit int64
	// mayEnd says terraform may end by itself once ready holds: a halted
	// apply whose answers were not held back ends when its creates do.
	mayEnd bool
}

// The waits for terraform and the platform in an interrupted apply are
// real (terraform is a child process): each is bounded generously, at ten
// times what a loaded two-CPU machine needed, so only a hung terraform or
// platform ends the test.
const (
	readyWithin = 10 * time.Minute
	exitWithin  = 10 * time.Minute
	// providersWithin is how long the provider processes of a killed
	// terraform are given to end by themselves; they are killed after it
	// (the test logs it and goes on: it asserts nothing of it).
	providersWithin = time.Minute
)

// interrupted starts `terraform apply`, waits until in.ready holds, sends
// in.sig to terraform (not to its provider processes: a Ctrl-C in a
// terminal reaches the whole group, a CI runner's cancel or the OOM killer
// often only terraform), waits for it to exit and for the provider
// processes it leaves to end, and returns its output.
func (w *workdir) interrupted(in interruption, args ...string) string {
	w.t.Helper()
	argv := append([]string{w.tf, "apply"}, args...)
	if in.fileSizeLimit > 0 {
		// prlimit sets the limit and execs terraform: the same process.
		argv = append([]string{"--fsize=" + strconv.FormatInt(in.fileSizeLimit, 10), "--"}, argv...)
		prlimit, err := exec.LookPath("prlimit")
		if err != nil {
			w.t.Fatalf("the torn-state run needs prlimit (util-linux) to limit terraform's file size: %v", err)
		}
		argv = append([]string{prlimit}, argv...)
	}
	cmd := w.command(argv[0], argv[1:]...)
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		w.t.Fatalf("starting terraform apply: %v", err)
	}
	pid := cmd.Process.Pid
	defer killGroup(pid) // whatever is left of the processes the test started
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	if in.sig == 0 {
		select {
		case err := <-done:
			w.t.Logf("terraform apply ended by itself: %v", err)
		case <-time.After(exitWithin):
			w.t.Fatalf("terraform apply did not end within %v:\n%s", exitWithin, out.String())
		}
		if !in.ready() {
			w.t.Fatalf("terraform apply ended without coming where the run waits for:\n%s", out.String())
		}
		w.awaitProviders(pid, in.sig)
		return out.String()
	}
	deadline := time.Now().Add(readyWithin)
	for !w.landed(in, pid) {
		select {
		case err := <-done:
			if in.mayEnd && in.ready() {
				w.t.Logf("terraform apply ended by itself (%v) once it had come where %v was to land: the platform and the state file are as the signal would have left them", err, in.sig)
				w.awaitProviders(pid, in.sig)
				return out.String()
			}
			w.t.Fatalf("terraform apply ended (%v) before it came where %v was to land (mid-create):\n%s", err, in.sig, out.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("terraform apply did not come where %v was to land within %v:\n%s", in.sig, readyWithin, out.String())
		}
	}
	select {
	case err := <-done:
		w.t.Logf("terraform apply after %v: %v", in.sig, err)
	case <-time.After(exitWithin):
		w.t.Fatalf("terraform apply did not exit within %v of %v:\n%s", exitWithin, in.sig, out.String())
	}
	w.awaitProviders(pid, in.sig)
	return out.String()
}

// landed sends in.sig to terraform (process pid) when the apply has come
// where it is to land, and says whether it did. With in.whileStopped,
// terraform is stopped first and resumed when that does not hold.
func (w *workdir) landed(in interruption, pid int) bool {
	w.t.Helper()
	if !in.ready() {
		return false
	}
	if in.whileStopped != nil {
		if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
			return false // it has ended: the caller sees it
		}
		awaitStopped(pid)
		if !in.whileStopped() {
			_ = syscall.Kill(pid, syscall.SIGCONT)
			return false
		}
	}
	if err := syscall.Kill(pid, in.sig); err != nil {
		w.t.Fatalf("signalling terraform: %v", err)
	}
	if in.whileStopped != nil && in.sig != syscall.SIGKILL {
		_ = syscall.Kill(pid, syscall.SIGCONT) // a stopped process takes other signals once resumed
	}
	return true
}

// awaitStopped returns once process pid is stopped (or gone): SIGSTOP is
// delivered asynchronously, and until then terraform may still write.
func awaitStopped(pid int) {
	for {
		stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
		if err != nil {
			return
		}
		s := string(stat)
		if fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]); len(fields) == 0 || fields[0] == "T" || fields[0] == "Z" {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// awaitProviders waits for the provider processes a terraform ended by sig
// leaves: they run their requests on, and end when they notice terraform
// is gone. The next apply starts after them, as a user's would.
func (w *workdir) awaitProviders(pgid int, sig syscall.Signal) {
	for end := time.Now().Add(providersWithin); groupAlive(pgid) && time.Now().Before(end); {
		time.Sleep(50 * time.Millisecond)
	}
	if groupAlive(pgid) {
		w.t.Logf("provider processes of the terraform that got %v still ran %v later; killed them", sig, providersWithin)
	}
}

// groupAlive reports whether a process of the group pgid runs (zombies,
// which a container's init may leave unreaped, do not count).
func groupAlive(pgid int) bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return syscall.Kill(-pgid, 0) == nil
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...: comm may hold spaces.
		s := string(stat)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) >= 3 && fields[0] != "Z" && fields[2] == strconv.Itoa(pgid) {
			return true
		}
	}
	return false
}

func killGroup(pgid int) { _ = syscall.Kill(-pgid, syscall.SIGKILL) }

// unlock removes the lock a killed terraform leaves on the local state, as
// a user does: terraform force-unlock with the lock's id, else (the local
// backend's lock is held by the process, which is gone, and only its info
// file remains) removing the info file.
func (w *workdir) unlock() {
	w.t.Helper()
	info := filepath.Join(w.dir, ".terraform.tfstate.lock.info")
	raw, err := os.ReadFile(info)
	if err != nil {
		return
	}
	var lock struct{ ID string }
	_ = json.Unmarshal(raw, &lock)
	if out, code := w.terraform("force-unlock", "-force", lock.ID); code != 0 {
		w.t.Logf("terraform force-unlock %s: exit %d (%s); removing %s", lock.ID, code, strings.TrimSpace(out), info)
		if err := os.Remove(info); err != nil && !errors.Is(err, os.ErrNotExist) {
			w.t.Fatal(err)
		}
		return
	}
	w.t.Logf("terraform force-unlock %s: the killed apply's lock released", lock.ID)
}

// stateResource is one resource instance of the state.
type stateResource struct {
	Address string
	Type    string
	ID      string
	Name    string
}

// state reads the state through terraform show -json.
func (w *workdir) state() []stateResource {
	w.t.Helper()
	return w.stateFile("")
}

// stateFile reads the state file at path (the working directory's state
// where path is "") through terraform show -json.
func (w *workdir) stateFile(path string) []stateResource {
	w.t.Helper()
	args := []string{"show", "-json", "-no-color"}
	if path != "" {
		args = append(args, path)
	}
	cmd := w.command(w.tf, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		w.t.Fatalf("terraform show -json: %v\n%s", err, stderr.String())
	}
	var doc struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address string         `json:"address"`
					Type    string         `json:"type"`
					Values  map[string]any `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		w.t.Fatalf("reading terraform show -json: %v\n%s", err, stdout.String())
	}
	var out []stateResource
	for _, r := range doc.Values.RootModule.Resources {
		id, _ := r.Values["id"].(string)
		name, _ := r.Values["name"].(string)
		out = append(out, stateResource{Address: r.Address, Type: r.Type, ID: id, Name: name})
	}
	return out
}
