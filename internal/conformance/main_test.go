package conformance_test

import (
	"os"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest/kits"
)

func TestMain(m *testing.M) { os.Exit(kits.Main(m)) }
