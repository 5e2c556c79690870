/* What a conversion writes, and under which ids: the ops the selection
 * keeps and their launching calls, with the calls it keeps (the rule of
 * session/select.h, as the export of the inputs' own format keeps them),
 * each numbered from 1 in the trace's order, whatever their inputs (so
 * several inputs' ids never meet). */
#include "config.h"
#include "export/convert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "export/rocpd_writer.h"
#include "util/i18n.h"
#include "util/xalloc.h"

int export_format_parse(const char *name, int *format)
{
	static const char *const names[] = {
		[EXPORT_FORMAT_INPUT] = "input",
		[EXPORT_FORMAT_RPD] = "rpd",
		[EXPORT_FORMAT_ROCPD] = "rocpd",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(name, names[i]) == 0) {
			*format = (int)i;
			return 0;
		}
	}
	return -1;
}

int convert_graph_call(struct convert *c, uint32_t api)
{
	return graph_calls_named(&c->graph_calls, c->t, trace_api_name(c->t, api));
}

int convert_copy_kind(const char *name)
{
	static const struct {
		const char *name;
		int kind;
	} kinds[] = {
		{ "CopyHostToDevice", ROCPD_H2D },   { "CopyDeviceToHost", ROCPD_D2H },
		{ "CopyDeviceToDevice", ROCPD_D2D }, { "CopyHostToHost", ROCPD_H2H },
		{ "CopyPeerToPeer", ROCPD_P2P },
	};
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(name, kinds[i].name) == 0)
			return kinds[i].kind;
	return -1;
}

int convert_is_marker(const struct convert *c, size_t api)
{
	return trace_api_texted(c->t, api) ||
	       strcmp(trace_str(c->t, trace_api_name(c->t, api)), TRACE_MARKER_NAME) == 0;
}

void convert_renumber_init(struct convert_renumber *r)
{
	memset(r, 0, sizeof(*r));
}

void convert_renumber_add(struct convert_renumber *r, uint32_t domain, int64_t value)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 16;
		r->value = xrealloc_array(r->value, r->cap, sizeof(*r->value));
		r->domain = xrealloc_array(r->domain, r->cap, sizeof(*r->domain));
	}
	r->value[r->n] = value;
	r->domain[r->n++] = domain;
}

static int place_cmp(int64_t va, uint32_t da, int64_t vb, uint32_t db)
{
	if (va != vb)
		return va < vb ? -1 : 1;
	return (da > db) - (da < db);
}

struct place {
	int64_t value;
	uint32_t domain;
};

static int by_place(const void *a, const void *b)
{
	const struct place *x = a, *y = b;
	return place_cmp(x->value, x->domain, y->value, y->domain);
}

void convert_renumber_build(struct convert_renumber *r)
{
	struct place *p = xmalloc_array(r->n ? r->n : 1, sizeof(*p));
	for (size_t i = 0; i < r->n; i++)
		p[i] = (struct place){ r->value[i], r->domain[i] };
	qsort(p, r->n, sizeof(*p), by_place);
	size_t n = 0;
	for (size_t i = 0; i < r->n; i++)
		if (n == 0 || by_place(&p[n - 1], &p[i]) != 0)
			p[n++] = p[i];
	r->n = n;
	r->out = xmalloc_array(n ? n : 1, sizeof(*r->out));
	/* New numbers go past the largest in use (as unsigned: a number at
	 * the top of the range wraps instead of overflowing). */
	uint64_t next = n ? (uint64_t)p[n - 1].value : 0;
	for (size_t i = 0; i < n; i++) {
		r->value[i] = p[i].value;
		r->domain[i] = p[i].domain;
		r->out[i] = i > 0 && p[i - 1].value == p[i].value ? (int64_t)++next : p[i].value;
	}
	free(p);
}

int64_t convert_renumber_get(const struct convert_renumber *r, uint32_t domain, int64_t value)
{
	size_t lo = 0, hi = r->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (place_cmp(r->value[mid], r->domain[mid], value, domain) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->n && r->value[lo] == value && r->domain[lo] == domain ? r->out[lo] : value;
}

void convert_renumber_free(struct convert_renumber *r)
{
	free(r->value);
	free(r->domain);
	free(r->out);
	memset(r, 0, sizeof(*r));
}

/* Is path one of the inputs (the same file, by any name)? */
/* Each op's input: the inputs' runs of ops. */
static void op_inputs(struct convert *c)
{
	const struct trace *t = c->t;
	c->op_input = xcalloc(t->ops.n ? t->ops.n : 1, sizeof(*c->op_input));
	for (size_t i = 0; i < t->ninputs; i++)
		for (size_t k = 0; k < t->inputs[i].op_count; k++)
			if (t->inputs[i].op_first + k < t->ops.n)
				c->op_input[t->inputs[i].op_first + k] = (uint32_t)i;
}

/* What goes: marked, then numbered in the trace's order. */
static void plan(struct convert *c)
{
	const struct trace *t = c->t;
	const struct selection *sel = c->req->sel;
	c->op_out = xcalloc(t->ops.n ? t->ops.n : 1, sizeof(*c->op_out));
	c->api_out = xcalloc(t->apis.n ? t->apis.n : 1, sizeof(*c->api_out));
	int any = 0;
	for (size_t i = 0; i < t->ops.n; i++) {
		if (!selected_op(sel, i))
			continue;
		/* rocprofv3 records no barriers: rocpd has no place for them. */
		if (c->format == EXPORT_FORMAT_ROCPD && t->ops.kind[i] == OP_BARRIER) {
			c->left_barriers++;
			continue;
		}
		c->op_out[i] = 1;
		uint32_t api = trace_op_launch(t, (uint32_t)i);
		if (api != TRACE_NONE)
			c->api_out[api] = 1;
		if (!any || t->ops.start[i] < c->span_start)
			c->span_start = t->ops.start[i];
		if (!any || t->ops.end[i] > c->span_end)
			c->span_end = t->ops.end[i];
		any = 1;
	}
	for (size_t i = 0; i < t->apis.n; i++)
		if (selected_api(sel, i))
			c->api_out[i] = 1;
	for (size_t i = 0; i < t->ops.n; i++)
		if (c->op_out[i])
			c->op_out[i] = (int64_t)++c->nops;
	for (size_t i = 0; i < t->apis.n; i++)
		if (c->api_out[i])
			c->api_out[i] = (int64_t)++c->napis;
	/* rpd has no host copies: they run on no GPU, and an rpd op is a
	 * GPU's. */
	for (size_t i = 0; i < t->host_copies.n; i++) {
		if (!selected_host_copy(sel, i))
			continue;
		if (c->format == EXPORT_FORMAT_ROCPD)
			c->nhosts++;
		else
			c->left_hosts++;
	}
}

int convert_metadata(struct convert *c, int (*put)(void *ctx, const char *tag, const char *value), void *ctx)
{
	const struct export_request *r = c->req;
	const struct trace *t = c->t;
	static const char *const formats[] = {
		[INPUT_RPD] = "rpd",
		[INPUT_ROCPD] = "rocpd",
		[INPUT_KINETO] = "kineto",
		[INPUT_NSYS] = "nsys",
	};
	char buf[512];
	int rc = 0;
	/* A rocpd file of several nodes is several inputs of one path. */
	for (size_t i = 0; rc == 0 && i < t->ninputs; i++) {
		int again = 0;
		for (size_t k = 0; k < i && !again; k++)
			again = strcmp(t->inputs[k].path, t->inputs[i].path) == 0;
		if (!again)
			rc = put(ctx, "rpdtop::exported_from", t->inputs[i].path);
		int f = t->inputs[i].format;
		if (rc == 0 && !again)
			rc = put(ctx, "rpdtop::exported_from_format",
				 f >= 0 && f < (int)(sizeof(formats) / sizeof(formats[0])) ? formats[f] : "");
	}
	filter_describe(r->filter, buf, sizeof(buf));
	if (rc == 0)
		rc = put(ctx, "rpdtop::filter", buf);
	buf[0] = '\0';
	if (r->window && r->window->active)
		snprintf(buf, sizeof(buf), "%lld:%lld", (long long)r->window->start,
			 (long long)r->window->end);
	if (rc == 0)
		rc = put(ctx, "rpdtop::window", buf);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)c->nops);
	if (rc == 0)
		rc = put(ctx, "rpdtop::exported_ops", buf);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)c->napis);
	if (rc == 0)
		rc = put(ctx, "rpdtop::exported_api", buf);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)c->left_barriers);
	if (rc == 0 && c->left_barriers)
		rc = put(ctx, "rpdtop::left_out_barriers", buf);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)c->left_hosts);
	if (rc == 0 && c->left_hosts)
		rc = put(ctx, "rpdtop::left_out_host_copies", buf);
	return rc;
}

int convert_trace(const struct export_request *r, struct export_result *res, struct rpd_error *err)
{
	const struct trace *t = r->t;
	memset(res, 0, sizeof(*res));
	/* rpdtop itself refuses a trace without GPU ops: so does the export. */
	if (r->sel && r->sel->nops == 0)
		return err_set(err, _("%s: nothing to export: no GPU op passes the filter and window"),
			       r->path);
	if (!t->apis_read)
		return err_set(err, _("%s: the API calls must be read before this export"), r->path);
	struct convert c = { .req = r, .t = t, .err = err, .format = r->format };
	graph_calls_begin(&c.graph_calls, t);
	op_inputs(&c);
	plan(&c);
	int rc;
	if (c.nops == 0)
		rc = err_set(err,
			     _("%s: nothing to export: the GPU ops in view are barriers, which rocpd does "
			       "not hold"),
			     r->path);
	else
		rc = r->format == EXPORT_FORMAT_ROCPD ? convert_rocpd(&c) : convert_rpd(&c);
	res->ops = c.nops;
	res->apis = c.napis;
	struct stat st;
	if (rc == 0 && stat(r->path, &st) == 0)
		res->bytes = st.st_size;
	graph_calls_free(&c.graph_calls);
	free(c.op_out);
	free(c.api_out);
	free(c.op_input);
	return rc ? -1 : 0;
}
