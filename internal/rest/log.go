package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sbxhq/terraform-provider-sbx/internal/redact"
)

// maxLogBody keeps trace lines readable when a platform returns a large list.
const maxLogBody = 16 << 10

// logContext derives the ctx every log line of a Do is written with: the
// secrets (the credential, the request's sensitive values) are masked in
// messages and in all field values, wherever they might surface (an echoed
// key or request in an error body, a request body).
func logContext(ctx context.Context, secrets *redact.Secrets) context.Context {
	if secrets.Empty() {
		return ctx
	}
	hide := secrets.Strings()
	ctx = tflog.MaskAllFieldValuesStrings(ctx, hide...)
	return tflog.MaskMessageStrings(ctx, hide...)
}

// addSensitiveValues adds to secrets every value under one of the client's
// sensitive keys in the JSON body b: an object's string leaves as NAME=value
// pairs under their key (E2B's envVars), any other leaf as a value.
func (c *Client) addSensitiveValues(secrets *redact.Secrets, b []byte) {
	if len(c.sensitive) == 0 || !c.mentionsSensitive(b) {
		return
	}
	var v any
	if json.Unmarshal(b, &v) != nil {
		return
	}
	var walk func(v any, sensitive bool, name string)
	walk = func(v any, sensitive bool, name string) {
		switch t := v.(type) {
		case map[string]any:
			for k, x := range t {
				walk(x, sensitive || c.sensitive[k], k)
			}
		case []any:
			for _, x := range t {
				walk(x, sensitive, "")
			}
		case nil:
		default:
			if !sensitive {
				return
			}
			text := fmt.Sprint(t)
			if s, ok := t.(string); ok {
				text = s
			}
			if name != "" && !c.sensitive[name] {
				secrets.Env(name, text)
			} else {
				secrets.Value(text)
			}
		}
	}
	walk(v, false, "")
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
