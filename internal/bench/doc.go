// Package bench holds what `make bench-scale` runs besides terraform: a
// stand-in for a platform's API that answers every request late, as a real
// API across a network does, and counts the requests it answered, so the
// benchmark can tell the provider's own cost from the API's floor.
package bench
