package docker

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/pkg/stdcopy"

	"github.com/sbxhq/terraform-provider-sbx/internal/redact"
)

// readyStartPeriod is how long a new box's ready_cmd may fail before its
// failures count: a box that needs a while to boot is not judged meanwhile,
// though a check that passes makes it ready at once. After it, readyRetries
// failures in a row make the engine report the box unhealthy, and a start
// that is waiting for the box fails then, instead of at the create timeout.
const readyStartPeriod = 30 * time.Second

// startSettle is how long a box without a ready_cmd must keep running after
// its start before the start counts as done. A command that fails at once
// (a bad argument, a missing file, a missing variable) exits well within
// it: a compiled program or a shell script within milliseconds, an
// interpreter's (Python, Node) within about a tenth of a second. The start
// then fails with its exit code and log instead of reporting a box that is
// already stopped. A box whose command exits later reads as stopped in the
// next plan, whose start waits the same way; a box that must prove it is
// ready sets a ready_cmd, which the start waits for instead.
//
// Every apply that starts boxes waits this long once (the boxes start in
// parallel), which the docker CLI's `run -d` does not. make bench, 30 boxes,
// medians of three rounds, two runs each, put the apply at 1.54x and 1.46x
// the CLI's wall time with 2 s, 1.24x (one run) with 1 s, and 0.97x and
// 1.13x with 500 ms.
const startSettle = 500 * time.Millisecond

// Log lines quoted in an error: the last logTailLines lines, each cut to
// logLineMax bytes.
const (
	logTailLines = 10
	logLineMax   = 300
)

// waitReady waits until a box just started can do work, and fails as soon as
// the engine says it never will:
//   - with a ready_cmd (a healthcheck), until the check passes; the engine
//     reporting the box unhealthy is final;
//   - without one, until the box has kept running for startSettle;
//   - a box whose command exits meanwhile fails the start, with its exit
//     code and its last log lines.
//
// A box without a ready_cmd is not polled: the engine has nothing to report
// but an exit, so waitExit holds one wait call open until the box exits or
// the settle time is up. That ends the start at startSettle exactly, not at
// the first poll after it, and spares the engine a read every pollInterval
// per box while it is busy starting the others (make bench: 8 reads a box).
//
// Errors carry no value of the box's env: log lines and check output are
// masked (a program may well print the variable it was given).
func (s *sandboxes) waitReady(ctx context.Context, id string) error {
	settled := s.now().Add(s.startSettle())
	var last *container.InspectResponse
	held := false // the one held wait of a box without a ready_cmd is over
	for {
		c, err := s.api.ContainerInspect(ctx, id)
		if err != nil {
			if ctx.Err() != nil && last != nil {
				// The wait ran out mid-read: say what the box was doing.
				return s.notReadyError(ctx, *last)
			}
			return wrapErr(kindSandbox, id, err)
		}
		last = &c
		if s.readHook != nil {
			s.readHook(c)
		}
		st := c.State
		if st == nil {
			return fmt.Errorf("sandbox %q: the engine reports no state for it", id)
		}
		if !st.Running {
			return s.exitedError(ctx, c)
		}
		health := st.Health
		checked := health != nil && health.Status != container.NoHealthcheck
		switch {
		case !checked && !s.now().Before(settled):
			return nil
		case checked && health.Status == container.Healthy:
			return nil
		case checked && health.Status == container.Unhealthy:
			return s.unhealthyError(ctx, c)
		case !checked && !held:
			// Read again once the box has exited or settled. Poll when
			// the engine would not hold the wait, and after it: a box
			// still running before its settle time after the engine
			// said it stopped (started again by hand) gets no second
			// wait, so a wait that keeps answering at once cannot spin.
			held = true
			if s.waitExit(ctx, id, settled) == nil {
				continue
			}
		}
		select {
		case <-ctx.Done():
			return s.notReadyError(ctx, c)
		case <-time.After(pollInterval):
		}
	}
}

// startSettle is the settle time of this service: startSettle unless a
// test set a shorter one.
func (s *sandboxes) startSettle() time.Duration {
	if s.settle > 0 {
		return s.settle
	}
	return startSettle
}

// now is the time on the service's clock.
func (s *sandboxes) now() time.Time {
	if s.clock != nil {
		return s.clock.Now()
	}
	return time.Now()
}

// waitExit returns once the box id is no longer running, or at until (on
// the service's clock), or when ctx ends, whichever is first; nil means the
// caller may read the box again at once. An error means the engine did not
// hold the wait (it refused it, or answered before any of those), and the
// caller polls instead.
func (s *sandboxes) waitExit(ctx context.Context, id string, until time.Time) error {
	waitCtx, cancel := context.WithTimeout(ctx, until.Sub(s.now()))
	defer cancel()
	// "not-running" answers at once for a box that has already exited, so
	// an exit between the start and this call is not missed.
	exited, failed := s.api.ContainerWait(waitCtx, id, container.WaitConditionNotRunning)
	select {
	case <-exited:
		return nil
	case err := <-failed:
		if waitCtx.Err() != nil {
			return nil // until passed, or ctx ended: the caller reads and decides
		}
		return err
	}
}

// notReadyError is the end of a wait that ran out (ctx ended) while the box
// was running but not yet ready. A box without a ready_cmd is ready: only
// the watch for an early exit was cut short.
func (s *sandboxes) notReadyError(ctx context.Context, c container.InspectResponse) error {
	health := c.State.Health
	if health == nil || health.Status == container.NoHealthcheck {
		return nil
	}
	return fmt.Errorf("sandbox %q is not ready (health %s)%s: %w",
		c.ID, health.Status, s.secrets(ctx, c).String(lastCheck(health)), ctx.Err())
}

// exitedError explains a box that stopped running while it was being started.
func (s *sandboxes) exitedError(ctx context.Context, c container.InspectResponse) error {
	st := c.State
	var b strings.Builder
	fmt.Fprintf(&b, "its command exited with code %d", st.ExitCode)
	started, finished := parseEngineTime(st.StartedAt), parseEngineTime(st.FinishedAt)
	if ran := finished.Sub(started); !started.IsZero() && !finished.IsZero() && ran >= time.Second {
		fmt.Fprintf(&b, " %s after it started", ran.Round(100*time.Millisecond))
	} else {
		b.WriteString(" right after it started")
	}
	if st.OOMKilled {
		b.WriteString(": it was killed for lack of memory (raise memory_mb)")
	}
	if st.Error != "" {
		fmt.Fprintf(&b, ": %s", st.Error)
	}
	b.WriteString("; a sandbox's command (the template's start_cmd, else its image's CMD) must keep running")
	if st.Health != nil && st.Health.Status != container.NoHealthcheck {
		b.WriteString(lastCheck(st.Health))
	}
	b.WriteString(s.logTail(ctx, c))
	return &startError{msg: s.secrets(ctx, c).String(b.String())}
}

// unhealthyError explains a box its ready_cmd will not let become ready.
func (s *sandboxes) unhealthyError(ctx context.Context, c container.InspectResponse) error {
	h := c.State.Health
	msg := fmt.Sprintf("it will not become ready: its ready_cmd failed %d times in a row (failures in a box's first %s "+
		"do not count), so the engine marks the box unhealthy%s", h.FailingStreak, seconds(readyStartPeriod), lastCheck(h)) +
		s.logTail(ctx, c)
	return &startError{msg: s.secrets(ctx, c).String(msg)}
}

// startError is a box that stopped, or will not become ready, while it was
// being started. Its text is already masked and names no box: the callers
// say which box and which step.
type startError struct{ msg string }

func (e *startError) Error() string { return e.msg }

// lastCheck describes the latest ready_cmd run, or "".
func lastCheck(h *container.Health) string {
	if h == nil || len(h.Log) == 0 {
		return ""
	}
	last := h.Log[len(h.Log)-1]
	return fmt.Sprintf("; last ready_cmd exit code %d, output %q", last.ExitCode, cutLine(strings.TrimSpace(last.Output)))
}

// logTail is the box's last log lines as an error's last paragraph, or ""
// when the engine has none to give.
func (s *sandboxes) logTail(ctx context.Context, c container.InspectResponse) string {
	lines := s.lastLogLines(ctx, c)
	if len(lines) == 0 {
		return "; it wrote no log"
	}
	return fmt.Sprintf(". Its last log lines:\n  %s", strings.Join(lines, "\n  "))
}

// lastLogLines reads the box's last logTailLines lines of stdout and stderr.
func (s *sandboxes) lastLogLines(ctx context.Context, c container.InspectResponse) []string {
	// The logs explain a failure even when the failure was ctx ending.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), AnswerTimeout)
	defer cancel()
	rc, err := s.api.ContainerLogs(ctx, c.ID, container.LogsOptions{
		ShowStdout: true, ShowStderr: true, Tail: strconv.Itoa(logTailLines),
	})
	if err != nil {
		return nil
	}
	defer func() { _ = rc.Close() }() // read-only stream
	var out bytes.Buffer
	src := io.LimitReader(rc, 256<<10)
	if c.Config != nil && c.Config.Tty {
		_, err = io.Copy(&out, src)
	} else {
		_, err = stdcopy.StdCopy(&out, &out, src)
	}
	if err != nil && out.Len() == 0 {
		return nil
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(out.String(), "\r\n"), "\n") {
		if l = strings.TrimRight(l, "\r"); l != "" {
			lines = append(lines, cutLine(l))
		}
	}
	if len(lines) > logTailLines {
		lines = lines[len(lines)-logTailLines:]
	}
	return lines
}

// cutLine shortens a log line or check output for an error message,
// without splitting a UTF-8 sequence.
func cutLine(s string) string {
	if len(s) <= logLineMax {
		return s
	}
	cut := logLineMax
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// secrets are the values of the env the box was given (not those it has
// from its image), which no error may quote; all its variables when the
// image is gone and the two cannot be told apart.
func (s *sandboxes) secrets(ctx context.Context, c container.InspectResponse) *redact.Secrets {
	var sec redact.Secrets
	if c.Config == nil {
		return &sec
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), AnswerTimeout)
	defer cancel()
	if own := s.givenEnv(ctx, c); own != nil {
		sec.EnvMap(own)
	} else {
		sec.EnvList(c.Config.Env)
	}
	return &sec
}
