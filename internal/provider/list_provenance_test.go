package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

func TestListProvenanceFilterMatches(t *testing.T) {
	byHand := platform.Marks{}
	teamA := platform.Marks{Owner: "team-a", CreateToken: "t1"}
	noOwner := platform.Marks{CreateToken: "t2"}
	tests := []struct {
		name    string
		filter  listProvenanceFilter
		managed bool
		made    platform.Marks
		want    bool
	}{
		{"no filter, by hand", listProvenanceFilter{}, false, byHand, true},
		{"no filter, the provider's", listProvenanceFilter{}, true, teamA, true},
		{"made_by_provider, by hand", listProvenanceFilter{MadeByProvider: types.BoolValue(true)}, false, byHand, false},
		{"made_by_provider, the provider's", listProvenanceFilter{MadeByProvider: types.BoolValue(true)}, true, teamA, true},
		{"made_by_provider, managed label without a token (older create)", listProvenanceFilter{MadeByProvider: types.BoolValue(true)}, true, byHand, true},
		{"not made_by_provider, by hand", listProvenanceFilter{MadeByProvider: types.BoolValue(false)}, false, byHand, true},
		{"not made_by_provider, the provider's", listProvenanceFilter{MadeByProvider: types.BoolValue(false)}, true, teamA, false},
		{"owner, its owner's", listProvenanceFilter{Owner: types.StringValue("team-a")}, true, teamA, true},
		{"owner, another owner's", listProvenanceFilter{Owner: types.StringValue("team-b")}, true, teamA, false},
		{"owner empty, the provider's without owner", listProvenanceFilter{Owner: types.StringValue("")}, true, noOwner, true},
		{"owner empty, by hand", listProvenanceFilter{Owner: types.StringValue("")}, false, byHand, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.filter.matches(tt.managed, tt.made); got != tt.want {
				t.Errorf("matches(%v, %+v) = %v, want %v", tt.managed, tt.made, got, tt.want)
			}
		})
	}
}
