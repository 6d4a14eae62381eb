package rest

import (
	"bytes"
	"context"
	"encoding/json"

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

// logBody is a body as a log field: truncated, and with the values of the
// client's sensitive JSON keys masked. A body that is not JSON is logged as
// is; it cannot hold a key.
func (c *Client) logBody(b []byte) string {
	if len(c.sensitive) > 0 && c.mentionsSensitive(b) {
		var v any
		if json.Unmarshal(b, &v) == nil && maskKeys(v, c.sensitive) {
			if masked, err := json.Marshal(v); err == nil {
				b = masked
			}
		}
	}
	return truncate(string(b), maxLogBody)
}

// mentionsSensitive is a cheap check that spares decoding the many bodies
// (list pages, status polls) that hold no sensitive key.
func (c *Client) mentionsSensitive(b []byte) bool {
	for k := range c.sensitive {
		if bytes.Contains(b, []byte(`"`+k+`"`)) {
			return true
		}
	}
	return false
}

// maskKeys replaces, in place, the value of every object key in keys with
// "***" (an object's or array's leaves each), reporting whether any was found.
func maskKeys(v any, keys map[string]bool) bool {
	found := false
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if keys[k] {
				t[k] = maskValue(x)
				found = true
				continue
			}
			found = maskKeys(x, keys) || found
		}
	case []any:
		for _, x := range t {
			found = maskKeys(x, keys) || found
		}
	}
	return found
}

// maskValue keeps a value's shape (env var names stay readable) and hides
// every string, number and boolean in it.
func maskValue(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = maskValue(x)
		}
		return t
	case []any:
		for i, x := range t {
			t[i] = maskValue(x)
		}
		return t
	case nil:
		return nil
	}
	return "***"
}
