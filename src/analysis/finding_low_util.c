/* low-util: stretches where a GPU was mostly idle. The GPU's span (its
 * first op's start to its last op's end in view) is cut in 100 equal
 * chunks (chunk k from first + span * k / 100, in whole ns); a chunk is
 * busy where no gap of the GPU covers it (analysis/gaps.h, whatever their
 * cause); runs of chunks less than low_util_busy_pct busy make
 * stretches, and a stretch of low_util_pct of the span or more is a
 * finding: its time the idle time inside it, its share of the GPU's span,
 * its count its chunks, its worst instance the stretch. */
#include "config.h"
#include "analysis/findings.h"

#include "analysis/params.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/units.h"

#define LOW_UTIL_CHUNKS 100

static int64_t bound(const struct gap_lane *l, int k)
{
	return l->first + (int64_t)((__int128)gap_lane_span(l) * k / LOW_UTIL_CHUNKS);
}

static void stretch(struct findings_ctx *c, const struct gap_lane *l, int from, int to, const int64_t *idle,
		    struct findings *out)
{
	int64_t a = bound(l, from), b = bound(l, to), span = gap_lane_span(l), lost = 0;
	if (findings_percent(sat_sub(b, a), span) < c->ap->findings.low_util_pct)
		return;
	for (int k = from; k < to; k++)
		lost = sat_add(lost, idle[k]);
	struct finding *f = findings_add(out, FINDING_low_util);
	f->gpu = l->lane;
	f->time_ns = lost;
	f->share = findings_percent(lost, span);
	f->count = (uint64_t)(to - from);
	f->start = a;
	f->end = b;
	char len[32];
	finding_say(f, _("for %s (%d of its span's 100 chunks) the GPU was %.1f %% busy"),
		    units_format_ns(sat_sub(b, a), len, sizeof(len)), to - from,
		    100.0 - findings_percent(lost, sat_sub(b, a)));
}

/* One lane: the idle time of each chunk from its gaps g[0..n), then the
 * stretches. */
static void lane(struct findings_ctx *c, const struct gap_lane *l, const struct gap *g, size_t n, void *arg)
{
	struct findings *out = arg;
	int64_t idle[LOW_UTIL_CHUNKS] = { 0 };
	if (gap_lane_span(l) < LOW_UTIL_CHUNKS)
		return;
	size_t i = 0;
	for (int k = 0; k < LOW_UTIL_CHUNKS; k++) {
		int64_t a = bound(l, k), b = bound(l, k + 1);
		/* Gaps by start: those ending before a are done with. */
		while (i < n && g[i].end <= a)
			i++;
		for (size_t j = i; j < n && g[j].start < b; j++) {
			int64_t s = g[j].start > a ? g[j].start : a, e = g[j].end < b ? g[j].end : b;
			if (e > s)
				idle[k] = sat_add(idle[k], sat_sub(e, s));
		}
	}
	int from = -1;
	for (int k = 0; k <= LOW_UTIL_CHUNKS; k++) {
		int low = k < LOW_UTIL_CHUNKS &&
			  findings_percent(sat_sub(sat_sub(bound(l, k + 1), bound(l, k)), idle[k]),
					   sat_sub(bound(l, k + 1), bound(l, k))) <
				  c->ap->findings.low_util_busy_pct;
		if (low && from < 0)
			from = k;
		if (!low && from >= 0) {
			stretch(c, l, from, k, idle, out);
			from = -1;
		}
	}
}

void finding_low_util(struct findings_ctx *c, struct findings *out)
{
	findings_each_lane(c, lane, out);
}
