package platformtest

import (
	"context"
	"slices"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// CheckAnyMaker checks a platform's SandboxService.List against a box the
// provider made (own, with marks) and one another client made (foreign),
// both matching filter: without AnyMaker only the provider's box is
// listed (the sbx_sandboxes data source and the orphans command rely on
// it); with it both are, each saying whether the provider made it.
func CheckAnyMaker(t *testing.T, boxes platform.SandboxService, filter platform.SandboxFilter, own platform.Marks, ownID, foreignID string) {
	t.Helper()
	ctx := context.Background()
	for _, anyMaker := range []bool{false, true} {
		filter.AnyMaker = anyMaker
		got, err := boxes.List(ctx, filter)
		if err != nil {
			t.Fatalf("List(AnyMaker %v): %v", anyMaker, err)
		}
		want := []string{ownID}
		if anyMaker {
			want = append(want, foreignID)
		}
		var ids []string
		for _, sb := range got {
			ids = append(ids, sb.ID)
			mine := sb.ID == ownID
			if sb.Managed != mine || (sb.MadeWith == own) != mine {
				t.Errorf("List(AnyMaker %v): box %s says Managed %v, made with %+v; want the provider's marks %v",
					anyMaker, sb.ID, sb.Managed, sb.MadeWith, mine)
			}
		}
		slices.Sort(ids)
		slices.Sort(want)
		if !slices.Equal(ids, want) {
			t.Errorf("List(AnyMaker %v) = %v, want %v", anyMaker, ids, want)
		}
	}
}
