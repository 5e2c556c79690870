/* host-wait: a GPU waited for the host. Its time is the GPU's host-wait
 * gaps (analysis/gaps.h: the call that launched the op after the gap
 * started after the gap began), over the GPU's span; the worst instance
 * is the longest such gap, the evidence the most frequent pattern of its
 * gaps: the ops either side and what the launching thread was doing. */
#include "config.h"
#include "analysis/findings.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/params.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/xalloc.h"

/* A gap's pattern: the names before and after, the host's call, and
 * whether the host was past it; at: the gap's place in the lane. */
struct pattern {
	uint32_t before, after, cpu, past;
	uint32_t at;
};

#define PATTERN_KEY offsetof(struct pattern, at)

static int by_pattern(const void *pa, const void *pb)
{
	const struct pattern *a = pa, *b = pb;
	int c = memcmp(a, b, PATTERN_KEY);
	return c ? c : (a->at > b->at) - (a->at < b->at);
}

/* The most frequent pattern of n gaps and how many share it (ties: the
 * one seen first in time, whatever the names' ids: a node group's and
 * the whole load's agree). */
static size_t most_frequent(struct pattern *p, size_t n, struct pattern *best)
{
	qsort(p, n, sizeof(*p), by_pattern);
	size_t most = 0;
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && memcmp(&p[j], &p[i], PATTERN_KEY) == 0; j++)
			;
		if (j - i > most || (j - i == most && p[i].at < best->at)) {
			most = j - i;
			*best = p[i];
		}
	}
	return most;
}

static void say_pattern(const struct trace *t, struct finding *f, size_t most, const struct pattern *b)
{
	const char *cpu = b->cpu != TRACE_NONE ? trace_str(t, b->cpu) : NULL;
	if (!cpu)
		finding_say(f, _("%zu of %llu gaps: %s -> %s, the host in no call"), most,
			    (unsigned long long)f->count, trace_str(t, b->before), trace_str(t, b->after));
	else
		finding_say(f,
			    b->past ? _("%zu of %llu gaps: %s -> %s, the host past %s")
				    : _("%zu of %llu gaps: %s -> %s while the host was in %s"),
			    most, (unsigned long long)f->count, trace_str(t, b->before),
			    trace_str(t, b->after), cpu);
}

/* The host-wait gaps of one lane (gaps[0, n) are its own). */
static void lane_finding(struct findings_ctx *c, const struct gap_lane *l, const struct gap *gaps, size_t n,
			 struct findings *out)
{
	int64_t span = gap_lane_span(l);
	if (findings_percent(l->cause_ns[GAP_HOST_WAIT], span) < c->ap->findings.host_wait_pct)
		return;
	struct gaps sub = { 0 };
	sub.gaps = xmalloc_array(n + 1, sizeof(*sub.gaps));
	for (size_t i = 0; i < n; i++)
		if (gaps[i].cause == GAP_HOST_WAIT)
			sub.gaps[sub.n++] = gaps[i];
	if (sub.n == 0) {
		free(sub.gaps);
		return;
	}
	struct finding *f = findings_add(out, FINDING_host_wait);
	f->gpu = l->lane;
	f->time_ns = l->cause_ns[GAP_HOST_WAIT];
	f->share = findings_percent(f->time_ns, span);
	f->count = sub.n;
	const struct gap *worst = &sub.gaps[0];
	for (size_t i = 1; i < sub.n; i++)
		if (sat_sub(sub.gaps[i].end, sub.gaps[i].start) > sat_sub(worst->end, worst->start))
			worst = &sub.gaps[i];
	f->start = worst->start;
	f->end = worst->end;
	struct gap_names names;
	gap_names_find(c->t, c->order, &sub, &names);
	struct pattern *p = xmalloc_array(sub.n, sizeof(*p)), best = { 0 };
	for (size_t i = 0; i < sub.n; i++)
		p[i] = (struct pattern){ names.before[i], names.after[i], names.cpu[i], names.cpu_after[i],
					 (uint32_t)i };
	size_t most = most_frequent(p, sub.n, &best);
	say_pattern(c->t, f, most, &best);
	free(p);
	gap_names_free(&names);
	free(sub.gaps);
}

void finding_host_wait(struct findings_ctx *c, struct findings *out)
{
	findings_each_lane(c, lane_finding, out);
}
