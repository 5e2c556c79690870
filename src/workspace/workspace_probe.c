#include "config.h"
#include "session/session.h"

#include "load/call_probe.h"
#include "load/launch.h"

int session_launch_dims(const struct session *s, uint32_t op, struct launch_dims *out)
{
	return load_launch_dims(session_trace(s), op, out);
}

int session_probe_calls(struct session *s, struct call_probe *p, size_t n, struct rpd_error *err)
{
	return trace_probe_calls(&s->views[0].trace, p, n, err);
}
