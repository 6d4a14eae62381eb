package platform

import (
	"maps"
	"testing"
)

func TestUserLabelsDropsReservedKeys(t *testing.T) {
	all := map[string]string{
		LabelManaged:                 "true",
		LabelName:                    "box",
		LabelPrefix + "anything":     "x",
		"team":                       "infra",
		"sbx.terraform":              "not under the prefix",
		"example.com/sbx.terraform.": "not a prefix match either",
	}
	want := map[string]string{
		"team":                       "infra",
		"sbx.terraform":              "not under the prefix",
		"example.com/sbx.terraform.": "not a prefix match either",
	}
	if got := UserLabels(all); !maps.Equal(got, want) {
		t.Fatalf("UserLabels = %v, want %v", got, want)
	}
	if got := UserLabels(nil); len(got) != 0 {
		t.Fatalf("UserLabels(nil) = %v, want empty", got)
	}
}

func TestMatchLabels(t *testing.T) {
	have := map[string]string{"team": "infra", "env": "ci"}
	tests := []struct {
		name string
		want map[string]string
		ok   bool
	}{
		{"empty filter matches", nil, true},
		{"subset matches", map[string]string{"team": "infra"}, true},
		{"all match", map[string]string{"team": "infra", "env": "ci"}, true},
		{"other value", map[string]string{"team": "web"}, false},
		{"missing key", map[string]string{"owner": "x"}, false},
		{"empty value is not absence", map[string]string{"owner": ""}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MatchLabels(have, tt.want); got != tt.ok {
				t.Fatalf("MatchLabels(%v, %v) = %v, want %v", have, tt.want, got, tt.ok)
			}
		})
	}
}
