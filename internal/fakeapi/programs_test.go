package fakeapi

import (
	"testing"
	"time"
)

// TestRunProgram: each program the fakes understand, and an unknown one
// left to the fake to answer as its platform does.
func TestRunProgram(t *testing.T) {
	env := map[string]string{"TOKEN": "t0k"}
	for _, tc := range []struct {
		argv  []string
		want  ProgramResult
		found bool
	}{
		{[]string{"echo", "a", "b"}, ProgramResult{Stdout: "a b\n"}, true},
		{[]string{"/usr/bin/printenv", "TOKEN"}, ProgramResult{Stdout: "t0k\n"}, true},
		{[]string{"printenv", "UNSET"}, ProgramResult{Exit: 1}, true},
		{[]string{"/bin/pwd"}, ProgramResult{Stdout: "/work\n"}, true},
		{[]string{"false"}, ProgramResult{Exit: 1}, true},
		{[]string{"seq", "3"}, ProgramResult{Stdout: "1\n2\n3\n"}, true},
		{[]string{"sleep", "1.5"}, ProgramResult{Sleep: 1500 * time.Millisecond}, true},
		{[]string{"sh", "-c", "echo out; echo err >&2; exit 3"}, ProgramResult{Stdout: "out\n", Stderr: "err\n", Exit: 3}, true},
		{[]string{"sh", "-c", "make seed"}, ProgramResult{Stderr: "sh: make: not found\n", Exit: 127}, true},
		{[]string{"/no/such/program"}, ProgramResult{}, false},
	} {
		got, found := RunProgram(tc.argv, env, "/work")
		if got != tc.want || found != tc.found {
			t.Errorf("RunProgram(%q) = %+v, %v; want %+v, %v", tc.argv, got, found, tc.want, tc.found)
		}
	}
}
