package main

import (
	"context"
	"fmt"
	"sync"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// frameworkServer is every RPC the framework's protocol 6 server answers:
// the core interface and the optional ones tf6server looks for by type
// assertion. A wrapper must keep them all, or Terraform would be told the
// provider has no list resources or actions.
type frameworkServer interface {
	tfprotov6.ProviderServer
	tfprotov6.ListResourceServer
	tfprotov6.ActionServer
	tfprotov6.StateStoreServer
}

// applyGate serves the framework's server and keeps count of the applies
// in flight, so that a provider whose Terraform was killed ends only once
// they have: an apply cancelled with Terraform's connection may still be
// removing what it half made, on a context of its own (a container that
// failed to start, a build's step images), and exiting under it would
// leave those behind.
type applyGate struct {
	frameworkServer
	inFlight sync.RWMutex
}

// newApplyGate wraps server, which must answer every RPC frameworkServer
// names.
func newApplyGate(server tfprotov6.ProviderServer) (*applyGate, error) {
	full, ok := server.(frameworkServer)
	if !ok {
		return nil, fmt.Errorf("the framework's server (%T) no longer answers every RPC the provider serves", server)
	}
	return &applyGate{frameworkServer: full}, nil
}

func (g *applyGate) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	g.inFlight.RLock()
	defer g.inFlight.RUnlock()
	return g.frameworkServer.ApplyResourceChange(ctx, req)
}

// drain waits for the applies in flight to end and lets no other start.
func (g *applyGate) drain() { g.inFlight.Lock() }
