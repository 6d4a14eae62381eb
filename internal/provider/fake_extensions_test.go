package provider

import "github.com/sbxhq/terraform-provider-sbx/internal/platform"

// The unit tests' fake platforms offer no extensions unless a test says so.

func (p *sandboxFakePlatform) Extensions() platform.Extensions { return p.extensions }

func (f *dataSourceFakePlatform) Extensions() platform.Extensions { return platform.Extensions{} }

func (f *snapshotTestFakePlatform) Extensions() platform.Extensions { return platform.Extensions{} }

func (f *templateTestFakePlatform) Extensions() platform.Extensions { return platform.Extensions{} }

// Extensions offers the id planner when the test plans ids.
func (f *templateOwnFakePlatform) Extensions() platform.Extensions {
	if f.planIDs {
		return platform.Extensions{IDs: f}
	}
	return platform.Extensions{}
}
