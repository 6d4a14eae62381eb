// Command agent is the tiny program the quickstart's sandboxes run. It needs
// no shell or libc, so it runs in an image built FROM scratch, which keeps
// the demo and the tests free of any image registry.
//
//	agent                 run: write AGENT_FILES, append to AGENT_LOG every AGENT_INTERVAL, until signalled
//	agent ready           exit 0 once the files are written (a template's ready_cmd)
//	agent cat PATH        print a file (for docker exec)
//	agent ls DIR          list a directory (for docker exec)
//	agent env NAME        print a variable of the environment (for sbx_sandbox_exec)
//	agent pwd             print the working directory
//	agent exit CODE MSG   print MSG on stderr and exit with CODE
//	agent sleep DURATION  exit 0 after DURATION (a Go duration such as 3s)
//
// AGENT_FILES is a list of path=content pairs separated by ";".
package main

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) > 1 {
		os.Exit(runCommand(os.Args[1], os.Args[2:]))
	}
	if err := writeFiles(os.Getenv("AGENT_FILES")); err != nil {
		fmt.Fprintln(os.Stderr, "agent:", err)
		os.Exit(1)
	}
	// The marker tells "agent ready" (and so the platform's readiness check)
	// that everything the box was asked to write is on disk.
	if err := os.WriteFile(readyMarker, nil, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "agent:", err)
		os.Exit(1)
	}
	interval := 10 * time.Second
	if v := os.Getenv("AGENT_INTERVAL"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			fmt.Fprintln(os.Stderr, "agent: AGENT_INTERVAL:", err)
			os.Exit(1)
		}
		interval = d
	}
	logPath := os.Getenv("AGENT_LOG")

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	fmt.Println("agent: running")
	appendLog(logPath)
	for {
		select {
		case <-stop:
			fmt.Println("agent: stopping")
			return
		case <-tick.C:
			appendLog(logPath)
		}
	}
}

// readyMarker is written once AGENT_FILES are on disk.
const readyMarker = "/.agent-ready"

func runCommand(name string, args []string) int {
	switch name {
	case "ready":
		if _, err := os.Stat(readyMarker); err != nil {
			fmt.Fprintln(os.Stderr, "agent: not ready")
			return 1
		}
		return 0
	case "pwd":
		dir, err := os.Getwd()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println(dir)
		return 0
	case "exit":
		if len(args) != 2 {
			fmt.Fprintln(os.Stderr, "usage: agent exit CODE MESSAGE")
			return 2
		}
		var code int
		if _, err := fmt.Sscanf(args[0], "%d", &code); err != nil {
			fmt.Fprintln(os.Stderr, "agent exit: CODE:", err)
			return 2
		}
		fmt.Fprintln(os.Stderr, args[1])
		return code
	}
	if len(args) != 1 {
		fmt.Fprintf(os.Stderr, "usage: agent %s PATH\n", name)
		return 2
	}
	switch name {
	case "sleep":
		d, err := time.ParseDuration(args[0])
		if err != nil {
			fmt.Fprintln(os.Stderr, "agent sleep: DURATION:", err)
			return 2
		}
		time.Sleep(d)
		return 0
	case "env":
		v, ok := os.LookupEnv(args[0])
		if !ok {
			fmt.Fprintf(os.Stderr, "agent: %s is not set\n", args[0])
			return 1
		}
		fmt.Println(v)
		return 0
	case "cat":
		b, err := os.ReadFile(args[0])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		_, _ = os.Stdout.Write(b)
		return 0
	case "ls":
		entries, err := os.ReadDir(args[0])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		for _, e := range entries {
			fmt.Println(e.Name())
		}
		return 0
	}
	fmt.Fprintf(os.Stderr, "agent: unknown command %q\n", name)
	return 2
}

func writeFiles(spec string) error {
	for _, pair := range strings.Split(spec, ";") {
		if strings.TrimSpace(pair) == "" {
			continue
		}
		path, content, ok := strings.Cut(pair, "=")
		if !ok {
			return fmt.Errorf("AGENT_FILES entry %q is not path=content", pair)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// appendLog adds one "alive" line to the log at path. A failed write is
// reported on stderr and the agent keeps running: the log is a heartbeat,
// and the next tick tries again.
func appendLog(path string) {
	if path == "" {
		return
	}
	if err := writeLogLine(path); err != nil {
		fmt.Fprintln(os.Stderr, "agent:", err)
	}
}

func writeLogLine(path string) error {
	// A failure here shows up as OpenFile's error just below.
	_ = os.MkdirAll(filepath.Dir(path), 0o755)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	host, _ := os.Hostname()
	if _, err := fmt.Fprintf(f, "%s %s alive\n", time.Now().UTC().Format(time.RFC3339), host); err != nil {
		_ = f.Close() // the write error is the one worth reporting
		return err
	}
	// Close reports a write the file system deferred and then failed.
	return f.Close()
}
