package restplatform

import (
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

// NotFound turns a REST API's 404 (an answer of internal/rest) into
// the typed not-found error of kind and id, which the provider reads as an
// object gone from the platform; any other error is returned as it is.
func NotFound(err error, kind, id string) error {
	if rest.IsNotFound(err) {
		return &platform.NotFoundError{Kind: kind, ID: id}
	}
	return err
}
