package platform

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
)

// Label keys the provider puts on every object it makes, so objects can be
// recognised as managed and found again after an interrupted create.
// Platforms that have labels (Docker, Fly metadata, E2B metadata) store them
// alongside the user's labels; they are never shown as user labels.
const (
	LabelPrefix  = "sbx.terraform."
	LabelManaged = LabelPrefix + "managed"
	LabelName    = LabelPrefix + "name"
	LabelKind    = LabelPrefix + "kind"
	// LabelOwner is the provider block's owner, so the objects of one team
	// or pipeline can be told apart from another's (see the orphans command).
	LabelOwner = LabelPrefix + "owner"
	// LabelCreateToken is unique to the create call that made the object.
	// It is the only proof that an object found under a name was made by
	// this create: an interrupted request retried, not another state's
	// object, a user's, or a derived copy that inherited the labels.
	LabelCreateToken = LabelPrefix + "create-token"
)

// Marks are the provenance labels a create puts on the object it makes: who
// owns it, and which create made it. A fresh token per create call.
type Marks struct {
	Owner       string
	CreateToken string
}

// MarksOf reads the marks from an object's labels (zero where it has none:
// made by hand, or on a platform that keeps no labels on its kind).
func MarksOf(labels map[string]string) Marks {
	return Marks{Owner: labels[LabelOwner], CreateToken: labels[LabelCreateToken]}
}

// NewMarks returns the marks for one create: owner, and a new random token.
func NewMarks(owner string) Marks { return Marks{Owner: owner, CreateToken: NewCreateToken()} }

// Ensure returns m with a create token, making one when m has none (a
// caller that set no marks): every create has a token of its own.
func (m Marks) Ensure() Marks {
	if m.CreateToken == "" {
		m.CreateToken = NewCreateToken()
	}
	return m
}

// NewCreateToken returns a random token identifying one create call.
func NewCreateToken() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand never fails on supported platforms
	return hex.EncodeToString(b[:])
}

// Labels returns the marks as labels. Every key is set (the owner to "" when
// there is none) so a derived object never keeps its parent's marks on a
// platform where labels are inherited (Docker images and containers).
func (m Marks) Labels() map[string]string {
	return map[string]string{LabelOwner: m.Owner, LabelCreateToken: m.CreateToken}
}

// MadeBy reports whether an object with labels was made by the create that
// holds marks. Generic labels (managed, kind, name) prove nothing: they are
// copied into derived objects and shared by every state using a name.
func (m Marks) MadeBy(labels map[string]string) bool {
	return m.CreateToken != "" && labels[LabelCreateToken] == m.CreateToken
}

// IsReservedLabel reports whether key belongs to the provider, not the user.
func IsReservedLabel(key string) bool { return strings.HasPrefix(key, LabelPrefix) }

// UserLabels returns labels without the provider's reserved keys.
func UserLabels(all map[string]string) map[string]string {
	out := make(map[string]string, len(all))
	for k, v := range all {
		if !IsReservedLabel(k) {
			out[k] = v
		}
	}
	return out
}

// MatchLabels reports whether have holds every key/value in want.
func MatchLabels(have, want map[string]string) bool {
	for k, v := range want {
		if got, ok := have[k]; !ok || got != v {
			return false
		}
	}
	return true
}
