package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

var pathDockerHost = path.Root("docker").AtName("host")

// providerData is what Configure hands to every resource and data source.
type providerData struct {
	platform  platform.Platform
	retention retentionSettings
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
