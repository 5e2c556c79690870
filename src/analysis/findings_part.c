/* The findings' partial result. A GPU belongs to one node group, so the
 * rules of scope GPU find its findings whole there: they travel as rows,
 * their GPU, input and name made again in the whole. The rules of scope
 * RUN need every group: they run at the finish, over the busy rows, the
 * ranks' collectives and the marker instances that every group sends,
 * which the busy, ranks and steps reports merge alike. */
#include "config.h"
#include "analysis/findings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/busy.h"
#include "analysis/params.h"
#include "analysis/ranks.h"
#include "util/xalloc.h"

#define FINDINGS_BYTES_VERSION 1
/* The least a row and a marker instance take as bytes. */
#define ROW_BYTES (1 + 8 + 8 + 8 + 1 + 4 + 8 + 8 + 8 + 8)
#define MARK_BYTES (8 + 8 + 4 + 4 + 4 + 1)

void findings_part_init(struct findings_part *p)
{
	memset(p, 0, sizeof(*p));
	busy_part_init(&p->busy);
	ranks_part_init(&p->ranks);
}

void findings_part_free(struct findings_part *p)
{
	findings_free(&p->rows);
	free(p->gpus.v);
	busy_part_free(&p->busy);
	ranks_part_free(&p->ranks);
	step_marks_free(&p->marks);
	memset(p, 0, sizeof(*p));
}

void findings_part_add(struct findings_part *p, const struct trace *t, const struct selection *sel,
		       const struct analysis_params *ap, const struct api_order *order)
{
	struct findings_ctx c = { .t = t, .sel = sel, .ap = ap, .order = order };
	const struct gaps *g = findings_ctx_gaps(&c);
	p->rows.run_start = g->range_start;
	p->rows.run_end = g->range_end;
	findings_run(&c, FINDING_SCOPE_GPU, &p->rows);
	findings_ctx_free(&c);
	struct part_gpus f;
	part_gpus_of(t, &f);
	for (size_t i = 0; i < p->rows.n; i++) {
		static const struct part_gpu none;
		uint32_t gpu = p->rows.v[i].gpu;
		struct part_gpu pg =
			gpu != TRACE_NONE && part_gpu_ran(&f, gpu) ? part_gpu_of(t, &f, gpu) : none;
		part_gpu_list_add(&p->gpus, &pg);
	}
	part_gpus_free(&f);
	busy_part_add(&p->busy, t, sel);
	ranks_part_add(&p->ranks, t, sel, &ap->comm);
	step_marks_of(t, sel, &p->marks);
	p->ops = t->ops.n;
	p->first = t->op_first_start;
	p->last = t->op_last_end;
}

static void put_row(struct bytes_out *b, const struct trace *t, const struct finding *x,
		    const struct part_gpu *g)
{
	uint64_t share;
	memcpy(&share, &x->share, sizeof(share));
	bytes_put_u8(b, (uint8_t)x->id);
	bytes_put_i64(b, x->time_ns);
	bytes_put_u64(b, share);
	bytes_put_u64(b, x->count);
	bytes_put_u8(b, x->gpu != TRACE_NONE);
	if (x->gpu != TRACE_NONE)
		part_put_gpu(b, g);
	bytes_put_u32(b, x->input);
	bytes_put_str(b, x->name != TRACE_NONE ? trace_str(t, x->name) : NULL);
	bytes_put_i64(b, x->start);
	bytes_put_i64(b, x->end);
	bytes_put_str(b, x->evidence);
}

/* The marker instances, their texts listed once. */
static void put_marks(struct bytes_out *b, const struct trace *t, const struct step_marks *m)
{
	uint32_t *slot = xmalloc_array(t->strings.count ? t->strings.count : 1, sizeof(*slot));
	uint32_t *texts = xmalloc_array(m->n ? m->n : 1, sizeof(*texts));
	size_t ntexts = 0;
	memset(slot, 0xff, (t->strings.count ? t->strings.count : 1) * sizeof(*slot));
	for (size_t i = 0; i < m->n; i++)
		if (slot[m->v[i].text] == UINT32_MAX) {
			slot[m->v[i].text] = (uint32_t)ntexts;
			texts[ntexts++] = m->v[i].text;
		}
	bytes_put_u64(b, ntexts);
	for (size_t k = 0; k < ntexts; k++)
		bytes_put_str(b, trace_str(t, texts[k]));
	bytes_put_u64(b, m->n);
	for (size_t i = 0; i < m->n; i++) {
		const struct step_mark *x = &m->v[i];
		bytes_put_i64(b, x->start);
		bytes_put_i64(b, x->end);
		bytes_put_u32(b, slot[x->text]);
		bytes_put_u32(b, x->input);
		bytes_put_u32(b, x->row);
		bytes_put_u8(b, x->in_view);
	}
	free(texts);
	free(slot);
}

void findings_part_encode(const struct findings_part *p, const struct trace *t, struct bytes_out *b)
{
	bytes_put_u8(b, FINDINGS_BYTES_VERSION);
	bytes_put_u64(b, p->ops);
	bytes_put_i64(b, p->first);
	bytes_put_i64(b, p->last);
	bytes_put_u64(b, p->rows.n);
	for (size_t i = 0; i < p->rows.n; i++)
		put_row(b, t, &p->rows.v[i], &p->gpus.v[i]);
	put_marks(b, t, &p->marks);
	busy_part_encode(&p->busy, b);
	ranks_part_encode(&p->ranks, t, b);
}

/* A string of the part interned in the whole's, or TRACE_NONE for none. */
static uint32_t get_name(const struct part_in *in, int *bad)
{
	struct bytes_in *r = in->in;
	char *text = bytes_get_str(r);
	if (!text) {
		*bad |= r->bad; /* else it was written as none */
		return TRACE_NONE;
	}
	uint32_t id = strtab_intern(&in->whole->strings, text);
	free(text);
	return id;
}

static int merge_row(struct findings_part *p, const struct part_in *in)
{
	struct bytes_in *r = in->in;
	struct finding *x = findings_add(&p->rows, FINDING_host_wait);
	struct part_gpu g = { 0, 0, 0, 0 };
	unsigned id = bytes_get_u8(r);
	x->time_ns = bytes_get_i64(r);
	uint64_t share = bytes_get_u64(r);
	memcpy(&x->share, &share, sizeof(x->share));
	x->count = bytes_get_u64(r);
	int has_gpu = bytes_get_u8(r), bad = 0;
	if (has_gpu && part_get_gpu(in, &g))
		return -1;
	x->gpu = has_gpu ? 0 : TRACE_NONE; /* the GPU is made at the finish */
	uint32_t input = bytes_get_u32(r);
	x->name = get_name(in, &bad);
	x->start = bytes_get_i64(r);
	x->end = bytes_get_i64(r);
	char *evidence = bytes_get_str(r);
	if (evidence)
		snprintf(x->evidence, sizeof(x->evidence), "%s", evidence);
	free(evidence);
	if (bad || r->bad || !evidence || id >= FINDING_NIDS ||
	    finding_id_scope((enum finding_id)id) != FINDING_SCOPE_GPU || has_gpu > 1 ||
	    (input != TRACE_NONE && input >= in->ninputs))
		return r->bad = 1, -1;
	x->id = (enum finding_id)id;
	x->input = input != TRACE_NONE ? (uint32_t)in->input[input] : TRACE_NONE;
	part_gpu_list_add(&p->gpus, &g);
	return 0;
}

static int merge_marks(struct findings_part *p, const struct part_in *in)
{
	struct bytes_in *r = in->in;
	uint64_t ntexts = bytes_get_count(r, 8);
	uint32_t *text = xmalloc_array(ntexts ? ntexts : 1, sizeof(*text));
	int bad = 0;
	for (uint64_t k = 0; k < ntexts && !r->bad && !bad; k++)
		if ((text[k] = get_name(in, &bad)) == TRACE_NONE)
			bad = 1;
	uint64_t n = bad || r->bad ? 0 : bytes_get_count(r, MARK_BYTES);
	for (uint64_t i = 0; i < n && !r->bad; i++) {
		struct step_mark x;
		x.start = bytes_get_i64(r);
		x.end = bytes_get_i64(r);
		uint32_t k = bytes_get_u32(r), input = bytes_get_u32(r);
		x.row = bytes_get_u32(r);
		x.in_view = bytes_get_u8(r);
		if (k >= ntexts || input >= in->ninputs || x.in_view > 1) {
			r->bad = 1;
			break;
		}
		x.text = text[k];
		x.input = (uint32_t)in->input[input];
		p->marks.v = xgrow(p->marks.v, &p->marks.cap, p->marks.n + 1, sizeof(*p->marks.v));
		p->marks.v[p->marks.n++] = x;
	}
	free(text);
	return bad || r->bad ? -1 : 0;
}

int findings_part_merge(struct findings_part *p, const struct part_in *in)
{
	struct bytes_in *r = in->in;
	if (bytes_get_u8(r) != FINDINGS_BYTES_VERSION)
		return r->bad = 1, -1;
	uint64_t ops = bytes_get_u64(r);
	int64_t first = bytes_get_i64(r), last = bytes_get_i64(r);
	/* The run's span: every group's ops. */
	if (ops && (!p->ops || first < p->first))
		p->first = first;
	if (ops && (!p->ops || last > p->last))
		p->last = last;
	p->ops += ops;
	uint64_t n = bytes_get_count(r, ROW_BYTES);
	for (uint64_t i = 0; i < n && !r->bad; i++)
		if (merge_row(p, in))
			return -1;
	if (r->bad || merge_marks(p, in) || busy_part_merge(&p->busy, in) || ranks_part_merge(&p->ranks, in))
		return -1;
	return r->bad ? -1 : 0;
}

void findings_part_finish(struct findings_part *p, struct trace *whole, const struct window *window,
			  const struct analysis_params *ap, struct findings *out)
{
	struct busy b;
	struct ranks rk;
	/* Busy makes every GPU that ran an op, in the whole load's order. */
	busy_part_finish(&p->busy, whole, window, &b);
	ranks_part_finish(&p->ranks, whole, &rk);
	*out = p->rows;
	memset(&p->rows, 0, sizeof(p->rows));
	for (size_t i = 0; i < out->n; i++)
		if (out->v[i].gpu != TRACE_NONE)
			out->v[i].gpu = trace_gpu(whole, p->gpus.v[i].label_input, p->gpus.v[i].device);
	out->run_start = p->ops ? p->first : 0;
	out->run_end = p->ops ? p->last : 0;
	if (window && window->active) {
		out->run_start = window->start;
		out->run_end = window->end;
	}
	struct findings_ctx c = { .t = whole, .ap = ap, .busy = &b, .ranks = &rk };
	findings_ctx_set_steps(&c, whole, &p->marks);
	findings_run(&c, FINDING_SCOPE_RUN, out);
	findings_rank(whole, out);
	findings_ctx_free(&c);
	busy_free(&b);
	ranks_free(&rk);
}
