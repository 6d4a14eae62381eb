package modal

import (
	"context"
	"fmt"

	modal "github.com/modal-labs/modal-client/go"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// foreignUnreported is what a read cannot report of a box made outside the
// provider (by Modal's own SDKs, CLI or dashboard) until a list has shown
// it. The provider records a box's name, source and settings in the tags of
// each box it makes (tags.go); a box without them has only its status and
// tags known from a read by id. Modal reports its name and image in
// SandboxInfo (name, image_id, modal-api.proto), but only in a list's
// answers, which the SDK reduces to ids: listed.go keeps them as they pass,
// and a read of such a box looks for it in its app's list (foreignListed).
// What stays unknown reads as empty, which here means "not known": the
// import takes it from the configuration. (Its source snapshot, mounts,
// size, env and deadlines are Unreported rows of the table for every box
// already.)
var foreignUnreported = []string{
	platform.AttrSandboxName,
	platform.AttrSandboxTemplateID,
	platform.AttrSandboxMemorySnapshots,
}

// unreportedOf is what a read of a box with tags cannot report: nothing
// for a box the provider made (it carries the managed tag with its
// records), foreignUnreported for any other.
func unreportedOf(tags map[string]string) []string {
	if tags[platform.LabelManaged] == "true" {
		return nil
	}
	return append([]string(nil), foreignUnreported...)
}

// withListed completes a box made outside the provider with what a list
// reported of it: its name, its image as its template, and its deadline
// (made at, plus its timeout), which drift and the plan judge as for any
// box. Whether an
// Image is a filesystem snapshot is known by the provider's own record
// only (the from-snapshot tag of the boxes it restores; Modal reports an
// image id alone), so a foreign box's image is its template: configured
// as template_id, it starts the same box, and the import plans no
// replacement. A box the provider made reads from its tags: unchanged.
func withListed(sb *platform.Sandbox, b listedBox) {
	if sb.Labels[platform.LabelManaged] == "true" {
		return
	}
	sb.Name = b.Name
	if !b.CreatedAt.IsZero() {
		sb.CreatedAt, sb.StartedAt = b.CreatedAt, b.CreatedAt
		if b.Timeout > 0 {
			sb.ExpiresAt = b.CreatedAt.Add(b.Timeout)
		}
	}
	unreported := []string{platform.AttrSandboxMemorySnapshots}
	if sb.TemplateID = b.ImageID; sb.TemplateID == "" {
		unreported = append(unreported, platform.AttrSandboxTemplateID)
	}
	sb.Unreported = unreported
}

// foreignListed completes a box made outside the provider, read by id,
// from its app's list: the box is listed with its own tags as the filter
// (Modal filters by tags), so the list is short. A box the provider made,
// or one the list does not show (another app's, or one made a moment ago),
// is left as read.
func (s *sandboxes) foreignListed(ctx context.Context, sb *platform.Sandbox) error {
	if sb.Labels[platform.LabelManaged] == "true" {
		return nil
	}
	app, err := s.p.appFor(ctx, false)
	if err != nil || app == nil {
		return err
	}
	rec := &listedRecorder{}
	listed, err := s.p.client.Sandboxes.List(withListedRecorder(ctx, rec), &modal.SandboxListParams{AppID: app.AppID, Tags: sb.Labels})
	if err != nil {
		return fmt.Errorf("listing Modal sandboxes to read what sandbox %s was made from: %w", sb.ID, translate(err))
	}
	for box, err := range listed {
		if err != nil {
			return fmt.Errorf("listing Modal sandboxes to read what sandbox %s was made from: %w", sb.ID, translate(err))
		}
		release(box)
		if box.SandboxID == sb.ID {
			break
		}
	}
	if b, ok := rec.box(sb.ID); ok {
		withListed(sb, b)
	}
	return nil
}
