package modalfake

import (
	"testing"

	modal "github.com/modal-labs/modal-client/go"
	pb "github.com/modal-labs/modal-client/go/proto/modal_proto"
)

// A list reports each box's name and the image it was made from
// (SandboxInfo's name and image_id), on both sandbox versions: the only
// answer that does, so the provider reads a foreign box's from it.
func TestSandboxListReportsNameAndImage(t *testing.T) {
	for _, tt := range []struct {
		name string
		v1   bool
	}{{"V2", false}, {"V1", true}} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.v1)
			f.w.Instant()
			sb := f.create(t, &modal.SandboxCreateParams{Name: "by-hand"})
			cp, creds := rawClient(t, f.w)
			list := cp.SandboxListV2
			if tt.v1 {
				list = cp.SandboxList
			}
			got, err := list(creds(f.ctx, "list"), pb.SandboxListRequest_builder{AppId: f.app.AppID}.Build())
			if err != nil {
				t.Fatal(err)
			}
			infos := got.GetSandboxes()
			if len(infos) != 1 || infos[0].GetId() != sb.SandboxID {
				t.Fatalf("list = %v, want %s alone", infos, sb.SandboxID)
			}
			if infos[0].GetName() != "by-hand" || infos[0].GetImageId() != f.image.ImageID {
				t.Errorf("listed name %q, image %q; want by-hand, %s", infos[0].GetName(), infos[0].GetImageId(), f.image.ImageID)
			}
		})
	}
}
