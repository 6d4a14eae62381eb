package docker

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// An ssh:// engine address is reached the way the docker command line does
// it: each connection is an `ssh` process running `docker system
// dial-stdio` on the remote host, which joins its stdin and stdout to the
// remote engine's socket. The remote host needs the docker command line;
// this machine needs an ssh client that can log in without a prompt (keys
// or an agent: Terraform cannot answer one).

// sshProgram is the ssh client run for an ssh:// host (tests put a stand-in
// first on PATH).
const sshProgram = "ssh"

// sshTarget is an ssh:// engine address taken apart.
type sshTarget struct {
	user, host, port string
	socket           string // the remote engine's socket path; "" for its default
}

// parseSSHHost reads ssh://[user@]host[:port][/socket/path].
func parseSSHHost(host string) (sshTarget, error) {
	u, err := url.Parse(host)
	if err != nil || u.Scheme != "ssh" {
		return sshTarget{}, fmt.Errorf("is not a valid ssh:// address, e.g. ssh://user@build-host")
	}
	t := sshTarget{host: u.Hostname(), port: u.Port()}
	if u.User != nil {
		if _, hasPassword := u.User.Password(); hasPassword {
			return sshTarget{}, fmt.Errorf("holds a password; ssh:// logs in with keys or an agent, never a password in the address")
		}
		t.user = u.User.Username()
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return sshTarget{}, fmt.Errorf("has a query or fragment; write ssh://user@host[:port][/path/to/docker.sock]")
	}
	if p := strings.TrimRight(u.Path, "/"); p != "" {
		t.socket = p
	}
	if t.host == "" || strings.HasPrefix(t.host, "-") || strings.HasPrefix(t.user, "-") {
		return sshTarget{}, fmt.Errorf("needs a host, e.g. ssh://user@build-host")
	}
	return t, nil
}

// args are the ssh client's arguments: no prompts, no terminal, the
// remote docker command line bridging stdio to the engine.
func (t sshTarget) args() []string {
	args := []string{"-o", "BatchMode=yes", "-T"}
	if t.user != "" {
		args = append(args, "-l", t.user)
	}
	if t.port != "" {
		args = append(args, "-p", t.port)
	}
	args = append(args, "--", t.host, "docker")
	if t.socket != "" {
		args = append(args, "--host", "unix://"+t.socket)
	}
	return append(args, "system", "dial-stdio")
}

// dial starts one ssh process and returns its stdio as a connection. ctx
// bounds the start only; the connection lives until it is closed.
func (t sshTarget) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cmd := exec.Command(sshProgram, t.args()...)
	// Pipes of our own: exec's would be closed by Wait, under a reader.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		_, _ = inR.Close(), inW.Close()
		return nil, err
	}
	c := &sshConn{target: t, cmd: cmd, stdin: inW, stdout: outR, exited: make(chan struct{})}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, &c.stderr
	err = cmd.Start()
	_, _ = inR.Close(), outW.Close() // the child's ends, now the child's alone
	if err != nil {
		_, _ = inW.Close(), outR.Close()
		return nil, fmt.Errorf("running %s for the Docker engine at %s: %w", sshProgram, t, err)
	}
	go func() {
		c.waitErr = cmd.Wait()
		close(c.exited)
	}()
	return c, nil
}

func (t sshTarget) String() string {
	s := "ssh://"
	if t.user != "" {
		s += t.user + "@"
	}
	s += t.host
	if t.port != "" {
		s += ":" + t.port
	}
	return s + t.socket
}

// sshConn is one ssh process's stdin and stdout as a net.Conn.
type sshConn struct {
	target  sshTarget
	cmd     *exec.Cmd
	stdin   *os.File
	stdout  *os.File
	stderr  tailBuffer
	exited  chan struct{}
	waitErr error // set before exited closes
	closed  atomic.Bool
	once    sync.Once
}

func (c *sshConn) Read(p []byte) (int, error) {
	n, err := c.stdout.Read(p)
	if err != nil {
		err = c.explain(err)
	}
	return n, err
}

func (c *sshConn) Write(p []byte) (int, error) {
	n, err := c.stdin.Write(p)
	if err != nil {
		err = c.explain(err)
	}
	return n, err
}

// explain turns the end of the stream into the ssh client's own complaint
// (no route, a refused key, no docker on the remote host) when it failed.
func (c *sshConn) explain(err error) error {
	if c.closed.Load() {
		return err
	}
	select {
	case <-c.exited:
	case <-time.After(2 * time.Second):
		return err
	}
	if c.waitErr == nil {
		return err
	}
	msg := strings.TrimSpace(c.stderr.String())
	if msg == "" {
		msg = c.waitErr.Error()
	}
	return fmt.Errorf("ssh to %s: %s", c.target, msg)
}

// Close ends the ssh process.
func (c *sshConn) Close() error {
	c.once.Do(func() {
		c.closed.Store(true)
		_ = c.stdin.Close() // the remote side sees the end of input
		select {
		case <-c.exited:
		case <-time.After(time.Second):
			_ = c.cmd.Process.Kill() // it did not leave on its own
			<-c.exited
		}
		_ = c.stdout.Close() // nothing more to read
	})
	return nil
}

func (c *sshConn) LocalAddr() net.Addr  { return sshAddr{"local"} }
func (c *sshConn) RemoteAddr() net.Addr { return sshAddr{c.target.String()} }

// SetDeadline sets the pipes' deadlines.
func (c *sshConn) SetDeadline(t time.Time) error {
	return errors.Join(c.SetReadDeadline(t), c.SetWriteDeadline(t))
}

// SetReadDeadline sets the deadline of the ssh client's stdout.
func (c *sshConn) SetReadDeadline(t time.Time) error { return c.stdout.SetReadDeadline(t) }

// SetWriteDeadline sets the deadline of the ssh client's stdin.
func (c *sshConn) SetWriteDeadline(t time.Time) error { return c.stdin.SetWriteDeadline(t) }

type sshAddr struct{ s string }

func (a sshAddr) Network() string { return "ssh" }
func (a sshAddr) String() string  { return a.s }

// tailBuffer keeps the last 4 KiB written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - 4<<10; over > 0 {
		b.buf = b.buf[over:]
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
