package rest

import "strings"

// TokenScheme pairs a token prefix with the Authorization scheme tokens
// bearing it are sent under, e.g. {"fm2_", "FlyV1"}.
type TokenScheme struct {
	Prefix, Scheme string
}

// AuthByTokenPrefix returns the Auth that sends token in the Authorization
// header, under the Scheme of the first rule whose Prefix begins any of the
// token's comma-separated members (a token may bundle several), and under
// "Bearer" when none does. A token pasted with its scheme already in front
// ("Bearer x", or one of the rules' schemes, any case) is sent under that
// scheme without repeating it, and only the rest is the secret.
//
// This is the rule of fly-go's AuthorizationHeader (superfly/fly-go auth.go):
// Fly macaroon tokens ("fm1r_…", "fm2_…", and bundles holding one) go as
// "Authorization: FlyV1 <token>", other tokens as "Bearer <token>"; the Fly
// platform calls
//
//	rest.AuthByTokenPrefix(token, rest.TokenScheme{Prefix: "fm1r_", Scheme: "FlyV1"}, rest.TokenScheme{Prefix: "fm2_", Scheme: "FlyV1"})
func AuthByTokenPrefix(token string, rules ...TokenScheme) Auth {
	const bearer = "Bearer"
	// An explicit scheme the caller pasted wins.
	for _, scheme := range schemesOf(bearer, rules) {
		if len(token) > len(scheme) && strings.EqualFold(token[:len(scheme)], scheme) && token[len(scheme)] == ' ' {
			return Auth{Header: "Authorization", Scheme: scheme, Secret: strings.TrimLeft(token[len(scheme):], " ")}
		}
	}
	for _, r := range rules {
		if r.Prefix == "" {
			continue
		}
		for member := range strings.SplitSeq(token, ",") {
			if strings.HasPrefix(member, r.Prefix) {
				return Auth{Header: "Authorization", Scheme: r.Scheme, Secret: token}
			}
		}
	}
	return Auth{Header: "Authorization", Scheme: bearer, Secret: token}
}

// schemesOf lists bearer and the rules' non-empty schemes.
func schemesOf(bearer string, rules []TokenScheme) []string {
	out := []string{bearer}
	for _, r := range rules {
		if r.Scheme != "" {
			out = append(out, r.Scheme)
		}
	}
	return out
}
