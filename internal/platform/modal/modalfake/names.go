package modalfake

import (
	"regexp"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

var (
	objectNameCharset = regexp.MustCompile(`^[a-zA-Z0-9\-_.]+$`)
	appIDShape        = regexp.MustCompile(`^ap-[a-zA-Z0-9]{22}$`)
)

// checkName applies Modal's object-name rules (the SDK's checkObjectName
// mirrors the server): at most 64 characters of [A-Za-z0-9-_.], and not
// shaped like an app id.
func checkName(kind, name string) error {
	if name == "" || len(name) > 64 || !objectNameCharset.MatchString(name) || appIDShape.MatchString(name) {
		return status.Errorf(codes.InvalidArgument,
			"Invalid %s name: '%s'. Names may contain only alphanumeric characters, dashes, periods, and underscores, must be shorter than 64 characters, and cannot conflict with App ID strings.",
			kind, name)
	}
	return nil
}

// defaultEnvironment is the only environment a fake workspace has, as a
// fresh Modal workspace does.
const defaultEnvironment = "main"

// checkEnvironment accepts the default environment by its name or by
// omission (the server then picks the workspace's default).
func checkEnvironment(name string) error {
	if name == "" || name == defaultEnvironment {
		return nil
	}
	return status.Errorf(codes.NotFound, "Environment '%s' not found", name)
}
