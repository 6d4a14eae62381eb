package orphans

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// laggingInventory answers each list with the next of lists: a platform
// whose list leaves out an object made a moment ago.
type laggingInventory struct {
	lists [][]platform.ManagedObject
	calls int
	err   error
}

func (l *laggingInventory) ListManaged(context.Context) (*platform.ManagedObjects, error) {
	if l.err != nil {
		return nil, l.err
	}
	objs := l.lists[min(l.calls, len(l.lists)-1)]
	l.calls++
	return &platform.ManagedObjects{Objects: slices.Clone(objs)}, nil
}

func (l *laggingInventory) RemoveManaged(context.Context, platform.ManagedObject) error { return nil }

func TestListTwice(t *testing.T) {
	a := platform.ManagedObject{Kind: platform.KindSandbox, ID: "a"}
	b := platform.ManagedObject{Kind: platform.KindSandbox, ID: "b"}
	vb := platform.ManagedObject{Kind: platform.KindVolume, ID: "b"}
	for _, c := range []struct {
		name  string
		lists [][]platform.ManagedObject
		want  []string
	}{
		{"the first list lags", [][]platform.ManagedObject{{a}, {a, b}}, []string{"sandbox a", "sandbox b"}},
		{"the second list lags", [][]platform.ManagedObject{{a, b}, {a}}, []string{"sandbox a", "sandbox b"}},
		{"one id, two kinds", [][]platform.ManagedObject{{b}, {vb}}, []string{"sandbox b", "volume b"}},
		{"nothing", [][]platform.ManagedObject{{}, {}}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			inv := &laggingInventory{lists: c.lists}
			got, err := listTwice(context.Background(), inv)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, o := range got.Objects {
				names = append(names, o.Kind+" "+o.ID)
			}
			slices.Sort(names)
			if !slices.Equal(names, c.want) || inv.calls != 2 {
				t.Errorf("listTwice = %v after %d lists; want %v after 2", names, inv.calls, c.want)
			}
		})
	}
	t.Run("an error", func(t *testing.T) {
		if _, err := listTwice(context.Background(), &laggingInventory{err: errors.New("boom")}); err == nil {
			t.Fatal("listTwice hid the list's error")
		}
	})
}
