package modal

import (
	"context"
	"sync"
)

// tagLocks hold one lock per box: Modal's SetTags replaces all of a box's
// tags, so every change is a read, an edit and a write, and two at once (a
// label update and a snapshot's record in one apply) would lose one.
type tagLocks struct {
	mu    sync.Mutex
	boxes map[string]*sync.Mutex
}

func (l *tagLocks) lock(id string) func() {
	l.mu.Lock()
	if l.boxes == nil {
		l.boxes = map[string]*sync.Mutex{}
	}
	box := l.boxes[id]
	if box == nil {
		box = &sync.Mutex{}
		l.boxes[id] = box
	}
	l.mu.Unlock()
	box.Lock()
	return box.Unlock
}

// editTags reads a box's tags, edits them and writes them back, under the
// box's lock. It does not ask whether the box still runs: a memory snapshot
// ends its box, and its record is still worth writing if Modal takes it.
func (p *Platform) editTags(ctx context.Context, id string, edit func(map[string]string) map[string]string) error {
	defer p.tagLocks.lock(id)()
	sb, err := p.client.Sandboxes.FromID(ctx, id, nil)
	if err != nil {
		return notFoundOr(err, "sandbox", id)
	}
	defer release(sb)
	tags, err := sb.GetTags(ctx, nil)
	if err != nil {
		return notFoundOr(err, "sandbox", id)
	}
	if tags == nil {
		tags = map[string]string{}
	}
	if err := sb.SetTags(ctx, edit(tags), nil); err != nil {
		return notFoundOr(err, "sandbox", id)
	}
	return nil
}
