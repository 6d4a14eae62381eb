package orphans

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Scope says which objects are judged.
type Scope struct {
	// Owner is the owner mark an object must carry; ignored when AnyOwner.
	// "" selects the objects that carry no owner.
	Owner string
	// AnyOwner judges every object the provider made, whatever its owner.
	AnyOwner bool
	// OwnerPrefix, when set, judges the objects whose owner starts with
	// it instead of one Owner: the owners a family of runs made up, such
	// as the live acceptance tests' (one owner per test, one prefix).
	OwnerPrefix string
	// OlderThan keeps objects made less than this long before Now out of
	// the orphans: an apply running now may be about to record them.
	OlderThan time.Duration
	Now       time.Time
}

func (s Scope) owns(o platform.ManagedObject) bool {
	switch {
	case s.AnyOwner:
		return true
	case s.OwnerPrefix != "":
		return strings.HasPrefix(o.Owner, s.OwnerPrefix)
	}
	return o.Owner == s.Owner
}

// Kept is an object no state holds that is still not an orphan.
type Kept struct {
	Object platform.ManagedObject
	Reason string
}

// Result is the judgement of an inventory against the states.
type Result struct {
	// Orphans are the objects of the scope no state holds, in the order
	// they can be removed: sandboxes, snapshots, volumes, templates, and
	// within a kind the newest first (a snapshot built on another goes
	// before it).
	Orphans []platform.ManagedObject
	// Kept are objects of the scope no state holds that are in use by
	// something that stays, or younger than OlderThan.
	Kept []Kept
	// Checked counts the objects of the scope; Held those a state holds;
	// OtherOwners the provider's objects outside the scope.
	Checked, Held, OtherOwners int
}

// Find judges every object of the inventory in scope: held by a state,
// kept, or an orphan. An object no state holds stays out of the orphans
// while anything outside them uses it (a sandbox in a state, another
// owner's, a container or image that is not the provider's): removing it
// would fail, or take something from under a state.
func Find(objs []platform.ManagedObject, held *Held, scope Scope) Result {
	var res Result
	var candidates []platform.ManagedObject
	for _, o := range objs {
		if !scope.owns(o) {
			res.OtherOwners++
			continue
		}
		res.Checked++
		switch {
		case held.Holds(o):
			res.Held++
		case scope.OlderThan > 0 && !o.CreatedAt.IsZero() && scope.Now.Sub(o.CreatedAt) < scope.OlderThan:
			res.Kept = append(res.Kept, Kept{Object: o, Reason: fmt.Sprintf("made %s ago, less than --older-than %s",
				scope.Now.Sub(o.CreatedAt).Round(time.Second), scope.OlderThan)})
		default:
			candidates = append(candidates, o)
		}
	}

	// An object used by anything that is not itself an orphan is kept;
	// keeping one may keep what it uses, so repeat until nothing changes.
	names := func(o platform.ManagedObject) []string { return append([]string{o.ID}, o.Aliases...) }
	orphan := map[string]bool{}
	for _, o := range candidates {
		for _, n := range names(o) {
			orphan[n] = true
		}
	}
	kept := make([]bool, len(candidates))
	for changed := true; changed; {
		changed = false
		for i, o := range candidates {
			if kept[i] {
				continue
			}
			var users []string
			for _, u := range o.UsedBy {
				if !orphan[u] {
					users = append(users, shortID(u))
				}
			}
			if len(users) == 0 {
				continue
			}
			kept[i], changed = true, true
			for _, n := range names(o) {
				delete(orphan, n)
			}
			res.Kept = append(res.Kept, Kept{Object: o, Reason: "in use by " + strings.Join(users, ", ") + ", which stays"})
		}
	}
	for i, o := range candidates {
		if !kept[i] {
			res.Orphans = append(res.Orphans, o)
		}
	}
	sortForRemoval(res.Orphans)
	sort.SliceStable(res.Kept, func(i, j int) bool { return less(res.Kept[i].Object, res.Kept[j].Object) })
	return res
}

// removalRank orders kinds so nothing is removed before what uses it.
var removalRank = map[string]int{platform.KindSandbox: 0, platform.KindSnapshot: 1, platform.KindVolume: 2, platform.KindTemplate: 3}

func sortForRemoval(objs []platform.ManagedObject) {
	sort.SliceStable(objs, func(i, j int) bool { return less(objs[i], objs[j]) })
}

func less(a, b platform.ManagedObject) bool {
	if ra, rb := removalRank[a.Kind], removalRank[b.Kind]; ra != rb {
		return ra < rb
	}
	if !a.CreatedAt.Equal(b.CreatedAt) {
		return a.CreatedAt.After(b.CreatedAt)
	}
	return a.ID < b.ID
}

// shortID shortens a Docker container or image id to the 12 characters
// the docker CLI shows and accepts; other ids are kept whole.
func shortID(id string) string {
	hex := strings.TrimPrefix(id, "sha256:")
	if len(hex) == 64 && strings.Trim(hex, "0123456789abcdef") == "" {
		return hex[:12]
	}
	return id
}
