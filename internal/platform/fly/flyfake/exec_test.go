package flyfake

import (
	"net/http"
	"strings"
	"testing"
)

// Exec answers fly-go's MachineExecResponse once the command ended:
// exit_code, stdout and stderr, each left out when zero or empty; the
// machine's env is the command's; an unknown program exits 127; a machine
// not started is a 412; ExecRuns records what ran.
func TestExec(t *testing.T) {
	e := newEnv(t, nil)
	id := e.started(map[string]any{"config": testConfig(map[string]any{"env": map[string]any{"A": "one"}})})
	path := machines + "/" + id + "/exec"
	for _, c := range []struct {
		command []string
		want    map[string]any
	}{
		{[]string{"echo", "a  b", "c"}, map[string]any{"stdout": "a  b c\n"}},
		{[]string{"printenv", "A"}, map[string]any{"stdout": "one\n"}},
		{[]string{"/bin/sh", "-c", "echo bad >&2; exit 7"}, map[string]any{"stderr": "bad\n", "exit_code": float64(7)}},
		{[]string{"nosuch"}, map[string]any{"stderr": "exec: \"nosuch\": executable file not found in $PATH\n", "exit_code": float64(127)}},
		{[]string{"true"}, map[string]any{}},
	} {
		got := e.must(http.StatusOK, "POST", path, map[string]any{"command": c.command, "timeout": 30}).obj(t)
		if len(got) != len(c.want) {
			t.Errorf("%q: %v, want %v", c.command, got, c.want)
		}
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("%q: %v, want %v", c.command, got, c.want)
			}
		}
	}
	if runs := e.s.ExecRuns(); len(runs) != 5 || runs[0].Machine != id || runs[0].Timeout != 30 || runs[2].ExitCode != 7 {
		t.Errorf("ExecRuns: %+v", runs)
	}

	e.must(http.StatusOK, "POST", machines+"/"+id+"/stop", nil)
	e.must(http.StatusOK, "GET", machines+"/"+id+"/wait?state=stopped&instance_id="+mustMachine(t, e, id).InstanceID, nil)
	if r := e.do("POST", path, map[string]any{"command": []string{"true"}}); r.status != http.StatusPreconditionFailed {
		t.Errorf("exec in a stopped machine: %d %s, want 412", r.status, r.raw)
	}
	if r := e.do("POST", machines+"/nosuch/exec", map[string]any{"command": []string{"true"}}); r.status != http.StatusNotFound {
		t.Errorf("exec in no machine: %d %s, want 404", r.status, r.raw)
	}
}

// The deprecated cmd string is served but recorded as a violation: the
// provider must send argv.
func TestExecDeprecatedCmd(t *testing.T) {
	e, rec := newRecordingEnv(t)
	id := e.started(map[string]any{})
	got := e.must(http.StatusOK, "POST", machines+"/"+id+"/exec", map[string]any{"cmd": "echo hi"}).obj(t)
	if got["stdout"] != "hi\n" {
		t.Errorf("cmd: %v", got)
	}
	if errs := rec.recorded(); len(errs) != 1 || !strings.Contains(errs[0], "deprecated cmd") {
		t.Errorf("reported %q, want one violation for cmd", errs)
	}
}
