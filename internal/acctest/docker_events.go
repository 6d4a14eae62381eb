package acctest

import (
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/events"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/client"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
)

// DockerEvents is a watch of what the Docker engine reports about one
// container, from a mark on: what a test did after WatchDockerEvents
// returned comes through Next, in the engine's order.
type DockerEvents struct {
	t    testing.TB
	id   string
	msgs <-chan events.Message
	errs <-chan error
}

// WatchDockerEvents watches the engine's events about running container
// id until the test ends, and returns once the watch has passed a mark: an
// exec created in the container for the purpose, never started.
//
// The engine registers a watch some time after the request, and sends a
// live watch only what happens after that. So the watch asks for the
// events since the container was made too: the engine replays those it
// still keeps (its latest few hundred, of all containers), and holds the replay and
// the live stream under one lock, so that nothing falls between them. The
// mark thus comes through whether the engine registers the watch before it
// or after it, however slow the machine, and the test never guesses how
// long a registration takes; what comes before the mark is skipped.
func WatchDockerEvents(t testing.TB, api *client.Client, id string) *DockerEvents {
	t.Helper()
	ctx := t.Context()
	c, err := api.ContainerInspect(ctx, id)
	if err != nil {
		t.Fatalf("watching the events of container %s: %v", id, err)
	}
	msgs, errs := api.Events(ctx, events.ListOptions{
		Since:   c.Created,
		Filters: filters.NewArgs(filters.Arg("container", id)),
	})
	w := &DockerEvents{t: t, id: id, msgs: msgs, errs: errs}
	mark, err := api.ContainerExecCreate(ctx, id, container.ExecOptions{Cmd: []string{"true"}})
	if err != nil {
		t.Fatalf("marking the events of container %s: %v", id, err)
	}
	for {
		if m := w.Next(); m.Actor.Attributes["execID"] == mark.ID {
			return w
		}
	}
}

// Next returns the engine's next event about the container. The engine
// reports an event as it happens; the test fails if none comes within
// clock.Patience, which only an engine that has stopped, or an event that
// never happens, takes.
func (w *DockerEvents) Next() events.Message {
	w.t.Helper()
	giveUp := time.NewTimer(clock.Patience)
	defer giveUp.Stop()
	select {
	case m := <-w.msgs:
		return m
	case err := <-w.errs:
		w.t.Fatalf("the engine's events about container %s: %v", w.id, err)
	case <-giveUp.C:
		w.t.Fatalf("no event about container %s from the engine in %s", w.id, clock.Patience)
	}
	return events.Message{} // not reached: Fatalf ends the test
}
