/* The detail line's facts, as text. */
#include "config.h"
#include "tui/timeline/facts.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/i18n.h"
#include "util/satmath.h"
#include "util/units.h"

void tl_fields_init(struct tl_fields *f)
{
	f->used = 0;
	f->n = 0;
}

void tl_fields_add(struct tl_fields *f, const char *fmt, ...)
{
	char buf[TL_FIELDS_TEXT];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	const char *s = buf + strspn(buf, " ");
	size_t len = strlen(s);
	if (!len || f->n >= TL_FIELDS_MAX || len + 1 > sizeof(f->text) - f->used)
		return;
	memcpy(f->text + f->used, s, len + 1);
	f->at[f->n++] = f->used;
	f->used += len + 1;
}

const char *tl_fields_get(const struct tl_fields *f, int i)
{
	return f->text + f->at[i];
}

void tl_facts_sizes(const struct launch_dims *dims, struct tl_fields *f)
{
	if (!dims)
		return;
	const int64_t *g = dims->grid, *w = dims->workgroup;
	tl_fields_add(f, _("grid %lldx%lldx%lld"), (long long)g[0], (long long)g[1], (long long)g[2]);
	tl_fields_add(f, _("workgroup %lldx%lldx%lld"), (long long)w[0], (long long)w[1], (long long)w[2]);
}

void tl_facts_latency(const struct trace *t, uint32_t op, const struct graph_place *node, int64_t dt,
		      struct tl_fields *f)
{
	uint32_t api = trace_op_launch(t, op);
	if (api == TRACE_NONE)
		return;
	char latency[UNITS_BUFSZ], delay[UNITS_BUFSZ];
	/* Where a node starts is its place in the replay: no launch cost. */
	if (node && node->call == api) {
		tl_fields_add(f, _("node %llu of %llu of replay %llu of %llu"),
			      (unsigned long long)node->node, (unsigned long long)node->nodes,
			      (unsigned long long)node->replay, (unsigned long long)node->replays);
		return;
	}
	int64_t s = t->ops.start[op];
	tl_fields_add(f, _("latency %s"),
		      units_format_exact(sat_sub(s, t->apis.start[api]), dt, latency, sizeof(latency)));
	tl_fields_add(f, _("queue delay %s"),
		      units_format_exact(sat_sub(s, t->apis.end[api]), dt, delay, sizeof(delay)));
}

void tl_facts_launcher(const struct trace *t, uint32_t op, int64_t origin, int64_t dt, struct tl_fields *f)
{
	uint32_t api = trace_op_launch(t, op);
	if (api == TRACE_NONE)
		return;
	char at[UNITS_BUFSZ + 2];
	tl_fields_add(f, _("launched by %s at %s"), trace_str(t, trace_api_shown_name(t, api)),
		      units_format_relative(sat_sub(t->apis.start[api], origin), dt, at, sizeof(at)));
}

const char *tl_facts_counter(const struct trace *t, const struct counter_index *ix, uint32_t series,
			     int64_t at, int64_t from, int64_t to, char *line, size_t size)
{
	const struct trace_counter *c = &t->counters.series[series];
	const char *unit = c->unit == TRACE_NONE ? NULL : trace_str(t, c->unit);
	char now[64] = "-", top[64] = "-", gpu[96];
	double v;
	if (counter_at(ix, series, at, &v))
		counter_format(v, unit, now, sizeof(now));
	if (counter_max(ix, series, from, to, &v))
		counter_format(v, unit, top, sizeof(top));
	trace_device_label(t, c->domain, c->input, c->device, gpu, sizeof(gpu));
	snprintf(line, size, _("  value %s  max in view %s  GPU %s"), now, top, gpu);
	return trace_str(t, c->name);
}

/* A rate with four significant digits at least, never in exponent form
 * ("12.91", "0.001667", "2048"). */
static const char *rate_text(double v, char *buf, size_t size)
{
	int decimals = 3;
	for (double x = v; x >= 10 && decimals > 0; x /= 10)
		decimals--;
	for (double x = v; x > 0 && x < 1 && decimals < 12; x *= 10)
		decimals++;
	snprintf(buf, size, "%.*f", decimals, v);
	return buf;
}

void tl_facts_copy(const struct trace *t, uint32_t op, struct tl_fields *f)
{
	uint32_t k = t->ops.kind[op] == OP_COPY ? trace_copy_find(&t->copies, op) : TRACE_NONE;
	if (k == TRACE_NONE)
		return;
	const struct trace_copies *c = &t->copies;
	int64_t dur = t->ops.end[op] - t->ops.start[op];
	char rate[64];
	tl_fields_add(f, _("%lld bytes"), (long long)c->bytes[k]);
	/* Bytes per ns are GB/s (10^9 bytes per second). */
	if (dur > 0)
		tl_fields_add(f, _("%s GB/s"),
			      rate_text((double)c->bytes[k] / (double)dur, rate, sizeof(rate)));
	if (c->src[k] != TRACE_NONE && c->dst[k] != TRACE_NONE)
		tl_fields_add(f, _("from %s to %s"), trace_str(t, c->src[k]), trace_str(t, c->dst[k]));
}

const char *tl_gap_cause_text(enum gap_cause c)
{
	switch (c) {
	case GAP_HOST_WAIT:
		return _("host wait");
	case GAP_KERNEL_WAIT:
		return _("kernel wait");
	case GAP_GRAPH:
		return _("graph");
	default:
		return _("other");
	}
}

void tl_facts_idle_end(const struct trace *t, const struct gap_lane *l, int64_t from, int64_t to, int leading,
		       int64_t origin, int64_t dt, char *buf, size_t size)
{
	char len[UNITS_BUFSZ], a[UNITS_BUFSZ + 2], b[UNITS_BUFSZ + 2], gpu[96];
	trace_gpu_label(t, l->lane, gpu, sizeof(gpu));
	units_format_exact(to - from, dt, len, sizeof(len));
	units_format_relative(from - origin, dt, a, sizeof(a));
	units_format_relative(to - origin, dt, b, sizeof(b));
	if (leading)
		snprintf(buf, size, _("  leading idle %s  %s to %s  GPU %s before its first op"), len, a, b,
			 gpu);
	else
		snprintf(buf, size, _("  trailing idle %s  %s to %s  GPU %s after its last op"), len, a, b,
			 gpu);
}

void tl_facts_gap(const struct trace *t, const struct gap *g, const char *before, const char *after,
		  int64_t origin, int64_t dt, char *buf, size_t size)
{
	char len[UNITS_BUFSZ], from[UNITS_BUFSZ + 2], to[UNITS_BUFSZ + 2], gpu[96];
	trace_gpu_label(t, g->lane, gpu, sizeof(gpu));
	snprintf(buf, size, _("  gap %s (%s)  %s to %s  GPU %s  after %s before %s"),
		 units_format_exact(sat_sub(g->end, g->start), dt, len, sizeof(len)),
		 tl_gap_cause_text(g->cause),
		 units_format_relative(sat_sub(g->start, origin), dt, from, sizeof(from)),
		 units_format_relative(sat_sub(g->end, origin), dt, to, sizeof(to)), gpu, before, after);
}
