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

/* The lanes whose host-wait share makes a finding, and their host-wait
 * gaps, lane after lane: the host's calls at them are found in one go. */
struct waits {
	struct gaps sub;
	const struct gap_lane **lane;
	size_t *first; /* lane k's gaps: sub.gaps[first[k], first[k + 1]) */
	size_t nlanes;
};

static void lane_waits(struct findings_ctx *c, const struct gap_lane *l, const struct gap *gaps, size_t n,
		       void *arg)
{
	struct waits *w = arg;
	if (findings_percent(l->cause_ns[GAP_HOST_WAIT], gap_lane_span(l)) < c->ap->findings.host_wait_pct)
		return;
	size_t from = w->sub.n;
	for (size_t i = 0; i < n; i++)
		if (gaps[i].cause == GAP_HOST_WAIT)
			w->sub.gaps[w->sub.n++] = gaps[i];
	if (w->sub.n == from)
		return;
	w->lane[w->nlanes] = l;
	w->first[++w->nlanes] = w->sub.n;
}

/* One lane's finding: its host-wait gaps are sub.gaps[from, to). */
static void lane_finding(struct findings_ctx *c, const struct gap_lane *l, const struct waits *w,
			 const struct gap_names *names, size_t from, size_t to, struct findings *out)
{
	const struct gap *gaps = w->sub.gaps + from;
	size_t n = to - from;
	struct finding *f = findings_add(out, FINDING_host_wait);
	f->gpu = l->lane;
	f->time_ns = l->cause_ns[GAP_HOST_WAIT];
	f->share = findings_percent(f->time_ns, gap_lane_span(l));
	f->count = n;
	const struct gap *worst = &gaps[0];
	for (size_t i = 1; i < n; i++)
		if (sat_sub(gaps[i].end, gaps[i].start) > sat_sub(worst->end, worst->start))
			worst = &gaps[i];
	f->start = worst->start;
	f->end = worst->end;
	struct pattern *p = xmalloc_array(n, sizeof(*p)), best = { 0 };
	for (size_t i = 0; i < n; i++)
		p[i] = (struct pattern){ names->before[from + i], names->after[from + i],
					 names->cpu[from + i], names->cpu_after[from + i], (uint32_t)i };
	size_t most = most_frequent(p, n, &best);
	say_pattern(c->t, f, most, &best);
	free(p);
}

void finding_host_wait(struct findings_ctx *c, struct findings *out)
{
	const struct gaps *g = findings_ctx_gaps(c);
	struct waits w = { 0 };
	w.sub.gaps = xmalloc_array(g->n + 1, sizeof(*w.sub.gaps));
	w.lane = xmalloc_array(g->nlanes + 1, sizeof(*w.lane));
	w.first = xcalloc(g->nlanes + 2, sizeof(*w.first));
	findings_each_lane(c, lane_waits, &w);
	if (w.nlanes) {
		struct gap_names names;
		gap_names_find(c->t, c->order, &w.sub, &names);
		for (size_t k = 0; k < w.nlanes; k++)
			lane_finding(c, w.lane[k], &w, &names, w.first[k], w.first[k + 1], out);
		gap_names_free(&names);
	}
	free(w.first);
	free(w.lane);
	free(w.sub.gaps);
}
