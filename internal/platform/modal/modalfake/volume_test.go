package modalfake

import (
	"errors"
	"strings"
	"testing"

	modal "github.com/modal-labs/modal-client/go"
)

func TestVolumes(t *testing.T) {
	w := srv.NewWorkspace(t)
	c := newClient(t, w, false)
	ctx := ctxOf(t)
	if _, err := c.Volumes.FromName(ctx, "data", nil); !errors.As(err, new(modal.NotFoundError)) {
		t.Errorf("lookup of a missing volume: %v", err)
	}
	v, err := c.Volumes.FromName(ctx, "data", &modal.VolumeFromNameParams{CreateIfMissing: true})
	if err != nil || !strings.HasPrefix(v.VolumeID, "vo-") {
		t.Fatalf("create: %v, %v", v, err)
	}
	if view, ok := w.Volume("data"); !ok || view.ID != v.VolumeID || view.Version != 2 {
		t.Errorf("view %+v", view)
	}
	again, err := c.Volumes.FromName(ctx, "data", &modal.VolumeFromNameParams{CreateIfMissing: true})
	if err != nil || again.VolumeID != v.VolumeID {
		t.Errorf("CREATE_IF_MISSING on an existing volume: %v, %v; want it adopted", again, err)
	}
	theirs := w.CreateVolume("theirs")
	if got, err := c.Volumes.FromName(ctx, "theirs", nil); err != nil || got.VolumeID != theirs {
		t.Errorf("out-of-band volume: %v, %v", got, err)
	}
	if _, err := c.Volumes.FromName(ctx, "bad name!", &modal.VolumeFromNameParams{CreateIfMissing: true}); err == nil || !strings.Contains(err.Error(), "InvalidArgument") {
		t.Errorf("bad name: %v", err)
	}
	if err := c.Volumes.Delete(ctx, "data", nil); err != nil {
		t.Fatal(err)
	}
	if _, ok := w.Volume("data"); ok {
		t.Error("volume still there after delete")
	}
	if err := c.Volumes.Delete(ctx, "data", nil); !errors.As(err, new(modal.NotFoundError)) {
		t.Errorf("second delete: %v", err)
	}
}
