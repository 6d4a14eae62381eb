package bench

import (
	"fmt"
	"os"
	"sync"
	"testing"
)

// ProcessTB lets a fake written for tests run in a plain program: errors
// (a spec violation) go to stderr and are counted, a fatal error ends the
// process, cleanups run on Close. Only the methods the fakes call are
// implemented; the embedded nil TB makes any other call panic, loudly.
type ProcessTB struct {
	testing.TB

	mu       sync.Mutex
	errors   int
	cleanups []func()
}

func (*ProcessTB) Helper()      {}
func (*ProcessTB) Name() string { return "bench" }

func (p *ProcessTB) Errorf(format string, args ...any) {
	p.mu.Lock()
	p.errors++
	p.mu.Unlock()
	fmt.Fprintf(os.Stderr, format+"\n", args...)
}

func (p *ProcessTB) Logf(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }

func (p *ProcessTB) Fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(1)
}

func (p *ProcessTB) Cleanup(f func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cleanups = append(p.cleanups, f)
}

// Errors counts the errors reported so far.
func (p *ProcessTB) Errors() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.errors
}

// Close runs the cleanups, last registered first, as testing does.
func (p *ProcessTB) Close() {
	p.mu.Lock()
	fs := p.cleanups
	p.cleanups = nil
	p.mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}
