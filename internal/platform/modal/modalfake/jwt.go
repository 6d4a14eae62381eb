package modalfake

import (
	"encoding/base64"
	"encoding/json"
	"time"
)

// mintJWT makes a token shaped like a JWT: the SDK splits it in three and
// reads exp from the payload (base64url) to know when to refresh. The fake
// checks tokens by equality, so the signature is random.
func mintJWT(subject string, exp time.Time) string {
	enc := base64.RawURLEncoding
	header, _ := json.Marshal(map[string]string{"alg": "HS256", "typ": "JWT"})
	payload, _ := json.Marshal(map[string]any{"sub": subject, "exp": exp.Unix(), "jti": randomFrom(alnum, 16)})
	return enc.EncodeToString(header) + "." + enc.EncodeToString(payload) + "." + enc.EncodeToString([]byte(randomFrom(alnum, 32)))
}

// tokenLifetime is how long minted tokens are valid, on the wall clock the
// SDK compares exp with.
const tokenLifetime = time.Hour

// nowPlus is a wall-clock instant: token expiry is checked by the SDK
// against the wall clock, not a workspace's clock.
func nowPlus(d time.Duration) time.Time { return time.Now().Add(d) }
