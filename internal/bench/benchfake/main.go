// Command benchfake serves the strict E2B fake behind a front that answers
// every request -latency late and counts them (bench.Delayed), for
// `make bench-scale`. It prints the front's URL on stdout once it listens,
// then serves until killed; spec violations go to stderr and make it exit 1
// when it is stopped.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/bench"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

func main() {
	latency := flag.Duration("latency", 50*time.Millisecond, "added to every answer")
	addr := flag.String("listen", "127.0.0.1:0", "address of the delayed front")
	key := flag.String("api-key", "bench-key", "the only X-API-Key the fake accepts")
	flag.Parse()
	os.Exit(run(*addr, *key, *latency))
}

func run(addr, key string, latency time.Duration) int {
	tb := &bench.ProcessTB{}
	defer tb.Close()
	fake := e2bfake.New(tb, e2bfake.Options{APIKey: key, MaxTimeoutSeconds: 86400})
	target, err := url.Parse(fake.URL())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	srv := &http.Server{Handler: bench.NewDelayed(target, latency), ReadHeaderTimeout: 10 * time.Second}
	fmt.Printf("http://%s\n", ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if n := tb.Errors(); n > 0 {
		fmt.Fprintf(os.Stderr, "benchfake: %d spec violations\n", n)
		return 1
	}
	return 0
}
