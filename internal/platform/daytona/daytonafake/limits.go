package daytonafake

import "net/http"

// perSandboxLimitMessage is PER_SANDBOX_LIMIT_MESSAGE
// (common/constants/error-messages.ts:11-12).
const perSandboxLimitMessage = "Need higher resource limits per-sandbox? Contact us at support@daytona.io and let us know about your use case."

// checkPerSandboxLimits applies the organization's per-sandbox limits
// (Options.MaxCPUPerSandbox and friends; 0 = no limit) with the server's
// messages: snapshot create (snapshot.service.ts:626-645), sandbox create
// and start (sandbox.service.ts:211-227) and resize (2519-2537). The
// organization's total quotas are not modelled.
func (s *Server) checkPerSandboxLimits(cpu, memGB, diskGB int) (reply, bool) {
	if limit := s.opts.MaxCPUPerSandbox; limit > 0 && cpu > limit {
		return errorReply(http.StatusBadRequest, "CPU request %d exceeds maximum allowed per sandbox (%d).\n%s", cpu, limit, perSandboxLimitMessage), false
	}
	if limit := s.opts.MaxMemoryGBPerSandbox; limit > 0 && memGB > limit {
		return errorReply(http.StatusBadRequest, "Memory request %dGB exceeds maximum allowed per sandbox (%dGB).\n%s", memGB, limit, perSandboxLimitMessage), false
	}
	if limit := s.opts.MaxDiskGBPerSandbox; limit > 0 && diskGB > limit {
		return errorReply(http.StatusBadRequest, "Disk request %dGB exceeds maximum allowed per sandbox (%dGB).\n%s", diskGB, limit, perSandboxLimitMessage), false
	}
	return reply{}, true
}
