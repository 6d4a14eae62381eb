package redact

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestSecretsString(t *testing.T) {
	var s Secrets
	s.Env("API_TOKEN", "Zq7-SECRET-Xk\x00tail")
	s.Env("SHORT", "1")
	s.Credential("e2b_0123")
	s.Value("abc") // too short to mask on its own

	cases := map[string]string{
		// runc quotes the whole pair with %q
		`can't contain null(\x00): "API_TOKEN=Zq7-SECRET-Xk\x00tail": unknown`: `can't contain null(\x00): "API_TOKEN=***": unknown`,
		// a JSON echo of the request
		`{"envVars":{"API_TOKEN":"Zq7-SECRET-Xk\u0000tail"}}`: `{"envVars":{"API_TOKEN":"***"}}`,
		// a log line with a part of the value
		"agent: token Zq7-SECRET-Xk is bad": "agent: token *** is bad",
		"SHORT=1 exit code 1":               "SHORT=*** exit code 1",
		"abc":                               "abc",
		"invalid key e2b_0123":              "invalid key ***",
	}
	for in, want := range cases {
		if got := s.String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}

// Two secrets that overlap in a text are both hidden whole.
func TestSecretsOverlap(t *testing.T) {
	var s Secrets
	s.Value("abcd")
	s.Value("cdefgh")
	if got := s.String("xxabcdefghyy"); got != "xx***yy" {
		t.Errorf("got %q", got)
	}
}

func TestSecretsError(t *testing.T) {
	var s Secrets
	s.Env("API_TOKEN", "sekrit-value")
	base := errors.New("root")
	err := fmt.Errorf("refused API_TOKEN=sekrit-value: %w", base)
	got := s.Error(err)
	if strings.Contains(got.Error(), "sekrit") || !strings.Contains(got.Error(), "API_TOKEN=***") {
		t.Errorf("Error() = %q", got)
	}
	if !errors.Is(got, base) {
		t.Error("the chain is lost")
	}
	if plain := errors.New("nothing secret"); s.Error(plain) != plain {
		t.Error("an error without secrets must come back as it is")
	}
	var none *Secrets
	if none.Error(base) != base || !none.Empty() {
		t.Error("a nil Secrets masks nothing")
	}
}
