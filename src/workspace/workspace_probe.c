/* What a workspace asks its inputs when the trace in memory does not hold
 * it: the host's calls at moments, a kernel's launch sizes. */
#include "config.h"
#include "workspace/workspace.h"

#include "load/call_probe.h"
#include "load/launch.h"

int workspace_launch_dims(const struct workspace *w, uint32_t op, struct launch_dims *out)
{
	return load_launch_dims(session_trace(&w->session), op, out);
}

int workspace_probe_calls(struct workspace *w, struct call_probe *p, size_t n, struct rpd_error *err)
{
	return trace_probe_calls(&w->session.views[0].trace, p, n, err);
}
