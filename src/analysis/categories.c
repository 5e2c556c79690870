#include "config.h"
#include "analysis/categories.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/satmath.h"
#include "util/sort.h"
#include "util/xalloc.h"

void categories_init(struct categories *c)
{
	memset(c, 0, sizeof(*c));
}

void categories_free(struct categories *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->names[i]);
		filter_free(&c->patterns[i]);
	}
	memset(c, 0, sizeof(*c));
}

void categories_copy(const struct categories *from, struct categories *to)
{
	categories_init(to);
	for (size_t i = 0; i < from->n; i++) {
		filter_copy(&from->patterns[i], &to->patterns[i]);
		to->names[i] = xstrdup(from->names[i]);
	}
	to->n = from->n;
}

int categories_add(struct categories *c, const char *name, const char *pattern, char *err, size_t errsize)
{
	if (c->n == CATEGORIES_MAX) {
		snprintf(err, errsize, _("at most %d categories"), CATEGORIES_MAX);
		return -1;
	}
	filter_init(&c->patterns[c->n]);
	if (filter_push(&c->patterns[c->n], pattern, err, errsize)) {
		filter_free(&c->patterns[c->n]);
		return -1;
	}
	c->names[c->n++] = xstrdup(name);
	return 0;
}

void categories_defaults(struct categories *c, const char *comm)
{
	static const char *const builtin[][2] = {
		{ "gemm", "cijk_|gemm|matmul" },
		{ "attention", "attention|attn|flash|paged" },
		{ "norm", "norm" },
		{ "elementwise", "elementwise" },
	};
	char err[256];
	if (comm && categories_add(c, "communication", comm, err, sizeof(err)))
		return;
	for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++)
		categories_add(c, builtin[i][0], builtin[i][1], err, sizeof(err));
}

const char *category_row_name(const struct categories *c, const struct category_row *r)
{
	return r->category < c->n ? c->names[r->category] : CATEGORIES_OTHER;
}

static int by_total(const void *a, const void *b, void *ctx)
{
	const struct category_row *x = a, *y = b;
	(void)ctx;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return (x->category > y->category) - (x->category < y->category);
}

void category_times_sort(struct category_times *ct)
{
	sort_with(ct->rows, ct->n, sizeof(*ct->rows), by_total, NULL);
}

void categories_by_kernel(const struct trace *t, const struct selection *sel, const struct categories *c,
			  struct category_times *out)
{
	size_t nstr = t->strings.count;
	memset(out, 0, sizeof(*out));
	/* The category of each kernel name, the first that matches. */
	uint8_t *kernel = xcalloc(nstr ? nstr : 1, 1);
	for (size_t i = 0; i < t->ops.n; i++)
		if (t->ops.kind[i] == OP_KERNEL)
			kernel[t->ops.name[i]] = 1;
	uint8_t *cat = xmalloc(nstr ? nstr : 1);
	memset(cat, (int)c->n, nstr);
	for (size_t k = c->n; k-- > 0;) {
		uint8_t *m = filter_strings(&c->patterns[k], t, kernel);
		for (size_t s = 0; s < nstr; s++)
			if (m[s])
				cat[s] = (uint8_t)k;
		free(m);
	}
	out->n = c->n + 1;
	out->rows = xcalloc(out->n, sizeof(*out->rows));
	for (size_t k = 0; k < out->n; k++)
		out->rows[k].category = k;
	const struct window *w = sel ? &sel->window : NULL;
	for (size_t i = 0; i < t->ops.n; i++) {
		if (t->ops.kind[i] != OP_KERNEL || !selected_op(sel, i))
			continue;
		struct category_row *r = &out->rows[cat[t->ops.name[i]]];
		int64_t d = select_clipped(w, t->ops.start[i], t->ops.end[i]);
		r->calls++;
		r->total = sat_add(r->total, d);
		out->total = sat_add(out->total, d);
	}
	category_times_sort(out);
	free(cat);
	free(kernel);
}

void category_times_free(struct category_times *ct)
{
	free(ct->rows);
	memset(ct, 0, sizeof(*ct));
}

void categories_part_init(struct categories_part *p, const struct categories *c)
{
	p->ct.n = c->n + 1;
	p->ct.total = 0;
	p->ct.rows = xcalloc(p->ct.n, sizeof(*p->ct.rows));
	for (size_t k = 0; k < p->ct.n; k++)
		p->ct.rows[k].category = k;
}

void categories_part_free(struct categories_part *p)
{
	category_times_free(&p->ct);
}

/* Kernel time by category: each category's calls and time, summed. */
void categories_part_add(struct categories_part *p, const struct trace *t, const struct selection *sel,
			 const struct categories *c)
{
	struct category_times ct;
	categories_by_kernel(t, sel, c, &ct);
	p->ct.total = sat_add(p->ct.total, ct.total);
	for (size_t i = 0; i < ct.n; i++) {
		struct category_row *r = &p->ct.rows[ct.rows[i].category];
		r->calls += ct.rows[i].calls;
		r->total = sat_add(r->total, ct.rows[i].total);
	}
	category_times_free(&ct);
}

void categories_part_encode(const struct categories_part *p, struct bytes_out *b)
{
	bytes_put_i64(b, p->ct.total);
	bytes_put_u64(b, p->ct.n);
	for (size_t i = 0; i < p->ct.n; i++) {
		bytes_put_u64(b, p->ct.rows[i].category);
		bytes_put_u64(b, p->ct.rows[i].calls);
		bytes_put_i64(b, p->ct.rows[i].total);
	}
}

int categories_part_merge(struct categories_part *p, const struct part_in *in)
{
	struct bytes_in *r = in->in;
	p->ct.total = sat_add(p->ct.total, bytes_get_i64(r));
	uint64_t n = bytes_get_count(r, 24);
	for (uint64_t i = 0; i < n && !r->bad; i++) {
		uint64_t k = bytes_get_u64(r);
		if (k >= p->ct.n)
			return r->bad = 1, -1;
		p->ct.rows[k].calls += bytes_get_u64(r);
		p->ct.rows[k].total = sat_add(p->ct.rows[k].total, bytes_get_i64(r));
	}
	return r->bad ? -1 : 0;
}

void categories_part_finish(struct categories_part *p, struct category_times *out)
{
	*out = p->ct;
	memset(&p->ct, 0, sizeof(p->ct));
	category_times_sort(out);
}
