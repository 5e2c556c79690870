#include "config.h"
#include "analysis/busy.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

struct span {
	int64_t start, end;
};

static int by_start(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	return (x->start > y->start) - (x->start < y->start);
}

/* Overlapping ops (several queues on one GPU) count once: sort by start and
 * sweep, adding only the part of each interval not yet covered. */
static int64_t union_length(struct span *s, size_t n)
{
	int sorted = 1;
	for (size_t i = 1; i < n && sorted; i++)
		sorted = s[i - 1].start <= s[i].start;
	if (!sorted)
		qsort(s, n, sizeof(*s), by_start);
	int64_t total = 0, reach = INT64_MIN;
	for (size_t i = 0; i < n; i++) {
		int64_t from = s[i].start > reach ? s[i].start : reach;
		if (s[i].end > from)
			total += s[i].end - from;
		if (s[i].end > reach)
			reach = s[i].end;
	}
	return total;
}

/* GPUs are listed by device number, then by input. */
static const struct trace *sort_trace;

static int by_device(const void *a, const void *b)
{
	const struct trace_gpu *x = &sort_trace->gpus[((const struct busy_row *)a)->gpu];
	const struct trace_gpu *y = &sort_trace->gpus[((const struct busy_row *)b)->gpu];
	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	return (x->input > y->input) - (x->input < y->input);
}

void busy_per_gpu(const struct trace *t, struct busy *out)
{
	size_t ngpu = t->ngpus;
	size_t *count = xcalloc(ngpu + 1, sizeof(*count));
	memset(out, 0, sizeof(*out));
	out->rows = xcalloc(ngpu ? ngpu : 1, sizeof(*out->rows));

	for (size_t i = 0; i < t->ops.n; i++) {
		uint32_t g = trace_op_gpu(t, i);
		count[g + 1]++;
		out->rows[g].sum += t->ops.end[i] - t->ops.start[i];
		if (i == 0 || t->ops.start[i] < out->first_start)
			out->first_start = t->ops.start[i];
		if (i == 0 || t->ops.end[i] > out->last_end)
			out->last_end = t->ops.end[i];
	}
	/* Bucket the intervals by GPU (counting sort keeps per-queue order). */
	for (size_t g = 0; g < ngpu; g++)
		count[g + 1] += count[g];
	struct span *spans = xmalloc((t->ops.n ? t->ops.n : 1) * sizeof(*spans));
	size_t *fill = xmalloc((ngpu ? ngpu : 1) * sizeof(*fill));
	memcpy(fill, count, ngpu * sizeof(*fill));
	for (size_t i = 0; i < t->ops.n; i++)
		spans[fill[trace_op_gpu(t, i)]++] = (struct span){ t->ops.start[i], t->ops.end[i] };

	for (size_t g = 0; g < ngpu; g++) {
		struct busy_row *r = &out->rows[out->n++];
		r->gpu = (uint32_t)g;
		r->ops = count[g + 1] - count[g];
		r->busy = union_length(spans + count[g], r->ops);
	}
	out->wall = t->ops.n ? out->last_end - out->first_start : 0;
	free(spans);
	free(fill);
	free(count);
	sort_trace = t;
	qsort(out->rows, out->n, sizeof(*out->rows), by_device);
}

void busy_free(struct busy *b)
{
	free(b->rows);
	memset(b, 0, sizeof(*b));
}

double busy_row_percent(const struct busy *b, const struct busy_row *r)
{
	return b->wall > 0 ? 100.0 * (double)r->busy / (double)b->wall : 0.0;
}
