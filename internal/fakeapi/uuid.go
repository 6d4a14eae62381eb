package fakeapi

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
)

// UUID is a random version-4 UUID, as the platforms mint for builds,
// sandboxes and snapshots.
func UUID() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return fmt.Sprintf("%s-%s-%s-%s-%s", h[0:8], h[8:12], h[12:16], h[16:20], h[20:32])
}
