package fakeapi

import (
	"slices"
	"testing"
)

func TestOldest(t *testing.T) {
	type object struct {
		name string
		seq  int64
	}
	cases := []struct {
		name    string
		objects map[string]object
		want    []string
	}{
		{"none", nil, nil},
		{"creation order, not key order", map[string]object{"a": {"third", 3}, "b": {"first", 1}, "c": {"second", 2}}, []string{"first", "second", "third"}},
	}
	for _, tc := range cases {
		var got []string
		for _, o := range Oldest(tc.objects, func(o object) int64 { return o.seq }) {
			got = append(got, o.name)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: Oldest = %q, want %q", tc.name, got, tc.want)
		}
	}
}
