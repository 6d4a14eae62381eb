package fakeapi

import "testing"

func TestFirst(t *testing.T) {
	even := func(n int) bool { return n%2 == 0 }
	cases := []struct {
		name  string
		items []int
		want  int
		found bool
	}{
		{"none at all", nil, 0, false},
		{"none matches", []int{1, 3}, 0, false},
		{"the first of several", []int{1, 4, 6}, 4, true},
	}
	for _, tc := range cases {
		if got, found := First(tc.items, even); got != tc.want || found != tc.found {
			t.Errorf("%s: First = %d, %v; want %d, %v", tc.name, got, found, tc.want, tc.found)
		}
	}
}
