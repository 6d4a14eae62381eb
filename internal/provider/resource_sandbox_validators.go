package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	pathpkg "path"
)

// sandboxMountPathValidator requires volume_mount.path to be a clean
// absolute path other than "/": every platform mounts at an absolute path,
// none can mount over the root filesystem, and a path with "..", "." or
// "//" mounts somewhere else than it reads (/data/../etc mounts over /etc).
// A trailing slash names the same directory, so it is let through.
func sandboxMountPathValidator() validator.String {
	return stringRule{description: "must be a clean absolute path other than /", summary: "Invalid mount path", sep: " ",
		problem: sandboxMountPathProblem}
}

// sandboxMountPathProblem says what is wrong with a mount path, or "".
func sandboxMountPathProblem(p string) string {
	switch {
	case !strings.HasPrefix(p, "/"):
		return "is not an absolute path: a mount path must start with /, e.g. /data"
	case pathpkg.Clean(p) == "/":
		return "would mount over the sandbox's root filesystem: choose a directory such as /data"
	case pathpkg.Clean(p) != strings.TrimSuffix(p, "/"):
		return fmt.Sprintf("is not a clean path: it mounts at %s. Write path = %q (no .., . or //)", pathpkg.Clean(p), pathpkg.Clean(p))
	}
	return ""
}

// sandboxSubpathValidator requires volume_mount.subpath to be a relative
// path inside the volume: no leading /, no .. and no empty segment (the
// rules of the one platform that mounts sub-directories, where a subpath is
// an S3 key prefix: its server's volume-mount-path-validation.util.ts).
func sandboxSubpathValidator() validator.String {
	return stringRule{description: "must be a relative path inside the volume, without .. or //",
		summary: "Invalid volume subpath", sep: " ", problem: sandboxSubpathProblem}
}

// sandboxSubpathProblem says what is wrong with a subpath, or "".
func sandboxSubpathProblem(p string) string {
	switch {
	case p == "":
		return "is empty: leave subpath out to mount the whole volume"
	case strings.HasPrefix(p, "/"):
		return "starts with /: a subpath is relative to the volume's root, e.g. projects/a"
	case strings.Contains(p, ".."):
		return "contains ..: a subpath must stay inside the volume"
	case strings.Contains(p, "//"):
		return "contains consecutive slashes"
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

// sandboxEnvKeysValidator rejects env entries no platform can pass on.
//
// Names: empty, or holding "=" or a NUL byte. A platform would split such a
// pair at its first "=" (setting another variable than the one written) or
// refuse it with an error that quotes the value, a secret.
//
// Values: holding a NUL byte (no process environment can carry one; the
// engine refused it at start with an error quoting the whole NAME=value), or
// making NAME=value longer than Linux passes to a program as one variable
// (the box's command then fails to start with "argument list too long").
//
// Only the name is ever reported; values are sensitive and never appear in
// a diagnostic, not even in part.
type sandboxEnvKeysValidator struct{}

var _ validator.Map = sandboxEnvKeysValidator{}

// sandboxEnvMaxEntry is the longest NAME=value Linux hands to a program
// (MAX_ARG_STRLEN, 32 pages of 4 KiB, less the terminating NUL). Every
// platform's boxes run Linux; a longer one makes the box's command fail to
// start.
const sandboxEnvMaxEntry = 32*4096 - 1

func (sandboxEnvKeysValidator) Description(_ context.Context) string {
	return "environment variable names must be non-empty and contain no = or NUL character; " +
		"values must contain no NUL character and NAME=value must be at most " + strconv.Itoa(sandboxEnvMaxEntry) + " bytes"
}

func (v sandboxEnvKeysValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (sandboxEnvKeysValidator) ValidateMap(_ context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(req.ConfigValue.Elements())) {
		if problem := sandboxEnvKeyProblem(k); problem != "" {
			resp.Diagnostics.AddAttributeError(req.Path, "Invalid environment variable name",
				fmt.Sprintf("%s has the name %s, which %s. Use a name such as API_URL.", req.Path, strconv.Quote(k), problem))
			continue
		}
		v, ok := req.ConfigValue.Elements()[k].(types.String)
		if !ok || v.IsNull() || v.IsUnknown() {
			continue
		}
		if problem := sandboxEnvValueProblem(k, v.ValueString()); problem != "" {
			// The path names the variable; the detail repeats the name
			// (quoted, so any odd character shows) and never the value.
			resp.Diagnostics.AddAttributeError(req.Path.AtMapKey(k), "Invalid environment variable value",
				fmt.Sprintf("The value of %s[%s] %s. The value is sensitive and is not shown.", req.Path, strconv.Quote(k), problem))
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

// sandboxEnvValueProblem says what is wrong with the value of env name k,
// or "". The answer never quotes the value.
func sandboxEnvValueProblem(k, v string) string {
	switch {
	case strings.ContainsRune(v, 0):
		return "contains a NUL character (\\u0000), which no process environment can hold: " +
			"the sandbox could not start. Remove it, or encode the value (e.g. base64encode())"
	case len(k)+1+len(v) > sandboxEnvMaxEntry:
		return fmt.Sprintf("is %d bytes long; with its name that is more than the %d bytes Linux passes to a program "+
			"as one environment variable, so the sandbox's command could not start. Pass large data in a file on a volume instead",
			len(v), sandboxEnvMaxEntry)
	}
	return ""
}
