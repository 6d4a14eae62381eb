package main

import (
	"os"
	"strings"
)

// quietLogs are the log levels of the plugin SDK's loggers (terraform-plugin-go,
// the framework) and of the provider's own tflog calls. Left unset, each
// logs at TRACE: every RPC, every attribute's plan modifier and validator
// encodes a JSON line to stderr, which Terraform reads and parses only to
// drop it when the user asked for no logs. At 1,000 boxes that is a third of
// the provider's CPU and a share of Terraform's.
//
// The provider's own logger reads TF_LOG_PROVIDER_SBX (terraform-plugin-go
// names it after the provider's address), not TF_LOG_PROVIDER.
var quietLogs = []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER_SBX"}

// silenceUnaskedLogs sets the quiet levels to OFF when no TF_LOG* level is
// set at all (TF_LOG_PATH alone names a file, not a level). Any level the
// user set, for Terraform or for a subsystem, leaves every logger as the SDK
// defaults it, so TF_LOG=trace still shows the framework's lines.
func silenceUnaskedLogs(environ []string, setenv func(string, string) error) error {
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "TF_LOG") && name != "TF_LOG_PATH" && value != "" {
			return nil
		}
	}
	for _, name := range quietLogs {
		if err := setenv(name, "off"); err != nil {
			return err
		}
	}
	return nil
}

// silenceUnaskedLogsHere applies silenceUnaskedLogs to this process.
func silenceUnaskedLogsHere() error {
	return silenceUnaskedLogs(os.Environ(), os.Setenv)
}
