package modalfake

import (
	"crypto/rand"
	"math/big"
	"strings"
)

// alnum is the alphabet of Modal's object ids (the SDK's V1 sandbox id
// alphabet, and what its app id pattern accepts).
const alnum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// crockford is the ULID alphabet, for V2 sandbox ids.
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

func randomFrom(alphabet string, n int) string {
	var b strings.Builder
	n64 := big.NewInt(int64(len(alphabet)))
	for range n {
		i, err := rand.Int(rand.Reader, n64)
		if err != nil {
			panic(err) // crypto/rand does not fail on supported platforms
		}
		b.WriteByte(alphabet[i.Int64()])
	}
	return b.String()
}

// randomID is the 22-character tail of a Modal id ("ap-", "im-", ...).
func (s *Server) randomID(n int) string { return randomFrom(alnum, n) }

// newID is prefix + 22 alphanumerics, the shape of app, image, volume,
// secret, snapshot and task ids, and of V1 sandbox ids.
func newID(prefix string) string { return prefix + "-" + randomFrom(alnum, 22) }

// newV2SandboxID is "sb-" and 26 ULID characters: not the V1 shape, so the
// SDK routes it to the V2 RPCs.
func newV2SandboxID() string { return "sb-" + randomFrom(crockford, 26) }
