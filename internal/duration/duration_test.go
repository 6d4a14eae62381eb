package duration

import (
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	const day = 24 * time.Hour
	cases := []struct {
		name    string
		in      string
		want    time.Duration
		wantErr string // "" when in parses
	}{
		{name: "hours", in: "720h", want: 720 * time.Hour},
		{name: "days", in: "30d", want: 30 * day},
		{name: "days and hours", in: "1d12h", want: 36 * time.Hour},
		{name: "fractional days", in: "1.5d", want: 36 * time.Hour},
		{name: "zero", in: "0s", want: 0},
		{name: "minutes, spaced", in: " 90m ", want: 90 * time.Minute},
		{name: "negative", in: "-5h", want: -5 * time.Hour},
		{name: "negative days", in: "-2d", want: -2 * day},
		{name: "plus days", in: "+1d", want: day},
		{name: "garbage", in: "soon", wantErr: "Go duration"},
		{name: "no unit", in: "30", wantErr: `invalid duration "30"`},
		{name: "empty", in: "", wantErr: "empty"},
		{name: "bare d", in: "d", wantErr: "number of days"},
		{name: "inf days", in: "infd", wantErr: "number of days"},
		{name: "too many days", in: "200000d", wantErr: "more than"},
		{name: "second sign", in: "1d-5h", wantErr: "sign"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Parse(c.in)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("Parse(%q) = %s, %v; want an error mentioning %q", c.in, got, err, c.wantErr)
				}
				return
			}
			if err != nil || got != c.want {
				t.Errorf("Parse(%q) = %s, %v; want %s", c.in, got, err, c.want)
			}
		})
	}
}

func TestFormat(t *testing.T) {
	cases := []struct {
		in   time.Duration
		want string
	}{
		{time.Hour, "1h"},
		{24 * time.Hour, "24h"},
		{90 * time.Minute, "1h30m"},
		{10 * time.Minute, "10m"},
		{90 * time.Second, "1m30s"},
		{time.Hour + time.Second, "1h0m1s"},
		{45 * time.Second, "45s"},
		{1500 * time.Millisecond, "1.5s"},
	}
	for _, c := range cases {
		got := Format(c.in)
		if got != c.want {
			t.Errorf("Format(%s) = %q, want %q", c.in, got, c.want)
		}
		if back, err := Parse(got); err != nil || back != c.in {
			t.Errorf("Parse(Format(%s)) = %s, %v; want it back", c.in, back, err)
		}
	}
}
