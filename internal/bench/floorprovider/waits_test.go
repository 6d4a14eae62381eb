package main

import (
	"strings"
	"testing"
	"time"
)

func TestParseWaits(t *testing.T) {
	for _, tc := range []struct {
		text    string
		want    waits
		wantErr string
	}{
		{text: "", want: waits{}},
		{text: "create=100ms,read=50ms,delete=50ms", want: waits{create: 100 * time.Millisecond, read: 50 * time.Millisecond, delete: 50 * time.Millisecond}},
		{text: " update=1s ", want: waits{update: time.Second}},
		{text: "read=0s", want: waits{}},
		{text: "read", wantErr: `"read" is not op=duration`},
		{text: "read=fast", wantErr: `read="fast" is not a duration`},
		{text: "read=-1ms", wantErr: `read="-1ms" is not a duration of 0 or more`},
		{text: "list=1ms", wantErr: `unknown operation "list"`},
	} {
		t.Run(tc.text, func(t *testing.T) {
			got, err := parseWaits(tc.text)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("parseWaits(%q) = %v, %v; want an error containing %q", tc.text, got, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("parseWaits(%q) = %+v, %v; want %+v", tc.text, got, err, tc.want)
			}
		})
	}
}
