package provider

import (
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// providerData is what Configure hands to every resource and data source.
type providerData struct {
	platform  platform.Platform
	retention retentionSettings
	// owner is the provider block's owner, put on every object created.
	owner string
	// names holds the names planned in this run, so two resources of one
	// configuration asking for the same object are found at plan time.
	names *nameRegistry
	// boxes holds the state each sandbox resource recorded for its box.
	boxes *boxStates
}

// ownerPattern is what the provider block's owner may be: a value every
// platform's labels or metadata accept.
var ownerPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$`)

// ownerFrom extracts the configured owner ("" when none or unconfigured).
func ownerFrom(providerDataValue any) string {
	if data, ok := providerDataValue.(*providerData); ok {
		return data.owner
	}
	return ""
}

// namesFrom extracts the run's name registry (nil when unconfigured; a nil
// registry checks nothing).
func namesFrom(providerDataValue any) *nameRegistry {
	if data, ok := providerDataValue.(*providerData); ok {
		return data.names
	}
	return nil
}

// platformFrom extracts the configured platform from ProviderData. It
// returns nil without error when the provider is not configured yet (the
// framework calls Configure on resources before the provider's own
// Configure during validation).
func platformFrom(providerDataValue any, diags *diag.Diagnostics) platform.Platform {
	if providerDataValue == nil {
		return nil
	}
	data, ok := providerDataValue.(*providerData)
	if !ok {
		diags.AddError("Unexpected provider data",
			fmt.Sprintf("Expected *providerData, got %T. This is a bug in the provider; please report it.", providerDataValue))
		return nil
	}
	return data.platform
}
