// Command floorprovider serves sbx's provider and resource schemas with no
// provider logic behind them: no plan modifiers, no validators, no API.
// Create and Update store the plan (unknowns become null, an id is made
// up), Read keeps the state. `make bench-scale` runs it as the same-schema
// floor: what Terraform and the plugin framework cost for objects of this
// shape, so the provider's own cost is what it spends above this floor.
// With SBX_FLOOR_WAITS (waits.go) each operation also waits as long as the
// provider's API calls there take, without spending CPU on them.
package main

import (
	"context"
	"log"
	"os"
	"strconv"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/sbxhq/terraform-provider-sbx/internal/cpuprofile"
	sbx "github.com/sbxhq/terraform-provider-sbx/internal/provider"
)

func main() {
	w, err := parseWaits(os.Getenv(waitsEnv))
	if err != nil {
		log.Fatal(err.Error())
	}
	stopProfile := cpuprofile.Start()
	err = providerserver.Serve(context.Background(), func() provider.Provider {
		return &floorProvider{real: sbx.New("floor")(), waits: w}
	}, providerserver.ServeOpts{Address: "registry.terraform.io/sbxhq/sbx"})
	stopProfile()
	if err != nil {
		log.Fatal(err.Error())
	}
}

// floorProvider answers with the real provider's schema and configures
// nothing; its resources wait as waits says.
type floorProvider struct {
	real  provider.Provider
	waits waits
}

var _ provider.Provider = (*floorProvider)(nil)

func (p *floorProvider) Metadata(ctx context.Context, req provider.MetadataRequest, resp *provider.MetadataResponse) {
	p.real.Metadata(ctx, req, resp)
}

func (p *floorProvider) Schema(ctx context.Context, req provider.SchemaRequest, resp *provider.SchemaResponse) {
	p.real.Schema(ctx, req, resp)
}

func (p *floorProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

func (p *floorProvider) Resources(ctx context.Context) []func() resource.Resource {
	var out []func() resource.Resource
	for _, newReal := range p.real.Resources(ctx) {
		out = append(out, func() resource.Resource { return &floorResource{real: newReal(), waits: p.waits} })
	}
	return out
}

func (p *floorProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

// floorResource has a real resource's schema, stripped of plan modifiers
// and validators, and stores what it is given after its wait.
type floorResource struct {
	real  resource.Resource
	waits waits
}

var _ resource.Resource = (*floorResource)(nil)

func (r *floorResource) Metadata(ctx context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	r.real.Metadata(ctx, req, resp)
}

func (r *floorResource) Schema(ctx context.Context, req resource.SchemaRequest, resp *resource.SchemaResponse) {
	r.real.Schema(ctx, req, resp)
	resp.Schema = stripped(resp.Schema)
}

func (r *floorResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	wait(ctx, r.waits.create)
	resp.State.Raw = known(req.Plan.Raw)
}

func (r *floorResource) Read(ctx context.Context, _ resource.ReadRequest, _ *resource.ReadResponse) {
	wait(ctx, r.waits.read)
}

func (r *floorResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	wait(ctx, r.waits.update)
	resp.State.Raw = known(req.Plan.Raw)
}

func (r *floorResource) Delete(ctx context.Context, _ resource.DeleteRequest, _ *resource.DeleteResponse) {
	wait(ctx, r.waits.delete)
}

// lastID numbers the ids the floor makes up.
var lastID atomic.Int64

// known turns a plan into a state: an unknown id gets a made-up one, any
// other unknown becomes null.
func known(plan tftypes.Value) tftypes.Value {
	v, err := tftypes.Transform(plan, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if v.IsKnown() {
			return v, nil
		}
		if p.Equal(tftypes.NewAttributePath().WithAttributeName("id")) {
			return tftypes.NewValue(tftypes.String, "floor-"+strconv.FormatInt(lastID.Add(1), 10)), nil
		}
		return tftypes.NewValue(v.Type(), nil), nil
	})
	if err != nil {
		log.Fatal(err.Error())
	}
	return v
}
