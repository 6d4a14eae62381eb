package listing

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// TestTwice: an object either list shows is taken once; an error of
// either list is the answer.
func TestTwice(t *testing.T) {
	errList := errors.New("list failed")
	cases := []struct {
		name    string
		answers [][]string
		errAt   int // the call (1 or 2) that fails; 0: none
		want    []string
	}{
		{name: "the first list lags a create", answers: [][]string{{"a"}, {"a", "b"}}, want: []string{"a", "b"}},
		{name: "the second list lags a create", answers: [][]string{{"a", "b"}, {"a"}}, want: []string{"a", "b"}},
		{name: "both show everything", answers: [][]string{{"b", "a"}, {"b", "a"}}, want: []string{"b", "a"}},
		{name: "neither shows anything", answers: [][]string{{}, {}}, want: nil},
		{name: "the first list fails", answers: [][]string{{"a"}, {"a"}}, errAt: 1},
		{name: "the second list fails", answers: [][]string{{"a"}, {"a"}}, errAt: 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			calls := 0
			list := func(context.Context) ([]string, error) {
				calls++
				if calls == c.errAt {
					return nil, errList
				}
				return slices.Clone(c.answers[calls-1]), nil
			}
			got, err := Twice(context.Background(), list, func(s string) string { return s })
			if c.errAt != 0 {
				if !errors.Is(err, errList) {
					t.Fatalf("Twice error = %v, want the list's error", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Twice: %v", err)
			}
			if calls != 2 {
				t.Errorf("listed %d times, want 2", calls)
			}
			if len(got) == 0 && len(c.want) == 0 {
				return
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("Twice = %v, want %v", got, c.want)
			}
		})
	}
}
