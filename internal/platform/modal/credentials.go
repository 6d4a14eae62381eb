package modal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pelletier/go-toml/v2"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// modalProfile is the part of a ~/.modal.toml profile that holds
// credentials, as the SDK reads it (config.go, rawProfile).
type modalProfile struct {
	TokenID           string `toml:"token_id"`
	TokenSecret       string `toml:"token_secret"`
	OAuthRefreshToken string `toml:"oauth_refresh_token"`
	Active            bool   `toml:"active"`
}

// checkCredentials finds credentials where the SDK would (its client.go
// NewClientWithOptions and config.go getProfile): a token id and secret
// from the block or MODAL_TOKEN_ID/MODAL_TOKEN_SECRET (both in settings,
// which Resolve filled from either), an OAuth refresh token in the
// environment, or the profile of the Modal config file (MODAL_CONFIG_PATH,
// else ~/.modal.toml; MODAL_PROFILE, else the active one). With none the
// SDK fails only at its first call; this refuses at configure time, when
// Terraform plans, as E2B, Daytona and Fly do for a missing key.
func checkCredentials(settings map[string]string, getenv func(string) string, home func() (string, error)) error {
	if settings["token_id"] != "" || settings["token_secret"] != "" || getenv("MODAL_OAUTH_REFRESH_TOKEN") != "" {
		return nil // a half pair is the SDK's to refuse, naming the missing half
	}
	path := getenv("MODAL_CONFIG_PATH")
	if path == "" {
		dir, err := home()
		if err != nil {
			return missingCredentials(fmt.Sprintf("no home directory to find ~/.modal.toml in (%v)", err))
		}
		path = filepath.Join(dir, ".modal.toml")
	}
	content, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return missingCredentials(path + " does not exist")
	}
	if err != nil {
		return &platform.SettingError{Setting: "token_id", Summary: "Unreadable Modal config file",
			Detail: fmt.Sprintf("%v. Fix it, or set token_id and token_secret in the modal block or the MODAL_TOKEN_ID "+
				"and MODAL_TOKEN_SECRET environment variables.", err)}
	}
	var profiles map[string]modalProfile
	if err := toml.Unmarshal(content, &profiles); err != nil {
		// Only where the file failed to parse: its values may be secret.
		return &platform.SettingError{Setting: "token_id", Summary: "Unreadable Modal config file",
			Detail: fmt.Sprintf("%s is not a Modal config file (TOML): %s. Fix it, or set token_id and token_secret in "+
				"the modal block or the MODAL_TOKEN_ID and MODAL_TOKEN_SECRET environment variables.", path, tomlPosition(err))}
	}
	name := getenv("MODAL_PROFILE")
	if name == "" {
		for n, p := range profiles {
			if p.Active {
				name = n
				break
			}
		}
	}
	p, ok := profiles[name]
	switch {
	case name == "":
		return missingCredentials(path + " has no active profile")
	case !ok:
		return missingCredentials(fmt.Sprintf("%s has no profile %q", path, name))
	case p.TokenID == "" && p.TokenSecret == "" && p.OAuthRefreshToken == "":
		return missingCredentials(fmt.Sprintf("the profile %q of %s holds no token", name, path))
	}
	return nil
}

// tomlPosition is where a TOML error is, without the text around it.
func tomlPosition(err error) string {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		return fmt.Sprintf("line %d, column %d", row, col)
	}
	return "it does not parse"
}

// missingCredentials is the error of credentials found nowhere; found says
// what the config file lookup found.
func missingCredentials(found string) error {
	return &platform.SettingError{Setting: "token_id", Summary: "No Modal credentials",
		Detail: "Set token_id and token_secret in the modal block, or the MODAL_TOKEN_ID and MODAL_TOKEN_SECRET " +
			"environment variables, or a profile in ~/.modal.toml (" + found + "; `modal token new` writes one; " +
			"MODAL_PROFILE picks another profile, MODAL_CONFIG_PATH another file)."}
}
