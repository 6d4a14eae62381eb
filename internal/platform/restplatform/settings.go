// Package restplatform is what the REST platforms (E2B, Daytona, Fly)
// share beyond the platform contract: their common settings and the
// reading of internal/rest's answers as the contract's typed errors. It
// keeps the contract free of HTTP.
package restplatform

import (
	"fmt"
	"net/url"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// The settings every REST platform's block has (E2B, Daytona): the API key
// and the API root. They are declared here once so that both blocks read,
// document and check them alike; what differs is the platform's words.

// APIKeySetting is the api_key setting: required, sensitive, read from env
// when the block leaves it out. sentAs names how the key travels (the
// header, for the docs); hint says where to get one.
func APIKeySetting(platformTitle, sentAs, env, hint string) platform.Setting {
	return platform.Setting{
		Name:        "api_key",
		Title:       "API key",
		Description: platformTitle + " API key, sent as `" + sentAs + "`. Never logged.",
		Env:         []string{env},
		Required:    true,
		Hint:        hint,
		Sensitive:   true,
	}
}

// APIURLSetting is the api_url setting: the API root, defaultURL when
// unset, read from env when the block leaves it out.
func APIURLSetting(platformTitle, defaultURL, env string) platform.Setting {
	return platform.Setting{
		Name:        "api_url",
		Title:       "API URL",
		Description: platformTitle + " API root.",
		Fallback:    "`" + defaultURL + "`",
		Env:         []string{env},
		Validate:    apiRootValidator(defaultURL),
	}
}

// apiRootValidator accepts what internal/rest takes for a base URL, an
// absolute http(s) URL without a query or fragment, so a bad value is a
// plan-time error on the setting rather than a failure of the first
// request. example is the platform's default root, named in the error.
func apiRootValidator(example string) func(string) error {
	return func(v string) error {
		u, err := url.Parse(v)
		switch {
		case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
			return fmt.Errorf("%q is not an absolute http(s) URL, such as %s", v, example)
		case u.RawQuery != "" || u.Fragment != "":
			return fmt.Errorf("%q carries a query or fragment; give the API root only", v)
		}
		return nil
	}
}
