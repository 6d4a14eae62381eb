package acctest

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// ErrorPattern compiles an expected-error pattern in which every space
// matches any run of whitespace: Terraform wraps diagnostics at its
// terminal width, so a message may break between any two words.
func ErrorPattern(pattern string) *regexp.Regexp {
	return regexp.MustCompile(strings.ReplaceAll(pattern, " ", `\s+`))
}

// ResourceID returns the id of the resource at addr in the state.
func ResourceID(s *terraform.State, addr string) (string, error) {
	rs, ok := s.RootModule().Resources[addr]
	if !ok || rs.Primary == nil || rs.Primary.ID == "" {
		return "", fmt.Errorf("%s is not in the state", addr)
	}
	return rs.Primary.ID, nil
}

// CaptureAttr is a check that records the attribute attr of the resource
// at addr into dst, for a later step to compare against.
func CaptureAttr(addr, attr string, dst *string) resource.TestCheckFunc {
	return resource.TestCheckResourceAttrWith(addr, attr, func(v string) error { *dst = v; return nil })
}
