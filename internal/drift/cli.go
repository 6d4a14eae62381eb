package drift

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/cliutil"
	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/duration"
	"github.com/sbxhq/terraform-provider-sbx/internal/statesource"
)

// Exit codes of the drift command.
const (
	ExitClean   = 0 // nothing expired (expiring objects are printed, still 0)
	ExitError   = 1 // bad flags or bad input
	ExitExpired = 2 // at least one object is past its deadline
)

const usage = `Usage: terraform-provider-sbx drift [flags] STATE
       terraform-provider-sbx drift [flags] --backend TYPE [--backend-config KEY=VALUE...]

Reports every sbx_sandbox, sbx_snapshot and sbx_template in a Terraform
state whose retention deadline (expires_at, recorded on the last refresh)
has passed or falls within --warn-before. Needs no credentials and no
network.

STATE is a file written by 'terraform state pull' or a .tfstate file
(state format version 4), or the output of 'terraform show -json';
'-' reads standard input:

  terraform state pull | terraform-provider-sbx drift -

--backend reads every workspace's state straight from a Terraform backend
instead, read-only and without taking a state lock, and each finding names
its workspace:

` + statesource.Usage + `
  PG_CONN_STR=postgres://… terraform-provider-sbx drift --backend pg --group-by workspace

A workspace that cannot be read, or whose state is not one, is an error
naming it: the run never reports it as clean.

Exit status: 0 nothing expired, 2 something expired, 1 bad flags or input.

Flags:
`

// Main runs the drift command with args (after "drift") and returns its
// exit code. The clock gives the default --now (nil: the system clock).
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, clock clock.Clock) int {
	fs := flag.NewFlagSet("drift", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		_, _ = fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	nowFlag := fs.String("now", "", "judge deadlines at this time (RFC 3339, e.g. 2026-05-01T12:00:00Z) instead of the current time")
	warnFlag := fs.String("warn-before", "72h", "report deadlines this close as expiring (Go duration, or days such as 3d)")
	format := fs.String("format", "table", "output format: table or json")
	backend := statesource.RegisterFlags(fs)
	var workspaces stringList
	fs.Var(&workspaces, "workspace", "with --backend, check only this workspace (repeatable)")
	groupBy := fs.String("group-by", "", "with --backend, 'workspace' lists the findings workspace by workspace, with each one's counts")

	positional, err := cliutil.ParseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return ExitClean
	}
	if err != nil {
		return fail(stderr, "%v", err) // the flag package already printed the usage
	}
	switch {
	case backend.Set() && len(positional) > 0:
		return fail(stderr, "--backend and a STATE argument are given together; give one")
	case !backend.Set() && len(workspaces) > 0:
		return fail(stderr, "--workspace needs --backend: a state file has no workspaces")
	case *groupBy != "" && *groupBy != "workspace":
		return fail(stderr, "invalid --group-by %q: use workspace", *groupBy)
	case *groupBy != "" && !backend.Set():
		return fail(stderr, "--group-by workspace needs --backend: a state file has no workspaces")
	}
	if !backend.Set() && len(positional) != 1 {
		fs.Usage()
		if len(positional) == 0 {
			return fail(stderr, "missing STATE: give a state file, or - to read standard input")
		}
		return fail(stderr, "expected one STATE argument, got %d: %s", len(positional), strings.Join(positional, " "))
	}
	if *format != "table" && *format != "json" {
		return fail(stderr, "invalid --format %q: use table or json", *format)
	}
	var now time.Time
	switch {
	case *nowFlag != "":
		now, err = time.Parse(time.RFC3339, *nowFlag)
		if err != nil {
			return fail(stderr, "invalid --now %q: want an RFC 3339 time such as 2026-05-01T12:00:00Z", *nowFlag)
		}
	case clock != nil:
		now = clock.Now()
	default:
		now = time.Now()
	}
	warn, err := duration.Parse(*warnFlag)
	if err != nil {
		return fail(stderr, "invalid --warn-before: %v", err)
	}
	if warn < 0 {
		return fail(stderr, "invalid --warn-before %q: must not be negative", *warnFlag)
	}

	var rep Report
	if backend.Set() {
		src, err := backend.Open(getenv)
		if err != nil {
			return fail(stderr, "%v", err)
		}
		rep, err = DetectSource(context.Background(), src, workspaces, *groupBy == "workspace", now, warn)
		if err != nil {
			return fail(stderr, "%v", err)
		}
	} else {
		rep, err = detectFile(positional[0], stdin, now, warn)
		if err != nil {
			return fail(stderr, "%v", err)
		}
	}
	if *format == "json" {
		err = WriteJSON(stdout, rep)
	} else {
		err = WriteTable(stdout, rep, *groupBy == "workspace")
	}
	if err != nil {
		return fail(stderr, "writing the report: %v", err)
	}
	if rep.Expired > 0 {
		return ExitExpired
	}
	return ExitClean
}

// getenv reads the backends' variables (PG_CONN_STR, PG_SCHEMA_NAME).
var getenv = os.Getenv

type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// detectFile judges the state in the named file, or standard input for -.
func detectFile(name string, stdin io.Reader, now time.Time, warn time.Duration) (Report, error) {
	var in io.Reader
	if name == "-" {
		name = "standard input"
		in = stdin
	} else {
		f, err := openState(name)
		if err != nil {
			return Report{}, err
		}
		defer func() { _ = f.Close() }() // read-only: nothing to lose on close
		in = f
	}
	rep, err := Detect(bufio.NewReaderSize(in, 256<<10), now, warn)
	if err != nil {
		var ie *InputError
		if errors.As(err, &ie) {
			return Report{}, fmt.Errorf("%s: %w", name, err)
		}
		return Report{}, fmt.Errorf("cannot read %s: %w", name, err)
	}
	return rep, nil
}

func openState(name string) (*os.File, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", name, errors.Unwrap(err))
	}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("cannot read %s: %w", name, err)
	}
	if st.IsDir() {
		_ = f.Close()
		return nil, fmt.Errorf("cannot read %s: it is a directory, want a state file", name)
	}
	return f, nil
}

func fail(stderr io.Writer, format string, a ...any) int {
	_, _ = fmt.Fprintf(stderr, "drift: "+format+"\n", a...) // nowhere left to report a failed write
	return ExitError
}
