// Package fakeapi is the shared machinery of the platform fakes (e2bfake,
// daytonafake): strict, stateful test servers that check every request they
// receive and every response they write against the platform's official
// OpenAPI document.
//
// What lives here is what those fakes do the same way:
//   - Spec loads an official document and builds its kin-openapi router once
//     per test binary (the documents are thousands of lines and every test
//     starts its own fake), from $SBX_SPECS_DIR, the project's shared copy,
//     or a byte-identical testdata fallback whose checksum CheckCopies pins.
//   - API routes each request on it, validates each request and response,
//     records violations (reported through the test's Errorf as well),
//     counts requests per route, plays the fault queue of each route (a
//     status answer, which the fake builds with its platform's retry headers,
//     instead of handling; dropped connections before or after handling;
//     latency) and writes replies.
//   - UUID, Oldest and First are the small helpers every fake's state and
//     views need: ids as the platforms mint them, objects in creation order,
//     one object picked from a list view.
//
// What a platform does its own way stays in its fake and reaches API through
// Config: how a key is checked, the error body, what a 404 or 401 says,
// guards before faults and throttles after them, and the handlers.
package fakeapi
