package provider

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/redact"
)

// Defaults of sbx_sandbox_exec: how long a command may run, and how much of
// each output stream is kept and shown.
const (
	execDefaultTimeout = 5 * time.Minute
	execMaxOutput      = 64 << 10
)

var (
	_ action.Action                   = (*sandboxExecAction)(nil)
	_ action.ActionWithConfigure      = (*sandboxExecAction)(nil)
	_ action.ActionWithModifyPlan     = (*sandboxExecAction)(nil)
	_ action.ActionWithValidateConfig = (*sandboxExecAction)(nil)
)

// sandboxExecAction is the sbx_sandbox_exec action: it runs a command in a
// live sandbox when invoked and fails the apply when the command fails.
type sandboxExecAction struct {
	defs     []platform.Definition
	platform platform.Platform
}

// newSandboxExecAction returns the action for a provider offering defs
// (nil: the registered platforms).
func newSandboxExecAction(defs []platform.Definition) action.Action {
	return &sandboxExecAction{defs: defs}
}

// sandboxExecModel is the action's configuration.
type sandboxExecModel struct {
	SandboxID    types.String `tfsdk:"sandbox_id"`
	Command      types.List   `tfsdk:"command"`
	Env          types.Map    `tfsdk:"env"`
	WorkingDir   types.String `tfsdk:"working_dir"`
	Timeout      types.String `tfsdk:"timeout"`
	SuccessCodes types.List   `tfsdk:"success_exit_codes"`
}

var (
	pathExecEnv        = path.Root("env")
	pathExecWorkingDir = path.Root("working_dir")
)

func (a *sandboxExecAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_sandbox_exec"
}

func (a *sandboxExecAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	defs := definitionsOr(a.defs)
	runs := func(c platform.Capabilities) bool { return c.Exec.Runs }
	resp.Schema = schema.Schema{
		MarkdownDescription: "Runs a command in a running sandbox when invoked: with `terraform apply " +
			"-invoke=action.sbx_sandbox_exec.<name>`, or from a resource's `lifecycle { action_trigger { ... } }` (for " +
			"example after a box is created, to seed it). Terraform 1.14 or later; OpenTofu has no actions. It runs on platforms " +
			"that run commands" + platformsAside(defs, runs) + "; elsewhere the plan of an invocation fails, saying why.\n\n" +
			"The command runs once per invocation, without a shell, and is not undone by anything: make it safe to run " +
			"twice. The apply fails when it exits with a code not in `success_exit_codes`, or does not end within " +
			"`timeout`. Its output (up to 64 KiB of each stream) is shown as the invocation's progress, in the terminal and " +
			"in any log of the run.\n\n" +
			"**Secrets.** Give them through `env`, from a `sensitive` variable: the plan shows `(sensitive value)`, and " +
			"the values are masked (`***`) in the output shown and in every error. A saved plan file holds them, as it " +
			"holds every sensitive value. Nothing else is masked: a command that prints another secret (a variable of the " +
			"box's own environment, a file) shows it, and a secret written into `command` is in the plan.\n\n" +
			execPlatformNotes(defs),
		Attributes: map[string]schema.Attribute{
			"sandbox_id": schema.StringAttribute{
				MarkdownDescription: "Id of the sandbox to run the command in, usually `sbx_sandbox.<name>.id`. It must be running.",
				Required:            true,
				Validators:          []validator.String{objectIDValidator("sandbox")},
			},
			"command": schema.ListAttribute{
				MarkdownDescription: "The program and its arguments, e.g. `[\"/bin/sh\", \"-c\", \"make seed\"]`: run as given, " +
					"without a shell (use one explicitly, as here, for pipes and variables).",
				ElementType: types.StringType,
				Required:    true,
				Validators:  []validator.List{listvalidator.SizeAtLeast(1)},
			},
			"env": schema.MapAttribute{
				MarkdownDescription: "Environment variables added to the box's own for this command. Their values are " +
					"masked in the output and errors; pass secrets through a `sensitive` variable, so the plan hides them too " +
					"(an action's arguments cannot be write-only: Terraform does not pass ephemeral values to actions). " +
					execArgumentNotes(defs, func(e platform.ExecSupport) (bool, string) { return e.Env, e.NoEnvWhy }),
				ElementType: types.StringType,
				Optional:    true,
				Validators:  []validator.Map{sandboxEnvKeysValidator{}},
			},
			"working_dir": schema.StringAttribute{
				MarkdownDescription: "The directory the command runs in; the box's default when left out. " +
					execArgumentNotes(defs, func(e platform.ExecSupport) (bool, string) { return e.WorkingDir, e.NoWorkingDirWhy }),
				Optional: true,
			},
			"timeout": schema.StringAttribute{
				MarkdownDescription: "How long the command may run, as a duration such as `90s` or `10m`; default `5m`. " +
					"Past it the apply fails; whether the command goes on in the box depends on the platform (above).",
				Optional:   true,
				Validators: []validator.String{positiveDurationValidator{}},
			},
			"success_exit_codes": schema.ListAttribute{
				MarkdownDescription: "The exit codes that count as success; default `[0]`. Any other fails the apply, " +
					"with the command's last output.",
				ElementType: wholeNumber,
				Optional:    true,
				Validators:  []validator.List{listvalidator.SizeAtLeast(1)},
			},
		},
	}
}

func (a *sandboxExecAction) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.platform = platformFrom(req.ProviderData, &resp.Diagnostics)
}

// ValidateConfig judges what needs no platform: no empty program, no
// working_dir that is not absolute.
func (a *sandboxExecAction) ValidateConfig(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	var config sandboxExecModel
	resp.Diagnostics.Append(getConfig(ctx, req.Config, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !config.Command.IsUnknown() && len(config.Command.Elements()) > 0 {
		if first, ok := config.Command.Elements()[0].(types.String); ok && knownString(first) && strings.TrimSpace(first.ValueString()) == "" {
			resp.Diagnostics.AddAttributeError(path.Root("command").AtListIndex(0), "Empty program",
				"command[0] is the program to run and is empty: give its path or name, e.g. [\"/bin/sh\", \"-c\", \"...\"].")
		}
	}
	if dir := config.WorkingDir; knownString(dir) && !strings.HasPrefix(dir.ValueString(), "/") {
		resp.Diagnostics.AddAttributeError(pathExecWorkingDir, "Relative working_dir",
			fmt.Sprintf("working_dir = %q: give an absolute path in the box, such as /work.", dir.ValueString()))
	}
}

// ModifyPlan refuses, at plan time, what the platform cannot run: any
// command where it runs none, env or working_dir where it does not take
// them. It runs again at apply, with the values unknown at plan.
func (a *sandboxExecAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	if a.platform == nil {
		return
	}
	var config sandboxExecModel
	resp.Diagnostics.Append(getConfig(ctx, req.Config, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	execCheckSupport(a.platform.Name(), a.platform.Capabilities().Exec, config, &resp.Diagnostics)
}

// execCheckSupport is the plan-time judgement of ModifyPlan.
func execCheckSupport(platformName string, support platform.ExecSupport, config sandboxExecModel, diags *diag.Diagnostics) {
	if !support.Runs {
		diags.AddAttributeError(path.Root("sandbox_id"), "sbx_sandbox_exec is not supported on "+platformName,
			fmt.Sprintf("%s runs no command in a sandbox through the provider: %s.", platformName, support.Why))
		return
	}
	if !support.Env && !config.Env.IsNull() {
		diags.AddAttributeError(pathExecEnv, "env is not supported on "+platformName,
			fmt.Sprintf("env (values not shown) is not supported on %s: %s.", platformName, support.NoEnvWhy))
	}
	if !support.WorkingDir && !config.WorkingDir.IsNull() {
		diags.AddAttributeError(pathExecWorkingDir, "working_dir is not supported on "+platformName,
			fmt.Sprintf("working_dir = %s is not supported on %s: %s.", config.WorkingDir.String(), platformName, support.NoWorkingDirWhy))
	}
}

func (a *sandboxExecAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	if a.platform == nil {
		resp.Diagnostics.AddError("Provider not configured",
			"The sbx_sandbox_exec action ran before the provider was configured. This is a bug in the provider; please report it.")
		return
	}
	var config sandboxExecModel
	resp.Diagnostics.Append(getConfig(ctx, req.Config, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	support := a.platform.Capabilities().Exec
	execCheckSupport(a.platform.Name(), support, config, &resp.Diagnostics)
	runner := a.platform.Extensions().Exec
	if resp.Diagnostics.HasError() || runner == nil {
		if runner == nil && !resp.Diagnostics.HasError() {
			resp.Diagnostics.AddError("sbx_sandbox_exec is not supported on "+a.platform.Name(),
				"The platform says it runs commands but offers no way to. This is a bug in the provider; please report it.")
		}
		return
	}
	spec := platform.ExecSpec{
		Command:    listOfStrings(ctx, config.Command, &resp.Diagnostics),
		Env:        mapFromTF(ctx, config.Env, &resp.Diagnostics),
		WorkingDir: config.WorkingDir.ValueString(),
		Timeout:    execDefaultTimeout,
		MaxOutput:  execMaxOutput,
	}
	if d := durationFromTF(config.Timeout); d > 0 {
		spec.Timeout = d
	}
	success := []int64{0}
	if !config.SuccessCodes.IsNull() {
		resp.Diagnostics.Append(config.SuccessCodes.ElementsAs(ctx, &success, false)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	var secrets redact.Secrets
	secrets.EnvMap(spec.Env)
	id := config.SandboxID.ValueString()
	progress(resp, secrets.String(fmt.Sprintf("Running %s in sandbox %q on %s.", execShown(spec.Command), id, a.platform.Name())))

	ctx, cancel := context.WithTimeout(ctx, spec.Timeout)
	defer cancel()
	started := time.Now()
	result, err := runner.Exec(ctx, id, spec)
	if err != nil {
		var timeout *platform.ExecTimeoutError
		if errors.As(err, &timeout) {
			resp.Diagnostics.AddAttributeError(path.Root("timeout"), "Command timed out",
				secrets.String(fmt.Sprintf("%s in sandbox %q: %s. Raise timeout if it needs longer.", execShown(spec.Command), id, err)))
			return
		}
		addPlatformError(&resp.Diagnostics, "run a command in", "sandbox", id, secrets.Error(err))
		return
	}
	took := time.Since(started).Round(100 * time.Millisecond)
	for _, stream := range []struct {
		name string
		out  []byte
	}{{"stdout", result.Stdout}, {"stderr", result.Stderr}} {
		if len(stream.out) > 0 {
			progress(resp, secrets.String(fmt.Sprintf("%s:\n%s", stream.name, strings.TrimRight(string(stream.out), "\n"))))
		}
	}
	cut := ""
	if result.Truncated {
		cut = fmt.Sprintf(" (output past %d KiB per stream not shown)", execMaxOutput>>10)
	}
	if !slices.Contains(success, int64(result.ExitCode)) {
		resp.Diagnostics.AddError("Command failed",
			secrets.String(fmt.Sprintf("%s in sandbox %q exited with code %d after %s, not one of success_exit_codes %v%s.%s",
				execShown(spec.Command), id, result.ExitCode, took, success, cut, execTail(result))))
		return
	}
	progress(resp, fmt.Sprintf("Exited with code %d after %s%s.", result.ExitCode, took, cut))
}

// execShown is a command as the messages show it (before masking).
func execShown(command []string) string {
	quoted := make([]string, len(command))
	for i, a := range command {
		quoted[i] = strconv.Quote(a)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}

// execTail is the last lines of a failed command's output, for its error.
func execTail(r *platform.ExecResult) string {
	var b strings.Builder
	for _, stream := range []struct {
		name string
		out  []byte
	}{{"stderr", r.Stderr}, {"stdout", r.Stdout}} {
		lines := strings.Split(strings.TrimRight(string(stream.out), "\n"), "\n")
		if len(stream.out) == 0 {
			continue
		}
		if len(lines) > 20 {
			lines = lines[len(lines)-20:]
		}
		fmt.Fprintf(&b, "\n\nLast lines of %s:\n%s", stream.name, strings.Join(lines, "\n"))
	}
	return b.String()
}

// execPlatformNotes says, platform by platform, how a command is run or
// why it is not.
func execPlatformNotes(defs []platform.Definition) string {
	var sentences []string
	for _, def := range defs {
		if def.Capabilities == nil {
			continue
		}
		e := def.Capabilities().Exec
		switch {
		case e.Runs && e.Doc != "":
			sentences = append(sentences, def.Title+": "+e.Doc+".")
		case !e.Runs:
			sentences = append(sentences, def.Title+" refuses it at plan time: "+e.Why+".")
		}
	}
	return strings.Join(sentences, " ")
}

// execArgumentNotes names the platforms that refuse an argument of the
// action, with their reasons (supported reports whether a platform takes
// it, and why not).
func execArgumentNotes(defs []platform.Definition, supported func(platform.ExecSupport) (bool, string)) string {
	var sentences []string
	for _, def := range defs {
		if def.Capabilities == nil {
			continue
		}
		e := def.Capabilities().Exec
		if ok, why := supported(e); e.Runs && !ok {
			sentences = append(sentences, def.Title+" refuses it at plan time: "+why+".")
		}
	}
	return strings.Join(sentences, " ")
}

// listOfStrings is a list of strings as Go values.
func listOfStrings(ctx context.Context, l types.List, diags *diag.Diagnostics) []string {
	var out []string
	if l.IsNull() || l.IsUnknown() {
		return nil
	}
	diags.Append(l.ElementsAs(ctx, &out, false)...)
	return out
}
