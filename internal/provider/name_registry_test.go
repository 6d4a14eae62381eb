package provider

import (
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The plans Terraform makes in one run, in order, and which of them the
// registry must call a clash.
func TestNameRegistryClaim(t *testing.T) {
	cfgA := tftypes.NewValue(tftypes.String, "a")
	cfgB := tftypes.NewValue(tftypes.String, "b")
	type plan struct {
		kind, name, prior string
		config            tftypes.Value
		clash             bool
	}
	for _, tc := range []struct {
		desc  string
		plans []plan
	}{
		{"two creates of one name", []plan{
			{"volume", "v", "", cfgA, false},
			{"volume", "v", "", cfgB, true},
		}},
		{"two identical blocks creating one name", []plan{
			{"volume", "v", "", cfgA, false},
			{"volume", "v", "", cfgA, true},
		}},
		{"a replacement: prior plan, then the create plan of the same configuration", []plan{
			{"volume", "v", "v", cfgA, false},
			{"volume", "v", "", cfgA, false},
		}},
		{"a replacement and another resource creating the name", []plan{
			{"volume", "v", "v", cfgA, false},
			{"volume", "v", "", cfgA, false},
			{"volume", "v", "", cfgB, true},
		}},
		{"a create of a name an existing resource holds", []plan{
			{"sandbox", "box", "c1", cfgA, false},
			{"sandbox", "box", "", cfgB, true},
		}},
		{"two resources in state holding one name", []plan{
			{"volume", "v", "v", cfgA, false},
			{"volume", "v", "v", cfgB, true},
		}},
		{"one name, different kinds", []plan{
			{"volume", "x", "", cfgA, false},
			{"sandbox", "x", "", cfgA, false},
		}},
		{"different names", []plan{
			{"volume", "x", "", cfgA, false},
			{"volume", "y", "", cfgA, false},
		}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := newNameRegistry()
			for i, p := range tc.plans {
				if got := r.claim(p.kind, p.name, p.prior, p.config); got != p.clash {
					t.Errorf("plan %d (%+v): clash = %v, want %v", i, p, got, p.clash)
				}
			}
		})
	}
}

// Terraform plans resources in parallel: of many instances claiming one
// name at once, exactly one goes through.
func TestNameRegistryConcurrentClaims(t *testing.T) {
	r := newNameRegistry()
	var wg sync.WaitGroup
	clashes := make(chan bool, 50)
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			clashes <- r.claim("volume", "v", "", tftypes.NewValue(tftypes.Number, i))
		}()
	}
	wg.Wait()
	close(clashes)
	ok := 0
	for c := range clashes {
		if !c {
			ok++
		}
	}
	if ok != 1 {
		t.Errorf("%d of 50 claims went through, want 1", ok)
	}
}
