package fakeapi

import (
	"regexp"
	"testing"
)

func TestUUID(t *testing.T) {
	v4 := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for range 100 {
		id := UUID()
		if !v4.MatchString(id) || seen[id] {
			t.Fatalf("UUID() = %q (seen before: %v)", id, seen[id])
		}
		seen[id] = true
	}
}
