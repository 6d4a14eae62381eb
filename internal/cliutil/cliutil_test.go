package cliutil

import (
	"flag"
	"io"
	"slices"
	"testing"
)

func TestParseInterspersed(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	format := fs.String("format", "table", "")
	got, err := ParseInterspersed(fs, []string{"a.tfstate", "--format", "json", "-", "b"})
	if err != nil || *format != "json" || !slices.Equal(got, []string{"a.tfstate", "-", "b"}) {
		t.Errorf("ParseInterspersed = %v, %v, format %q", got, err, *format)
	}
	if _, err := ParseInterspersed(fs, []string{"x", "--nope"}); err == nil {
		t.Error("an unknown flag after an argument was accepted")
	}
}

func TestCell(t *testing.T) {
	for in, want := range map[string]string{"": "-", "box": "box", "a\nb": `a\nb`, "tab\there": `tab\there`, "del\x7f": `del\x7f`} {
		if got := Cell(in); got != want {
			t.Errorf("Cell(%q) = %q, want %q", in, got, want)
		}
	}
}
