#include "config.h"
#include "trace/counters.h"

#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"
#include "util/sort.h"
#include "util/xalloc.h"

void trace_counters_free(struct trace_counters *c)
{
	free(c->series);
	free(c->of);
	free(c->start);
	free(c->end);
	free(c->value);
	memset(c, 0, sizeof(*c));
}

/* Series are few (a counter per GPU): a scan finds one. */
static uint32_t find_series(const struct trace_counters *c, const struct trace_counter *want)
{
	for (size_t i = 0; i < c->nseries; i++) {
		const struct trace_counter *s = &c->series[i];
		if (s->domain == want->domain && s->device == want->device && s->name == want->name &&
		    s->source == want->source)
			return (uint32_t)i;
	}
	return TRACE_NONE;
}

static uint32_t add_series(struct trace_counters *c, const struct trace_counter *s)
{
	uint32_t i = find_series(c, s);
	if (i != TRACE_NONE) {
		/* A unit another input did not know. */
		if (c->series[i].unit == TRACE_NONE)
			c->series[i].unit = s->unit;
		return i;
	}
	c->series = xgrow(c->series, &c->series_cap, c->nseries + 1, sizeof(*c->series));
	c->series[c->nseries] = *s;
	return (uint32_t)c->nseries++;
}

uint32_t trace_counter_series(struct trace *t, uint32_t input, int64_t device, uint32_t name, uint32_t unit,
			      int source)
{
	trace_own_apis(t);
	struct trace_counter s = { .domain = t->inputs[input].domain,
				   .input = input,
				   .device = device,
				   .name = name,
				   .unit = unit,
				   .source = source };
	return add_series(&t->counters, &s);
}

static void grow(struct trace_counters *c)
{
	if (c->n < c->cap)
		return;
	c->cap = c->cap < 256 ? 256 : c->cap + c->cap / 2;
	c->of = xrealloc_array(c->of, c->cap, sizeof(*c->of));
	c->start = xrealloc_array(c->start, c->cap, sizeof(*c->start));
	c->end = xrealloc_array(c->end, c->cap, sizeof(*c->end));
	c->value = xrealloc_array(c->value, c->cap, sizeof(*c->value));
}

static void add_sample(struct trace_counters *c, uint32_t series, int64_t start, int64_t end, double value)
{
	grow(c);
	c->of[c->n] = series;
	c->start[c->n] = start;
	c->end[c->n] = end;
	c->value[c->n++] = value;
}

void trace_add_counter(struct trace *t, uint32_t series, int64_t start, int64_t end, double value)
{
	trace_own_apis(t);
	add_sample(&t->counters, series, start, end, value);
}

static int by_series_time(const void *a, const void *b, void *ctx)
{
	const struct trace_counters *c = ctx;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	if (c->of[x] != c->of[y])
		return c->of[x] < c->of[y] ? -1 : 1;
	if (c->start[x] != c->start[y])
		return c->start[x] < c->start[y] ? -1 : 1;
	return (x > y) - (x < y);
}

void trace_counters_hold(struct trace_counters *c, size_t first)
{
	size_t n = 0;
	for (size_t i = first; i < c->n; i++)
		n += c->series[c->of[i]].source == COUNTER_SAMPLED;
	if (n == 0)
		return;
	size_t *v = xmalloc_array(n, sizeof(*v));
	n = 0;
	for (size_t i = first; i < c->n; i++)
		if (c->series[c->of[i]].source == COUNTER_SAMPLED)
			v[n++] = i;
	sort_with(v, n, sizeof(*v), by_series_time, c);
	for (size_t k = 0; k < n; k++) {
		size_t i = v[k], next = k + 1 < n && c->of[v[k + 1]] == c->of[i] ? v[k + 1] : SIZE_MAX;
		c->end[i] =
			next != SIZE_MAX && c->start[next] > c->start[i] ? c->start[next] : c->start[i] + 1;
	}
	free(v);
}

void trace_counters_merge(struct trace *t, const struct trace_counters *src, const uint32_t *str,
			  const uint32_t *input)
{
	trace_own_apis(t);
	if (src->nseries == 0)
		return;
	uint32_t *map = xmalloc_array(src->nseries, sizeof(*map));
	for (size_t i = 0; i < src->nseries; i++) {
		const struct trace_counter *s = &src->series[i];
		uint32_t in = input ? input[s->input] : s->input;
		map[i] = in == TRACE_NONE
				 ? TRACE_NONE
				 : trace_counter_series(t, in, s->device, str[s->name],
							s->unit == TRACE_NONE ? TRACE_NONE : str[s->unit],
							s->source);
	}
	for (size_t i = 0; i < src->n; i++)
		if (map[src->of[i]] != TRACE_NONE)
			add_sample(&t->counters, map[src->of[i]], src->start[i], src->end[i], src->value[i]);
	free(map);
}
