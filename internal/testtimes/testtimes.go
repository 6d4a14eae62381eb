// Package testtimes reads the event stream of `go test -json` and says
// where a run's time went: each package's wall time beside the share of
// its -timeout it used, and the slowest tests. `make test-slow` prints it
// after running the suite beside CPU hogs; a package near its timeout
// there is one a loaded CI machine could cut off.
package testtimes

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// Event is one line of `go test -json` (cmd/test2json's TestEvent).
type Event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64 // seconds
	Output  string
}

// Result is what a run's events say.
type Result struct {
	Packages []Timing // by wall time, longest first
	Tests    []Timing // every test and subtest that ended, longest first
	// Failed lists the packages and tests that failed, each with its output.
	Failed []Failure
}

// Timing is the wall time of a package or a test and how it ended.
type Timing struct {
	Package, Test string
	Action        string // pass, fail or skip
	Elapsed       time.Duration
}

// Failure is a failed package or test with the output it printed.
type Failure struct {
	Package, Test, Output string
}

// Read consumes events until r ends. Each package's end (its ok, FAIL or
// "no test files" line, as go test prints it without -json) is written to
// live as it arrives, so a long run shows progress.
func Read(r io.Reader, live io.Writer) (Result, error) {
	var res Result
	output := map[[2]string]*strings.Builder{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var ev Event
		if err := json.Unmarshal(line, &ev); err != nil {
			// go test writes build failures as plain text: pass them on.
			_, _ = fmt.Fprintf(live, "%s\n", line)
			continue
		}
		key := [2]string{ev.Package, ev.Test}
		switch ev.Action {
		case "output":
			b := output[key]
			if b == nil {
				b = &strings.Builder{}
				output[key] = b
			}
			b.WriteString(ev.Output)
		case "pass", "fail", "skip":
			t := Timing{Package: ev.Package, Test: ev.Test, Action: ev.Action, Elapsed: time.Duration(ev.Elapsed * float64(time.Second))}
			if ev.Test == "" {
				res.Packages = append(res.Packages, t)
				_, _ = fmt.Fprint(live, packageLine(t))
			} else {
				res.Tests = append(res.Tests, t)
			}
			if ev.Action == "fail" {
				out := ""
				if b := output[key]; b != nil {
					out = b.String()
				}
				res.Failed = append(res.Failed, Failure{Package: ev.Package, Test: ev.Test, Output: out})
			}
			delete(output, key)
		}
	}
	if err := sc.Err(); err != nil {
		return res, err
	}
	longestFirst(res.Packages)
	longestFirst(res.Tests)
	return res, nil
}

func longestFirst(ts []Timing) {
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].Elapsed > ts[j].Elapsed })
}

// packageLine is go test's own line for a package's end.
func packageLine(t Timing) string {
	switch t.Action {
	case "pass":
		return fmt.Sprintf("ok  \t%s\t%.3fs\n", t.Package, t.Elapsed.Seconds())
	case "fail":
		return fmt.Sprintf("FAIL\t%s\t%.3fs\n", t.Package, t.Elapsed.Seconds())
	default:
		return fmt.Sprintf("?   \t%s\t[no test files]\n", t.Package)
	}
}

// Report writes the packages that ran tests, longest first, each with the
// share of timeout it used (marked where it used half or more), then the
// top slowest tests. It returns the packages that used half or more.
func Report(w io.Writer, res Result, timeout time.Duration, top int) []string {
	var near []string
	_, _ = fmt.Fprintf(w, "%-48s %9s %8s\n", "package", "wall", "timeout")
	for _, p := range res.Packages {
		if p.Action == "skip" {
			continue
		}
		share := float64(p.Elapsed) / float64(timeout)
		mark := ""
		if share >= 0.5 {
			mark = "  <- half of its -timeout or more"
			near = append(near, p.Package)
		}
		_, _ = fmt.Fprintf(w, "%-48s %8.1fs %7.0f%%%s\n", strings.TrimPrefix(p.Package, modulePrefix(p.Package)), p.Elapsed.Seconds(), share*100, mark)
	}
	if top > 0 && len(res.Tests) > 0 {
		_, _ = fmt.Fprintf(w, "\nthe %d slowest tests and subtests (a parallel test's time includes its waits for a slot):\n", min(top, len(res.Tests)))
		for _, t := range res.Tests[:min(top, len(res.Tests))] {
			_, _ = fmt.Fprintf(w, "%8.1fs  %s  %s\n", t.Elapsed.Seconds(), strings.TrimPrefix(t.Package, modulePrefix(t.Package)), t.Test)
		}
	}
	return near
}

// modulePrefix is the part of a package path before internal/, which
// every row shares.
func modulePrefix(pkg string) string {
	if i := strings.Index(pkg, "/internal/"); i >= 0 {
		return pkg[:i+1]
	}
	return ""
}
