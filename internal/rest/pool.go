package rest

import (
	"net/http"

	"github.com/hashicorp/go-cleanhttp"
)

// idleConnsPerHost is how many idle connections to a platform's API a
// client keeps for the next calls. Terraform runs 10 operations at once by
// default (-parallelism), and users raise it for large fleets; cleanhttp's
// pooled transport keeps GOMAXPROCS+1 (3 on a 2-CPU CI runner), so against
// an endpoint that speaks HTTP/1.1 (a proxy, a self-hosted API, the fakes)
// each round of 10 concurrent calls closed 7 connections and dialled 7 new
// ones, each a TCP (and TLS) handshake on the way. Over HTTP/2 one
// connection carries the concurrent calls and this changes nothing. Idle
// connections still close after the transport's IdleConnTimeout.
const idleConnsPerHost = 64

// pooledClient is the HTTP client a Client uses when its Config gives none.
func pooledClient() *http.Client {
	t := cleanhttp.DefaultPooledTransport()
	t.MaxIdleConnsPerHost = idleConnsPerHost
	if t.MaxIdleConns < idleConnsPerHost {
		t.MaxIdleConns = idleConnsPerHost
	}
	return &http.Client{Transport: t}
}
