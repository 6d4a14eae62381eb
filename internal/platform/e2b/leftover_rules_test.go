package e2b

import (
	"context"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// TestLeftoverBoxRule: creating a named box of an owner whose box of that
// name the provider already made (left by a killed apply) is a plan-time
// error naming it and how to import it; a replacement, another name, or
// no owner is not in its way.
func TestLeftoverBoxRule(t *testing.T) {
	p, _ := e2bTestPlatform(t, e2bfake.Options{})
	ctx := context.Background()
	tpl := e2bTestTemplate(t, p)
	left, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{Name: "agent-1", TemplateID: tpl, Marks: platform.NewMarks("team-a")})
	if err != nil {
		t.Fatal(err)
	}
	rules := p.Extensions().SandboxRules
	tests := []struct {
		name     string
		plan     platform.SandboxPlan
		wantLeft bool
	}{
		{name: "a create of the owner's name", plan: platform.SandboxPlan{Creating: true,
			Spec: platform.SandboxSpec{Name: "agent-1", Marks: platform.Marks{Owner: "team-a"}}}, wantLeft: true},
		{name: "a replacement", plan: platform.SandboxPlan{Creating: false,
			Spec: platform.SandboxSpec{Name: "agent-1", Marks: platform.Marks{Owner: "team-a"}}}},
		{name: "another name", plan: platform.SandboxPlan{Creating: true,
			Spec: platform.SandboxSpec{Name: "agent-2", Marks: platform.Marks{Owner: "team-a"}}}},
		{name: "another owner", plan: platform.SandboxPlan{Creating: true,
			Spec: platform.SandboxSpec{Name: "agent-1", Marks: platform.Marks{Owner: "team-b"}}}},
		{name: "no owner", plan: platform.SandboxPlan{Creating: true, Spec: platform.SandboxSpec{Name: "agent-1"}}},
		{name: "a box read from the state (tainted, planned as a create)", plan: platform.SandboxPlan{Creating: true, InState: func(id string) bool { return id == left.ID },
			Spec: platform.SandboxSpec{Name: "agent-1", Marks: platform.Marks{Owner: "team-a"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := rules.CheckSandbox(ctx, tt.plan)
			if !tt.wantLeft {
				if len(got) != 0 {
					t.Fatalf("problems %+v, want none", got)
				}
				return
			}
			if len(got) != 1 || got[0].Attribute != "name" || !strings.Contains(got[0].Detail, "terraform import <this resource's address> "+left.ID) {
				t.Fatalf("problems %+v, want one on name giving the import of %s", got, left.ID)
			}
		})
	}
}
