package orphans

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

var findNow = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func owned(kind, id, owner string, age time.Duration, usedBy ...string) platform.ManagedObject {
	return platform.ManagedObject{Kind: kind, ID: id, Owner: owner, CreatedAt: findNow.Add(-age), UsedBy: usedBy}
}

func ids(objs []platform.ManagedObject) []string {
	out := []string{}
	for _, o := range objs {
		out = append(out, o.ID)
	}
	return out
}

func keptIDs(kept []Kept) []string {
	out := []string{}
	for _, k := range kept {
		out = append(out, k.Object.ID)
	}
	return out
}

func heldOf(t *testing.T, idList ...string) *Held {
	t.Helper()
	h := NewHeld()
	var b strings.Builder
	b.WriteString(`{"version":4,"resources":[{"mode":"managed","type":"sbx_sandbox","name":"x","instances":[`)
	for i, id := range idList {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"index_key":` + strconv.Itoa(i) + `,"attributes":{"id":"` + id + `"}}`)
	}
	b.WriteString(`]}]}`)
	if err := h.Read(strings.NewReader(b.String()), "test"); err != nil {
		t.Fatal(err)
	}
	return h
}

// TestFindOwnerScope: with an owner, only that owner's objects are judged
// (an object without an owner is no owner's); without one, every object;
// --owner= judges the objects that have none; --owner-prefix the objects
// of every owner starting with it.
func TestFindOwnerScope(t *testing.T) {
	objs := []platform.ManagedObject{
		owned(platform.KindSandbox, "a1", "a", time.Hour),
		owned(platform.KindSandbox, "a2", "a", time.Hour),
		owned(platform.KindSandbox, "b1", "b", time.Hour),
		owned(platform.KindSandbox, "n1", "", time.Hour),
		owned(platform.KindSandbox, "l1", "sbx-live-1", time.Hour),
		owned(platform.KindSandbox, "l2", "sbx-live-2", time.Hour),
	}
	held := heldOf(t, "a1", "b1", "l2")
	cases := []struct {
		name                        string
		scope                       Scope
		want                        []string
		checked, heldN, otherOwners int
	}{
		{"owner a", Scope{Owner: "a", Now: findNow}, []string{"a2"}, 2, 1, 4},
		{"owner b", Scope{Owner: "b", Now: findNow}, []string{}, 1, 1, 5},
		{"no owner label", Scope{Owner: "", Now: findNow}, []string{"n1"}, 1, 0, 5},
		{"every owner", Scope{AnyOwner: true, Now: findNow}, []string{"a2", "l1", "n1"}, 6, 3, 0},
		{"an owner nobody has", Scope{Owner: "c", Now: findNow}, []string{}, 0, 0, 6},
		// A prefix judges every owner starting with it, and only those.
		{"owner prefix", Scope{OwnerPrefix: "sbx-live-", Now: findNow}, []string{"l1"}, 2, 1, 4},
		{"owner prefix of one owner", Scope{OwnerPrefix: "a", Now: findNow}, []string{"a2"}, 2, 1, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := Find(objs, held, c.scope)
			if got := ids(res.Orphans); !reflect.DeepEqual(got, c.want) {
				t.Errorf("orphans = %v, want %v", got, c.want)
			}
			if res.Checked != c.checked || res.Held != c.heldN || res.OtherOwners != c.otherOwners {
				t.Errorf("checked %d held %d other owners %d, want %d %d %d", res.Checked, res.Held, res.OtherOwners, c.checked, c.heldN, c.otherOwners)
			}
		})
	}
}

// TestFindHeldByAlias: a state holding an object under another reference
// (a template by its image id, a sandbox by its name) holds it.
func TestFindHeldByAlias(t *testing.T) {
	objs := []platform.ManagedObject{
		{Kind: platform.KindTemplate, ID: "sbx/t:latest", Aliases: []string{"sha256:abc"}},
		{Kind: platform.KindSandbox, ID: "c1", Aliases: []string{"box-1"}},
		{Kind: platform.KindSandbox, ID: "c2", Aliases: []string{"box-2"}},
	}
	res := Find(objs, heldOf(t, "sha256:abc", "box-1"), Scope{AnyOwner: true, Now: findNow})
	if got := ids(res.Orphans); !reflect.DeepEqual(got, []string{"c2"}) {
		t.Errorf("orphans = %v, want [c2]", got)
	}
}

// TestFindInUse: an object no state holds stays out of the orphans while
// something that stays uses it (a held sandbox, another owner's, an image
// that is not the provider's), and that carries over to what it uses; an
// object used only by orphans is an orphan.
func TestFindInUse(t *testing.T) {
	objs := []platform.ManagedObject{
		// template t1 is used by orphan sandbox s1 only: all orphans.
		owned(platform.KindTemplate, "t1", "a", time.Hour, "s1"),
		owned(platform.KindSandbox, "s1", "a", time.Hour),
		// template t2 is used by a held sandbox.
		owned(platform.KindTemplate, "t2", "a", time.Hour, "s-held"),
		owned(platform.KindSandbox, "s-held", "a", time.Hour),
		// template t3 is used by another owner's sandbox.
		owned(platform.KindTemplate, "t3", "a", time.Hour, "s-b"),
		owned(platform.KindSandbox, "s-b", "b", time.Hour),
		// snapshot p1 has a child snapshot p2 that a held sandbox runs: both kept.
		owned(platform.KindSnapshot, "p1", "a", 2*time.Hour, "p2"),
		owned(platform.KindSnapshot, "p2", "a", time.Hour, "s-held"),
		// volume v1 is mounted by a container that is not the provider's.
		owned(platform.KindVolume, "v1", "a", time.Hour, "foreign"),
		// volume v2 is mounted by orphan sandbox s1.
		owned(platform.KindVolume, "v2", "a", time.Hour, "s1"),
	}
	res := Find(objs, heldOf(t, "s-held"), Scope{Owner: "a", Now: findNow})
	if got, want := ids(res.Orphans), []string{"s1", "v2", "t1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("orphans = %v, want %v", got, want)
	}
	if got, want := keptIDs(res.Kept), []string{"p2", "p1", "v1", "t2", "t3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("kept = %v, want %v", got, want)
	}
	for _, k := range res.Kept {
		if !strings.HasPrefix(k.Reason, "in use by ") {
			t.Errorf("%s kept for %q", k.Object.ID, k.Reason)
		}
	}
}

// TestFindOlderThan: objects younger than --older-than are kept (an apply
// may be about to record them); objects of unknown age are judged.
func TestFindOlderThan(t *testing.T) {
	objs := []platform.ManagedObject{
		owned(platform.KindSandbox, "young", "a", 10*time.Minute),
		owned(platform.KindSandbox, "old", "a", 2*time.Hour),
		{Kind: platform.KindSandbox, ID: "ageless", Owner: "a"},
	}
	res := Find(objs, NewHeld(), Scope{Owner: "a", OlderThan: time.Hour, Now: findNow})
	if got, want := ids(res.Orphans), []string{"old", "ageless"}; !reflect.DeepEqual(got, want) {
		t.Errorf("orphans = %v, want %v", got, want)
	}
	if len(res.Kept) != 1 || res.Kept[0].Object.ID != "young" || !strings.Contains(res.Kept[0].Reason, "--older-than 1h0m0s") {
		t.Errorf("kept = %+v", res.Kept)
	}
}

// TestFindRemovalOrder: sandboxes, then snapshots, then volumes, then
// templates; within a kind the newest first, so a snapshot built on
// another is removed before it.
func TestFindRemovalOrder(t *testing.T) {
	objs := []platform.ManagedObject{
		owned(platform.KindTemplate, "t", "a", time.Hour),
		owned(platform.KindVolume, "v", "a", time.Hour),
		owned(platform.KindSnapshot, "parent", "a", 3*time.Hour, "child"),
		owned(platform.KindSnapshot, "child", "a", 2*time.Hour),
		owned(platform.KindSandbox, "s-old", "a", 5*time.Hour),
		owned(platform.KindSandbox, "s-new", "a", time.Minute),
	}
	res := Find(objs, NewHeld(), Scope{Owner: "a", Now: findNow})
	if got, want := ids(res.Orphans), []string{"s-new", "s-old", "child", "parent", "v", "t"}; !reflect.DeepEqual(got, want) {
		t.Errorf("orphans = %v, want %v", got, want)
	}
}
