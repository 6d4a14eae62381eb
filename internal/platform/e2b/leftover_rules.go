package e2b

import (
	"context"
	"fmt"
	"strings"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// sandboxRules are E2B's plan-time rules of a box (Extensions.SandboxRules):
// the network block and auto_resume (networkRules), and boxes left by an
// interrupted apply (leftoverProblems).
type sandboxRules struct{ p *Platform }

// CheckSandbox implements platform.SandboxRules.
func (r sandboxRules) CheckSandbox(ctx context.Context, plan platform.SandboxPlan) []platform.Problem {
	return append(networkRules{}.CheckSandbox(ctx, plan), r.leftoverProblems(ctx, plan)...)
}

// leftoverProblems finds, when a named box of an owner is created (not
// replaced), the boxes the provider already made for that owner under that
// name. E2B names are only metadata, so nothing stops a second box of the
// name; but one of the owner's that no plan replaces is either left by an
// apply that was killed before it saved it (its create token died with
// it) or held by another of the owner's states: a create beside it would
// leave it unseen. The plan fails naming it and how to import it. A
// replacement (create_before_destroy) is not a create here, so its old box
// is never in the way, nor is a box the run read from a state (a tainted
// box is planned again as a create while it still exists); boxes of no
// owner are left alone, as E2B shares names.
func (r sandboxRules) leftoverProblems(ctx context.Context, plan platform.SandboxPlan) []platform.Problem {
	spec := plan.Spec
	if !plan.Creating || spec.Name == "" || spec.Marks.Owner == "" || r.p == nil {
		return nil
	}
	found, err := (&sandboxes{p: r.p}).List(ctx, platform.SandboxFilter{Labels: map[string]string{
		platform.LabelOwner: spec.Marks.Owner, platform.LabelName: spec.Name}})
	if err != nil || len(found) == 0 {
		return nil // judged again by nothing worse than E2B's own create
	}
	var ids, tokens []string
	for _, sb := range found {
		// A box the run read from the state is a configuration's (a
		// tainted box planned again as a create, or another resource's).
		if plan.InState != nil && plan.InState(sb.ID) {
			continue
		}
		ids = append(ids, sb.ID)
		tokens = append(tokens, sb.Labels[platform.LabelCreateToken])
	}
	if len(ids) == 0 {
		return nil
	}
	return []platform.Problem{{Attribute: "name", Index: -1, Summary: "A sandbox of this name and owner already exists",
		Detail: fmt.Sprintf("E2B already runs sandbox %s, made by the provider for owner %q under name = %q (create token %s), "+
			"and no plan replaces it. If no state holds it, an apply was interrupted before saving it: import it with "+
			"terraform import <this resource's address> %s, or remove it with terraform-provider-sbx orphans --owner %s --backend <the backend of its states> --delete. "+
			"If another state of this owner holds it, give this sandbox another name.",
			strings.Join(ids, ", "), spec.Marks.Owner, spec.Name, strings.Join(tokens, ", "), ids[0], spec.Marks.Owner)}}
}
