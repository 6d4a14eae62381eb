package daytonafake

import (
	"net/http"
	"slices"
	"testing"
	"time"
)

// splitCommand is the daemon's parseCommand: spaces split outside quotes,
// either quote keeps a span whole with the other quote literal, touching
// spans join, empty words drop, there is no escape.
func TestSplitCommand(t *testing.T) {
	for in, want := range map[string][]string{
		`echo  a b`:             {"echo", "a", "b"},
		`echo 'a b' "c d"`:      {"echo", "a b", "c d"},
		`x 'it'"'"'s'`:          {"x", "it's"},
		`x "say 'hi'"`:          {"x", "say 'hi'"},
		`x '' "" y`:             {"x", "y"},
		`x a\ b`:                {"x", `a\`, "b"},
		"x tab\there":           {"x", "tab\there"},
		`x 'unterminated quote`: {"x", "unterminated quote"},
		``:                      nil,
	} {
		if got := splitCommand(in); !slices.Equal(got, want) {
			t.Errorf("splitCommand(%q) = %q, want %q", in, got, want)
		}
	}
}

// Through the toolbox proxy, execute runs the split command in a started
// box and answers ExecuteResponse: the exit code and the merged output; a
// program that cannot start is exitCode -1; a box not started is a 400, a
// box that is gone a 404; an empty command a 400; the call is activity.
func TestExecute(t *testing.T) {
	srv, api, clock := newTest(t, Options{})
	box := api.createSandbox(map[string]any{"env": map[string]any{"A": "one"}})
	path := "/_fake/toolbox/" + box.ID + "/process/execute"
	clock.Advance(time.Minute)
	type out struct {
		ExitCode int    `json:"exitCode"`
		Result   string `json:"result"`
	}
	for _, c := range []struct {
		body map[string]any
		want out
	}{
		{map[string]any{"command": `echo 'a  b' c`}, out{0, "a  b c\n"}},
		{map[string]any{"command": "printenv A"}, out{0, "one\n"}},
		{map[string]any{"command": "pwd", "cwd": "/srv"}, out{0, "/srv\n"}},
		{map[string]any{"command": `sh -c "echo o; echo e >&2; exit 5"`, "timeout": 10}, out{5, "o\ne\n"}},
		{map[string]any{"command": "nosuch"}, out{-1, `exec: "nosuch": executable file not found in $PATH`}},
	} {
		var got out
		api.must(http.StatusOK, "POST", path, c.body).decode(t, &got)
		if got != c.want {
			t.Errorf("%v: %+v, want %+v", c.body, got, c.want)
		}
	}
	if runs := srv.ExecRuns(); len(runs) != 5 || runs[3].Timeout != 10 || runs[2].Cwd != "/srv" || runs[0].Cwd != defaultCwd ||
		!slices.Equal(runs[0].Argv, []string{"echo", "a  b", "c"}) {
		t.Errorf("ExecRuns: %+v", runs)
	}
	if v, _ := srv.Sandbox(box.ID); !v.LastActivityAt.Equal(clock.Now()) || v.LastActivityAt.Equal(t0) {
		t.Errorf("lastActivityAt %v, want the exec's time %v", v.LastActivityAt, clock.Now())
	}
	api.refuse(http.StatusBadRequest, "empty command", "POST", path, map[string]any{"command": "  "})
	srv.StopOutOfBand(box.ID)
	api.refuse(http.StatusBadRequest, "not started", "POST", path, map[string]any{"command": "true"})
	api.refuse(http.StatusNotFound, "not found", "POST", "/_fake/toolbox/nosuch/process/execute", map[string]any{"command": "true"})
}
