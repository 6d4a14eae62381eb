package rest

import (
	"context"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// maxLogBody keeps trace lines readable when a platform returns a large list.
const maxLogBody = 16 << 10

// logContext derives the ctx every log line of a Do is written with: the
// credential is masked in messages and in all field values, wherever it
// might surface (an echoed key in an error body, a request body).
func (c *Client) logContext(ctx context.Context) context.Context {
	if c.auth.Secret == "" {
		return ctx
	}
	ctx = tflog.MaskAllFieldValuesStrings(ctx, c.auth.Secret)
	return tflog.MaskMessageStrings(ctx, c.auth.Secret)
}

func logBody(b []byte) string { return truncate(string(b), maxLogBody) }
