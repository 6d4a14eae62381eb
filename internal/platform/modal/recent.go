package modal

import (
	"context"
	"sort"
	"sync"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// recentBoxes are the boxes this provider process made (created, restored,
// or found after a lost answer). Modal's list may leave out a box made a
// moment ago, while a read by id never does, so List reads these by id
// when the list lacks them: an apply sees the boxes it made itself, as a
// snapshot's Get must to find its record in the box's tags.
type recentBoxes struct {
	mu  sync.Mutex
	ids map[string]struct{}
}

// add remembers a box this process made.
func (r *recentBoxes) add(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ids == nil {
		r.ids = map[string]struct{}{}
	}
	r.ids[id] = struct{}{}
}

// drop forgets a box that has finished.
func (r *recentBoxes) drop(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.ids, id)
}

// missing are the remembered boxes not in listed, sorted for a stable order.
func (r *recentBoxes) missing(listed map[string]bool) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for id := range r.ids {
		if !listed[id] {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

// withRecent adds to a list's boxes the remembered ones it left out that
// run and carry the labels wanted; a remembered box that has finished is
// forgotten.
func (s *sandboxes) withRecent(ctx context.Context, out []platform.Sandbox, want map[string]string) ([]platform.Sandbox, error) {
	listed := make(map[string]bool, len(out))
	for _, sb := range out {
		listed[sb.ID] = true
	}
	for _, id := range s.p.recent.missing(listed) {
		sb, err := s.Get(ctx, id)
		if platform.IsNotFound(err) {
			s.p.recent.drop(id)
			continue
		}
		if err != nil {
			return nil, err
		}
		if platform.MatchLabels(sb.Labels, want) {
			sb.Managed = sb.Labels[platform.LabelManaged] == "true"
			out = append(out, *sb)
		}
	}
	return out, nil
}
