package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// pickByName returns the one item named exactly name. Platforms may match
// names loosely (prefixes, substrings) when listing, so the exact match is
// decided here. None or several is an error that says what was looked for.
func pickByName[T any](kind, name string, items []T, nameOf, idOf func(T) string) (T, error) {
	var found []T
	for _, it := range items {
		if nameOf(it) == name {
			found = append(found, it)
		}
	}
	var zero T
	switch len(found) {
	case 0:
		return zero, fmt.Errorf("no %s named %q was found on the platform", kind, name)
	case 1:
		return found[0], nil
	}
	ids := make([]string, len(found))
	for i, it := range found {
		ids[i] = idOf(it)
	}
	return zero, fmt.Errorf("%d %ss are named %q (ids %s); look the one you mean up by id instead",
		len(found), kind, name, strings.Join(ids, ", "))
}

// idOrNameLookup says how a data source finds one object of a kind by `id`
// or by exact `name` (the sbx_template and sbx_volume data sources).
type idOrNameLookup[T any] struct {
	kind         string // "template", "volume": used in every message
	platformName string
	get          func(ctx context.Context, id string) (*T, error)
	listNamed    func(ctx context.Context, name string) ([]T, error)
	nameOf, idOf func(T) string
}

// find returns the object with the given id, or, when id is "", the one
// named exactly name. A missing id is an error on `id`; no object or
// several of the name is an error on `name`; a failed platform call is
// reported as such. ok is false when an error was added to diags.
func (l idOrNameLookup[T]) find(ctx context.Context, id, name string, diags *diag.Diagnostics) (found T, ok bool) {
	title := strings.ToUpper(l.kind[:1]) + l.kind[1:]
	if id != "" {
		got, err := l.get(ctx, id)
		if err != nil {
			if platform.IsNotFound(err) {
				diags.AddAttributeError(path.Root("id"), title+" not found",
					fmt.Sprintf("No %s with id %q exists on %s.", l.kind, id, l.platformName))
				return found, false
			}
			addPlatformError(diags, "read", l.kind, id, err)
			return found, false
		}
		return *got, true
	}
	list, err := l.listNamed(ctx, name)
	if err != nil {
		addPlatformError(diags, "list", l.kind+"s", "", err)
		return found, false
	}
	found, err = pickByName(l.kind, name, list, l.nameOf, l.idOf)
	if err != nil {
		diags.AddAttributeError(path.Root("name"), title+" lookup failed", err.Error()+".")
		return found, false
	}
	return found, true
}
