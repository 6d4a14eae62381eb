package lostcreate

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// FindSandbox looks, with Find's backoff through sleep, for the box
// a sandbox create whose answer was lost may have made: the box listed with
// the create's token (every create marks its box with a token of its own,
// so it is that create's box and no other). It returns the box, nil when
// none was found, how long it waited, and what stopped it early. A box found
// is logged: the create succeeded after all, which is worth a line when an
// apply is looked into.
func FindSandbox(ctx context.Context, sleep func(context.Context, time.Duration) error, boxes platform.SandboxService, createToken string) (*platform.Sandbox, time.Duration, error) {
	var found *platform.Sandbox
	_, waited, err := Find(ctx, sleep, func(ctx context.Context) (bool, error) {
		listed, err := boxes.List(ctx, platform.SandboxFilter{Labels: map[string]string{platform.LabelCreateToken: createToken}})
		if err != nil || len(listed) == 0 {
			return false, err
		}
		found = &listed[0]
		return true, nil
	})
	if found != nil {
		tflog.Info(ctx, "the sandbox create's answer was lost; found the sandbox it made", map[string]any{"id": found.ID, "waited": waited.String()})
	}
	return found, waited, err
}

// DescribeSandbox is what an Error says of a sandbox create's box that
// was not found: the box (named when it has a name), and how to find it
// once the platform lists it: by its create token, with the orphans
// command. platformTitle names the platform ("E2B"); marksHeld says where
// the box keeps its marks ("its metadata holds").
func DescribeSandbox(name, platformTitle, marksHeld string, marks platform.Marks) (what, find string) {
	what = "sandbox"
	if name != "" {
		what = fmt.Sprintf("sandbox %q", name)
	}
	find = fmt.Sprintf("If it was made, %s %s=%s: once %s lists it, `%s` shows it; "+
		"delete it (the same command with --all-states --delete, when that is every state of the owner) or import it (terraform import <address> <sandbox id>), then apply again.",
		marksHeld, platform.LabelCreateToken, marks.CreateToken, platformTitle, OrphansCommand(marks.Owner))
	return what, find
}
