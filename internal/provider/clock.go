package provider

import "time"

// now is the provider's clock. Everything that compares against the current
// time (snapshot expiry, retention deadlines) reads it through this variable,
// so tests move time by replacing it instead of sleeping.
var now = time.Now
