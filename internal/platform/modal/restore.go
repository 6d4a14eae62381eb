package modal

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	modal "github.com/modal-labs/modal-client/go"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/lostcreate"
)

// A restore from a memory snapshot (SandboxRestore / SandboxRestoreV2)
// takes the snapshot and a name, nothing else (modal-api.proto,
// SandboxRestoreV2Request): no tags, so the box cannot carry the create's
// token from birth as a created one does, and a restore whose answers
// were all lost cannot be found by its token. It is found by its name
// instead: every restore is sent under one, the configured name or, when
// none is configured, one made of the create token, which no other create
// can send. The provider tags the box once it has it.

// restoreNamePrefix starts the name of a box restored with no name
// configured: the prefix and the 24 hex digits of a create token are well
// within Modal's 64 characters. The name attribute stays as configured
// (null): it is read from the tags, which record only a configured name.
const restoreNamePrefix = "sbx-restore-"

// restoreName is the Modal name a restore is sent under.
func restoreName(configured string, marks platform.Marks) string {
	if configured != "" {
		return configured
	}
	return restoreNamePrefix + marks.CreateToken
}

// restore makes a box from a memory snapshot, then tags it: Modal's
// restore takes no tags (nor volumes, sizes or deadlines; the box is the
// snapshot's), so a box whose tagging fails is returned with the error,
// and the provider keeps it in state.
func (s *sandboxes) restore(ctx context.Context, spec platform.SandboxSpec, marks platform.Marks, tags map[string]string) (*platform.Sandbox, error) {
	snap, err := s.p.client.SandboxSnapshots.FromID(ctx, spec.FromSnapshotID, nil)
	if err != nil {
		return nil, notFoundOr(err, "snapshot", spec.FromSnapshotID)
	}
	name := restoreName(spec.Name, marks)
	if spec.Name != "" {
		// A configured name is looked up before the restore is sent: a box
		// holding it now is another's (a NotOwnedError naming it and its
		// import), and an untagged box holding it after a lost answer was
		// made since, by this restore (restoredAfterAll). Modal's server
		// says so, not two clocks that may disagree.
		held, err := s.p.client.Sandboxes.FromName(ctx, s.p.appName, name, nil)
		switch {
		case err == nil:
			release(held)
			return s.nameTaken(ctx, name, marks)
		case !isNotFound(err):
			return nil, fmt.Errorf("looking up the sandbox name %q before restoring memory snapshot %s: %w", name, spec.FromSnapshotID, translate(err))
		}
	}
	sb, err := s.p.client.Sandboxes.ExperimentalFromSnapshot(ctx, snap, &modal.SandboxExperimentalFromSnapshotParams{Name: &name})
	if err != nil {
		if !isAlreadyExists(err) && !mayHaveApplied(err) {
			return nil, fmt.Errorf("restoring memory snapshot %s: %w", spec.FromSnapshotID, notFoundOr(err, "snapshot", spec.FromSnapshotID))
		}
		// The answer was lost (the SDK's retries ran out), or a retry
		// found the name taken, by the first attempt if it acted.
		if sb, err = s.restoredAfterAll(ctx, spec, marks, name, err); err != nil {
			return nil, err
		}
	}
	defer release(sb)
	s.p.recent.add(sb.SandboxID)
	if err := sb.SetTags(ctx, tags, nil); err != nil {
		return &platform.Sandbox{ID: sb.SandboxID, Status: platform.StateUnknown},
			fmt.Errorf("tagging the restored sandbox %s: %w", sb.SandboxID, translate(err))
	}
	return s.afterCreate(ctx, sb.SandboxID)
}

// restoredAfterAll finds the box of a restore that failed with sendErr
// (an answer lost, or the name taken) under the name it was sent with,
// looking with lostcreate's backoff, and takes it when it is this
// restore's: tagged with its token, or untagged (a restored box starts
// without tags) under a name that was this restore's alone: the token's,
// or a configured one found free before the restore was sent. Any other
// box is a NotOwnedError naming it and its import; none found is a
// lostcreate.Error saying what to look for.
func (s *sandboxes) restoredAfterAll(ctx context.Context, spec platform.SandboxSpec, marks platform.Marks, name string, sendErr error) (*modal.Sandbox, error) {
	var found *modal.Sandbox
	_, waited, ferr := lostcreate.Find(ctx, s.p.lookupSleep, func(ctx context.Context) (bool, error) {
		sb, err := s.p.client.Sandboxes.FromName(ctx, s.p.appName, name, nil)
		if isNotFound(err) {
			return false, nil
		}
		if err != nil {
			return false, translate(err)
		}
		found = sb
		return true, nil
	})
	if found == nil {
		return nil, s.restoreNotFound(spec, marks, name, sendErr, waited, ferr)
	}
	tags, err := found.GetTags(ctx, nil)
	if err != nil {
		release(found)
		return nil, notFoundOr(err, "sandbox", found.SandboxID)
	}
	if !marks.MadeBy(tags) && len(tags) > 0 {
		release(found)
		return nil, notOwnedBox(name, found.SandboxID, tags)
	}
	tflog.Info(ctx, "the memory snapshot restore failed on the way back; found the sandbox it made by its name",
		map[string]any{"id": found.SandboxID, "name": name, "waited": waited.String(), "error": translate(sendErr).Error()})
	return found, nil
}

// restoreNotFound is the error of a restore whose box was not found under
// its name: the lostcreate.Error of a lost answer, saying the name to look
// for, or the name conflict Modal reported when no box holds the name any
// more (it finished since).
func (s *sandboxes) restoreNotFound(spec platform.SandboxSpec, marks platform.Marks, name string, sendErr error, waited time.Duration, ferr error) error {
	if isAlreadyExists(sendErr) && ferr == nil {
		return fmt.Errorf("restoring memory snapshot %s: Modal says the sandbox name %q is taken, yet no running sandbox holds it: %w",
			spec.FromSnapshotID, name, translate(sendErr))
	}
	what := "sandbox"
	if spec.Name != "" {
		what = fmt.Sprintf("sandbox %q", spec.Name)
	}
	find := fmt.Sprintf("If it was made, it runs untagged (a restore takes no tags; the provider tags the box once Modal answers) "+
		"under the name %q in the Modal app %q: look it up by that name, then import it (terraform import <address> <sandbox id>) "+
		"or terminate it, and apply again.", name, s.p.appName)
	return &lostcreate.Error{What: what, Err: translate(sendErr), Waited: waited, Lookup: ferr, Find: find,
		NotListed: fmt.Sprintf("After looking for it for %s, Modal holds no sandbox named %q (create token %s).", waited, name, marks.CreateToken)}
}
