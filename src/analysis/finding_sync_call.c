/* sync-call: a blocking call on the launching thread left the GPU idle.
 * Of a GPU's host-wait gaps (analysis/gaps.h), those that began while the
 * thread that launched the op after the gap was in a blocking call count
 * for that call's name: the call that thread was in when the gap began is
 * its last call to start at or before it (in its API order), when it had
 * not ended by then. Blocking: the copies and fills that wait for the GPU
 * (hipMemcpy, hipMemcpyWithStream, hipMemset and their CUDA and driver
 * twins), every *Synchronize call of HIP, CUDA or the CUDA driver, and
 * hipStreamWaitEvent / cudaStreamWaitEvent; a version suffix (_v3020, as
 * Nsight Systems names them) is ignored. Per GPU and name, the gaps' time,
 * reported when it is sync_call_pct of the GPU's span or more; the worst
 * instance is the longest gap. */
#include "config.h"
#include "analysis/findings.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/params.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/sort.h"
#include "util/units.h"
#include "util/xalloc.h"

static int blocking_name(const char *s)
{
	static const char *const names[] = {
		"hipMemcpy",     "hipMemcpyWithStream", "hipMemcpyHtoD",       "hipMemcpyDtoH",
		"hipMemcpyDtoD", "hipMemcpy2D",         "hipMemset",           "hipMemsetD8",
		"hipMemsetD16",  "hipMemsetD32",        "hipStreamWaitEvent",  "cudaMemcpy",
		"cudaMemcpy2D",  "cudaMemset",          "cudaStreamWaitEvent", "cuMemcpy",
		"cuMemcpyHtoD",  "cuMemcpyDtoH",        "cuMemcpyDtoD",        "cuMemsetD8",
		"cuMemsetD16",   "cuMemsetD32",         "cuStreamWaitEvent",
	};
	size_t n = strlen(s);
	/* Nsight Systems' version suffix: _v3020, _v2. */
	const char *v = strrchr(s, '_');
	if (v && v[1] == 'v' && v[2] && strspn(v + 2, "0123456789") == strlen(v + 2))
		n = (size_t)(v - s);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == n && strncmp(s, names[i], n) == 0)
			return 1;
	static const char sync[] = "Synchronize";
	return (strncmp(s, "hip", 3) == 0 || strncmp(s, "cu", 2) == 0) && n >= sizeof(sync) - 1 &&
	       strncmp(s + n - (sizeof(sync) - 1), sync, sizeof(sync) - 1) == 0;
}

/* The call thread k was in at time x (its last call to start at or before
 * x, unless it had ended), or TRACE_NONE. */
static uint32_t call_at(const struct trace *t, const struct api_order *o, uint32_t k, int64_t x)
{
	size_t lo = o->first[k], hi = o->first[k + 1];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->apis.start[o->rows[mid]] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == o->first[k])
		return TRACE_NONE;
	uint32_t api = o->rows[lo - 1];
	return t->apis.end[api] > x ? api : TRACE_NONE;
}

/* One call name's gaps on one GPU: all[idx[0..n)], by start. */
static void group(struct findings_ctx *c, const struct gap_item *all, const uint32_t *idx, size_t n,
		  int64_t span, struct findings *out)
{
	const struct gap_item *worst;
	int64_t sum = gap_items_sum(all, idx, n, &worst);
	if (findings_percent(sum, span) < c->ap->findings.sync_call_pct)
		return;
	int64_t *len = xmalloc_array(n, sizeof(*len));
	for (size_t i = 0; i < n; i++)
		len[i] = sat_sub(all[idx[i]].end, all[idx[i]].start);
	sort_int64(len, n);
	struct finding *f = findings_add(out, FINDING_sync_call);
	f->gpu = worst->gpu;
	f->name = worst->key;
	f->time_ns = sum;
	f->share = findings_percent(sum, span);
	f->count = n;
	f->start = worst->start;
	f->end = worst->end;
	char m[32], w[32];
	finding_say(f, _("%zu host-wait gaps began in %s on the launching thread: median %s, the longest %s"),
		    n, trace_str(c->t, worst->key), units_format_ns(len[(n + 1) / 2 - 1], m, sizeof(m)),
		    units_format_ns(sat_sub(worst->end, worst->start), w, sizeof(w)));
	free(len);
}

void finding_sync_call(struct findings_ctx *c, struct findings *out)
{
	const struct trace *t = c->t;
	const struct gaps *g = findings_ctx_gaps(c);
	if (!c->order || c->order->napis != t->apis.n || g->n == 0)
		return;
	uint8_t *blocking = xcalloc(t->strings.count ? t->strings.count : 1, 1); /* 1 no, 2 yes */
	struct gap_item *v = xmalloc_array(g->n, sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < g->n; i++) {
		const struct gap *x = &g->gaps[i];
		uint32_t launch = x->cause == GAP_HOST_WAIT ? trace_op_launch(t, x->after) : TRACE_NONE;
		uint32_t api = launch != TRACE_NONE ? call_at(t, c->order, t->apis.thread[launch], x->start)
						    : TRACE_NONE;
		if (api == TRACE_NONE)
			continue;
		uint32_t name = t->apis.name[api];
		if (!blocking[name])
			blocking[name] = trace_api_texted(t, api) ? 1 : 1 + blocking_name(trace_str(t, name));
		if (blocking[name] == 2)
			v[n++] = (struct gap_item){ x->lane, name, api, x->start, x->end };
	}
	findings_gap_groups(c, v, n, group, out);
	free(v);
	free(blocking);
}
