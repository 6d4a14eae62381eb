package main

import (
	"maps"
	"slices"
	"testing"
)

// TestSilenceUnaskedLogs: with no TF_LOG* level set the SDK, framework and
// provider loggers are turned off; any level the user set leaves them all
// as the SDK defaults them.
func TestSilenceUnaskedLogs(t *testing.T) {
	for _, tc := range []struct {
		name    string
		environ []string
		want    []string
	}{
		{"nothing asked", []string{"HOME=/root", "TF_CLI_CONFIG_FILE=x"}, quietLogs},
		{"a log file but no level", []string{"TF_LOG_PATH=/tmp/tf.log"}, quietLogs},
		{"an empty level", []string{"TF_LOG="}, quietLogs},
		{"TF_LOG", []string{"TF_LOG=trace"}, nil},
		{"the provider's level", []string{"TF_LOG_PROVIDER=debug"}, nil},
		{"this provider's level", []string{"TF_LOG_PROVIDER_SBX=info"}, nil},
		{"the framework's level", []string{"TF_LOG_SDK_FRAMEWORK=trace"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set := map[string]string{}
			err := silenceUnaskedLogs(tc.environ, func(k, v string) error { set[k] = v; return nil })
			if err != nil {
				t.Fatal(err)
			}
			got := slices.Sorted(maps.Keys(set))
			if want := slices.Sorted(slices.Values(tc.want)); !slices.Equal(got, want) {
				t.Errorf("set %v, want %v", got, want)
			}
			for k, v := range set {
				if v != "off" {
					t.Errorf("%s = %q, want off", k, v)
				}
			}
		})
	}
}
