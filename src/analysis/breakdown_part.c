/* Breakdown's partial result: a row per GPU, each whole in its part. */
#include "config.h"
#include "analysis/breakdown.h"

#include <stdlib.h>
#include <string.h>

#include "util/sort.h"
#include "util/xalloc.h"

static void put_double(struct bytes_out *b, double v)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof(bits));
	bytes_put_u64(b, bits);
}

static double get_double(struct bytes_in *b)
{
	uint64_t bits = bytes_get_u64(b);
	double v;
	memcpy(&v, &bits, sizeof(v));
	return v;
}

void breakdown_part_init(struct breakdown_part *p)
{
	memset(p, 0, sizeof(*p));
}

void breakdown_part_free(struct breakdown_part *p)
{
	free(p->rows);
	free(p->gpus.v);
	memset(p, 0, sizeof(*p));
}

static void add_breakdown_row(struct breakdown_part *p, const struct breakdown_row *r, int present,
			      const struct part_gpu *g)
{
	p->rows = xgrow(p->rows, &p->cap, p->n + 1, sizeof(*p->rows));
	p->rows[p->n].row = *r;
	p->rows[p->n++].present = present;
	part_gpu_list_add(&p->gpus, g);
}

void breakdown_part_add(struct breakdown_part *p, const struct trace *t, const struct selection *sel,
			const struct filter *comm)
{
	struct breakdown bd;
	struct part_gpus f;
	breakdown_per_gpu(t, sel, comm, &bd);
	part_gpus_of(t, &f);
	/* Every GPU that ran an op, with its row when it has one. */
	const struct breakdown_row **row = xcalloc(t->ngpus ? t->ngpus : 1, sizeof(*row));
	for (size_t i = 0; i < bd.n; i++)
		row[bd.rows[i].gpu] = &bd.rows[i];
	for (size_t k = 0; k < t->ngpus; k++) {
		if (!part_gpu_ran(&f, (uint32_t)k))
			continue;
		static const struct breakdown_row none;
		struct part_gpu g = part_gpu_of(t, &f, (uint32_t)k);
		add_breakdown_row(p, row[k] ? row[k] : &none, row[k] != NULL, &g);
	}
	free(row);
	part_gpus_free(&f);
	breakdown_free(&bd);
}

void breakdown_part_encode(const struct breakdown_part *p, struct bytes_out *b)
{
	bytes_put_u64(b, p->n);
	for (size_t i = 0; i < p->n; i++) {
		const struct breakdown_row *r = &p->rows[i].row;
		part_put_gpu(b, &p->gpus.v[i]);
		bytes_put_u8(b, (uint8_t)p->rows[i].present);
		const int64_t v[] = { r->span, r->compute,      r->comm,        r->copy,
				      r->idle, r->exposed_comm, r->exposed_copy };
		for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++)
			bytes_put_i64(b, v[k]);
		put_double(b, r->overlap_ratio);
	}
}

int breakdown_part_merge(struct breakdown_part *p, const struct part_in *in)
{
	struct bytes_in *r = in->in;
	uint64_t count = bytes_get_count(r, PART_GPU_BYTES + 1 + 8 * 8);
	for (uint64_t i = 0; i < count && !r->bad; i++) {
		struct part_gpu g;
		struct breakdown_row row = { 0 };
		if (part_get_gpu(in, &g))
			break;
		int present = bytes_get_u8(r);
		row.span = bytes_get_i64(r);
		row.compute = bytes_get_i64(r);
		row.comm = bytes_get_i64(r);
		row.copy = bytes_get_i64(r);
		row.idle = bytes_get_i64(r);
		row.exposed_comm = bytes_get_i64(r);
		row.exposed_copy = bytes_get_i64(r);
		row.overlap_ratio = get_double(r);
		add_breakdown_row(p, &row, present, &g);
	}
	return r->bad ? -1 : 0;
}

static int by_row_gpu(const void *a, const void *b, void *ctx)
{
	const struct trace *t = ctx;
	uint32_t x = ((const struct breakdown_part_row *)a)->row.gpu,
		 y = ((const struct breakdown_part_row *)b)->row.gpu;
	int c = trace_gpu_cmp(t, x, y);
	return c ? c : (x > y) - (x < y);
}

void breakdown_part_finish(struct breakdown_part *p, struct trace *whole, struct breakdown *out)
{
	uint32_t *gpu = xcalloc(p->n ? p->n : 1, sizeof(*gpu));
	size_t *order = part_make_gpus(whole, p->gpus.v, p->n, gpu);
	struct breakdown_part_row *sorted = xcalloc(p->n ? p->n : 1, sizeof(*sorted));
	for (size_t i = 0; i < p->n; i++) {
		sorted[i] = p->rows[order[i]];
		sorted[i].row.gpu = gpu[order[i]];
	}
	/* In the report's order of lanes, those with a row. */
	sort_with(sorted, p->n, sizeof(*sorted), by_row_gpu, whole);
	memset(out, 0, sizeof(*out));
	out->rows = xcalloc(p->n ? p->n : 1, sizeof(*out->rows));
	for (size_t i = 0; i < p->n; i++)
		if (sorted[i].present)
			out->rows[out->n++] = sorted[i].row;
	free(sorted);
	free(order);
	free(gpu);
	breakdown_part_free(p);
}
