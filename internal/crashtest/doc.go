// Package crashtest holds the crash-safety tests of applies: an apply
// interrupted (SIGINT) or killed (SIGKILL) while it creates sandboxes and
// volumes, with its state file whole or torn in the middle of a write, then
// applied again (from terraform.tfstate.backup where the state is torn),
// through the real terraform CLI and the built provider binary, on Docker
// and on every platform's fake. The package has tests only.
package crashtest
