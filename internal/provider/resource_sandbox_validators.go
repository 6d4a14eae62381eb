package provider

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	pathpkg "path"
)

// sandboxMountPathValidator requires volume_mount.path to be an absolute
// path other than "/": every platform mounts at an absolute path, and none
// can mount over the root filesystem.
type sandboxMountPathValidator struct{}

var _ validator.String = sandboxMountPathValidator{}

func (sandboxMountPathValidator) Description(_ context.Context) string {
	return "must be an absolute path other than /"
}

func (v sandboxMountPathValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (sandboxMountPathValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if msg := sandboxMountPathProblem(req.ConfigValue.ValueString()); msg != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid mount path",
			fmt.Sprintf("%s = %q %s.", req.Path, req.ConfigValue.ValueString(), msg))
	}
}

// sandboxMountPathProblem says what is wrong with a mount path, or "".
func sandboxMountPathProblem(p string) string {
	switch {
	case !strings.HasPrefix(p, "/"):
		return "is not an absolute path: a mount path must start with /, e.g. /data"
	case pathpkg.Clean(p) == "/":
		return "would mount over the sandbox's root filesystem: choose a directory such as /data"
	}
	return ""
}

// sandboxUniqueMountPathsValidator rejects two volume_mount blocks on the
// same path (after cleaning, so /data and /data/ clash), naming both.
type sandboxUniqueMountPathsValidator struct{}

var _ validator.List = sandboxUniqueMountPathsValidator{}

func (sandboxUniqueMountPathsValidator) Description(_ context.Context) string {
	return "each volume_mount must use a different path"
}

func (v sandboxUniqueMountPathsValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (sandboxUniqueMountPathsValidator) ValidateList(_ context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	seen := map[string]int{}
	for i, elem := range req.ConfigValue.Elements() {
		obj, ok := elem.(types.Object)
		if !ok || obj.IsNull() || obj.IsUnknown() {
			continue
		}
		p, ok := obj.Attributes()["path"].(types.String)
		if !ok || p.IsNull() || p.IsUnknown() {
			continue
		}
		key := pathpkg.Clean(p.ValueString())
		if first, dup := seen[key]; dup {
			resp.Diagnostics.AddAttributeError(req.Path.AtListIndex(i).AtName("path"), "Two volume mounts on one path",
				fmt.Sprintf("%s[%d].path and %s[%d].path both mount at %q. Each volume_mount needs its own path.",
					req.Path, first, req.Path, i, p.ValueString()))
			continue
		}
		seen[key] = i
	}
}

// sandboxEnvKeysValidator rejects env names no platform can pass on: an
// empty name, or one holding "=" or a NUL byte. Docker would split such a
// pair at its first "=" (setting another variable than the one written) or
// refuse it with an error that quotes the value, a secret. Only the name is
// ever reported; values are sensitive.
type sandboxEnvKeysValidator struct{}

var _ validator.Map = sandboxEnvKeysValidator{}

func (sandboxEnvKeysValidator) Description(_ context.Context) string {
	return "environment variable names must be non-empty and contain no = or NUL character"
}

func (v sandboxEnvKeysValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (sandboxEnvKeysValidator) ValidateMap(_ context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	for k := range req.ConfigValue.Elements() {
		if problem := sandboxEnvKeyProblem(k); problem != "" {
			resp.Diagnostics.AddAttributeError(req.Path, "Invalid environment variable name",
				fmt.Sprintf("%s has the name %s, which %s. Use a name such as API_URL.", req.Path, strconv.Quote(k), problem))
		}
	}
}

// sandboxEnvKeyProblem says what is wrong with an env name, or "".
func sandboxEnvKeyProblem(k string) string {
	switch {
	case k == "":
		return "is empty"
	case strings.Contains(k, "="):
		return `contains "=", which separates a name from its value`
	case strings.ContainsRune(k, 0):
		return "contains a NUL character"
	}
	return ""
}
