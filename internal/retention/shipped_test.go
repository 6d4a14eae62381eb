package retention

import (
	"fmt"
	"testing"
)

// TestShipped pins the shipped platforms: adding one is a deliberate change
// that brings its rows into the guide and the provider's descriptions.
func TestShipped(t *testing.T) {
	if got := fmt.Sprint(Shipped()); got != "[docker e2b]" {
		t.Errorf("Shipped() = %s, want [docker e2b]", got)
	}
	s := Shipped()
	s[0] = "changed"
	if Shipped()[0] != Docker {
		t.Error("Shipped() returned the package's own slice")
	}
	for _, p := range []string{Docker, E2B} {
		if !IsShipped(p) {
			t.Errorf("IsShipped(%q) = false", p)
		}
	}
	for _, p := range []string{Daytona, Fly, Modal, ""} {
		if IsShipped(p) {
			t.Errorf("IsShipped(%q) = true; it is not built", p)
		}
	}
	for _, p := range Shipped() {
		if docTitles[p] == "" {
			t.Errorf("shipped platform %q has no section title for the guide", p)
		}
	}
}

// TestShippedRules: the rows of shipped platforms, in table order, and every
// one of them; the rows of coming platforms stay in the table.
func TestShippedRules(t *testing.T) {
	got := ShippedRules()
	var want []Rule
	unshipped := 0
	for _, r := range table {
		if r.Platform == Docker || r.Platform == E2B {
			want = append(want, r)
		} else {
			unshipped++
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("ShippedRules() = %v\nwant %v", got, want)
	}
	if unshipped == 0 {
		t.Error("the table lost the rows of the platforms still to come; they are kept as data")
	}
}

// TestUnshippedKeys: the override keys no shipped platform has a row for.
func TestUnshippedKeys(t *testing.T) {
	if got := fmt.Sprint(UnshippedKeys()); got != "[archived_sandbox idle_sandbox unused_snapshot]" {
		t.Errorf("UnshippedKeys() = %s, want [archived_sandbox idle_sandbox unused_snapshot]", got)
	}
	for _, k := range UnshippedKeys() {
		for _, r := range ShippedRules() {
			if r.Key == k {
				t.Errorf("%s is listed as unshipped but %s has a row for it", k, r.Platform)
			}
		}
	}
}
