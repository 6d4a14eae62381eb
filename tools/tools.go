//go:build tools

// Package tools pins the versions of the tools the build uses, apart from
// the provider's own dependencies.
package tools

import (
	_ "github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs"
)
