package acctest

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The pattern is right: it matches exactly the texts without the secret.
func TestEnvSecretAccWithout(t *testing.T) {
	secret := "abcd"
	re := Without(secret)
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		b := make([]byte, r.IntN(14))
		for j := range b {
			b[j] = "abcdx\n"[r.IntN(6)]
		}
		text := string(b)
		if got, want := re.MatchString(text), !strings.Contains(text, secret); got != want {
			t.Fatalf("%q: matched %v, want %v", text, got, want)
		}
	}
	for _, s := range []string{"Error: abcabcd", "aabcd", "abcabc", "", "xyz"} {
		if got, want := re.MatchString(s), !strings.Contains(s, secret); got != want {
			t.Errorf("%q: matched %v, want %v", s, got, want)
		}
	}
}
