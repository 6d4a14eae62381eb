package drift

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"testing"
	"time"
)

// FuzzParse feeds the state reader arbitrary bytes. It must never panic;
// whatever it accepts must be valid JSON (everything it skips is
// validated); and a strict prefix of accepted input — cut before the
// closing brace — must be rejected as bad input, never read as a shorter
// state.
func FuzzParse(f *testing.F) {
	for _, path := range []string{"testdata/state_v4.tfstate", "testdata/show.json"} {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint32(len(data)/2))
		for _, n := range []int{0, 1, 17, 100, len(data) / 3, len(data) - 3, len(data) - 1} {
			f.Add(data[:n], uint32(n/2))
		}
	}
	f.Add([]byte(`{"version":4,"resources":[{"mode":"managed","type":"sbx_sandbox","name":"a","instances":[{"index_key":"k","attributes":{"expires_at":"2026-01-01T00:00:00Z"}}]}]}`), uint32(60))
	f.Add([]byte(`{"format_version":"1.0","values":{"root_module":{"child_modules":[{"child_modules":[{"resources":[]}]}]}}}`), uint32(40))
	f.Add([]byte(`{"version":4,"x":[1e5,-0.5e-3,true,false,null,"\u00e9\n"]}`), uint32(30))

	f.Fuzz(func(t *testing.T, data []byte, cut uint32) {
		rep, err := Detect(bytes.NewReader(data), driftTestNow, 72*time.Hour)
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error is not an InputError: %T %v", err, err)
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("accepted invalid JSON: %q", data)
		}
		if len(rep.Findings) != rep.Expired+rep.Expiring {
			t.Fatalf("findings %d != expired %d + expiring %d", len(rep.Findings), rep.Expired, rep.Expiring)
		}
		last := bytes.LastIndexByte(data, '}')
		if last <= 0 {
			t.Fatalf("accepted input without a closing brace: %q", data)
		}
		prefix := data[:int(cut)%last]
		if _, err := Detect(bytes.NewReader(prefix), driftTestNow, 72*time.Hour); err == nil {
			t.Fatalf("accepted a truncated state: %q (of %q)", prefix, data)
		}
	})
}
