package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/provider"
)

// TestWatchParent: the provider notices its parent's end at the first
// tick after it, and only then; a cancelled watch ends without a word.
func TestWatchParent(t *testing.T) {
	const terraform = 4242
	tests := []struct {
		name string
		// ppids are what getppid answers at successive ticks.
		ppids    []int
		wantGone bool
		// wantChecks is how many ticks the watch took before it returned
		// (or before the test cancelled it, when it did not).
		wantChecks int
	}{
		{name: "parent runs", ppids: []int{terraform, terraform, terraform}, wantGone: false, wantChecks: 3},
		{name: "parent killed, adopted by init", ppids: []int{terraform, terraform, 1}, wantGone: true, wantChecks: 3},
		{name: "parent killed, adopted by a subreaper", ppids: []int{977}, wantGone: true, wantChecks: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ticks := make(chan time.Time)
			checks := 0
			getppid := func() int {
				p := tt.ppids[checks]
				checks++
				return p
			}
			gone := 0
			done := make(chan struct{})
			go func() {
				watchParent(ctx, terraform, getppid, ticks, func() { gone++ })
				close(done)
			}()
			for range tt.ppids {
				select {
				case ticks <- time.Time{}:
				case <-done:
				}
			}
			cancel()
			<-done
			if (gone == 1) != tt.wantGone || gone > 1 {
				t.Errorf("gone called %d times, want it called: %v", gone, tt.wantGone)
			}
			if checks != tt.wantChecks {
				t.Errorf("the watch checked the parent %d times, want %d", checks, tt.wantChecks)
			}
		})
	}
}

// TestApplyGateServesEveryRPC: the gate keeps every optional RPC interface
// of the framework's server (list resources, actions, state stores), so
// Terraform still finds them.
func TestApplyGateServesEveryRPC(t *testing.T) {
	if _, err := newApplyGate(providerserver.NewProtocol6(provider.New("test")())()); err != nil {
		t.Fatal(err)
	}
}

// TestApplyGateDrainWaitsForApplies: once drain has begun no apply may
// start, and drain returns only once the apply in flight has ended.
func TestApplyGateDrainWaitsForApplies(t *testing.T) {
	inside, release := make(chan struct{}), make(chan struct{})
	g := &applyGate{frameworkServer: blockingApply{inside: inside, release: release}}
	go func() { _, _ = g.ApplyResourceChange(context.Background(), &tfprotov6.ApplyResourceChangeRequest{}) }()
	<-inside
	drained := make(chan struct{})
	go func() { g.drain(); close(drained) }()
	// drain has begun once a new apply could not start: it is then
	// waiting for the one in flight, which waits for release.
	began := clock.Eventually(func() bool {
		if g.inFlight.TryRLock() {
			g.inFlight.RUnlock()
			return false
		}
		return true
	})
	if !began {
		t.Fatal("drain never began holding new applies back")
	}
	select {
	case <-drained:
		t.Fatal("drain returned while an apply was in flight")
	default:
	}
	close(release)
	<-drained
}

// blockingApply is a server whose apply waits for release.
type blockingApply struct {
	frameworkServer
	inside, release chan struct{}
}

func (b blockingApply) ApplyResourceChange(context.Context, *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	close(b.inside)
	<-b.release
	return &tfprotov6.ApplyResourceChangeResponse{}, nil
}

// TestServedProviderEndsWithItsTerraform: a served provider whose parent
// is killed (as a killed terraform leaves its providers) exits by itself.
// The parent here is a shell that starts the provider, as terraform would,
// with go-plugin's handshake in its environment.
func TestServedProviderEndsWithItsTerraform(t *testing.T) {
	parent := exec.Command("sh", "-c", `"$0" & echo "pid $!"; exec sleep 600`, os.Args[0])
	parent.Env = append(os.Environ(), "SBX_MAIN_TEST_RUN_MAIN=1",
		"TF_PLUGIN_MAGIC_COOKIE=d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
		"PLUGIN_PROTOCOL_VERSIONS=6")
	stdout, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = parent.Process.Kill(); _ = parent.Wait() })
	lines := bufio.NewScanner(stdout)
	pid, serving := 0, false
	for (pid == 0 || !serving) && lines.Scan() {
		line := lines.Text()
		if p, ok := strings.CutPrefix(line, "pid "); ok {
			pid, _ = strconv.Atoi(p)
		}
		// go-plugin's handshake line: CORE-PROTOCOL|APP-PROTOCOL|NETWORK|ADDR|PROTOCOL
		serving = serving || strings.HasPrefix(line, "1|6|")
	}
	if pid == 0 || !serving {
		t.Fatalf("the provider did not start serving (pid %d, handshake seen: %v)", pid, serving)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })

	if err := parent.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = parent.Wait()
	// The provider notices at its next check (parentCheckInterval) and
	// exits; clock.Patience is far beyond that on a slow machine.
	if !clock.Eventually(func() bool { return !alive(pid) }) {
		t.Fatalf("the provider (pid %d) still ran %s after its parent was killed", pid, clock.Patience)
	}
}

// alive says process pid runs (a zombie, ended but not yet reaped by its
// new parent, does not).
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(stat)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(fields) > 0 && fields[0] != "Z"
}
