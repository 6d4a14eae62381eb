package provider

import (
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

// sandboxRetentionObject describes a box as the platform reports it, for
// retention.Policy.Deadline; retentionFieldsOf renders the result, so every
// place that shows a box's retention (sbx_sandbox, sbx_sandboxes) agrees on
// it. A caller that knows more than the platform reports (lifecycle
// settings the platform does not report live in Terraform state) fills
// those fields in on the returned object; a field left zero makes the rule
// needing it give no deadline.
func sandboxRetentionObject(platformName string, sb platform.Sandbox) retention.Object {
	return retention.Object{
		Platform:          platformName,
		Kind:              retention.Sandbox,
		State:             string(sb.Status),
		CreatedAt:         sb.CreatedAt,
		StartedAt:         sb.StartedAt,
		StateSince:        sb.StatusSince,
		Timeout:           sb.Lifecycle.Timeout,
		OnTimeout:         string(sb.Lifecycle.OnTimeout),
		IdleTimeout:       sb.Lifecycle.IdleTimeout,
		AutoArchiveAfter:  sb.Lifecycle.AutoArchiveAfter,
		AutoDeleteAfter:   sb.Lifecycle.AutoDeleteAfter,
		PlatformExpiresAt: sb.ExpiresAt,
	}
}
