#include "config.h"
#include "load/kineto.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "load/instream.h"
#include "load/kineto_parse.h"
#include "load/rpd.h" /* enum load_what */
#include "util/i18n.h"
#include "util/xalloc.h"

/* A call's or an op's correlation id, and its row. */
struct corr_row {
	int64_t corr;
	uint32_t row;
};

struct corr_rows {
	struct corr_row *v;
	size_t n, cap;
};

static void corr_push(struct corr_rows *c, int64_t corr, uint32_t row)
{
	c->v = xgrow(c->v, &c->cap, c->n + 1, sizeof(*c->v));
	c->v[c->n++] = (struct corr_row){ corr, row };
}

/* Threads' names from the metadata events, wherever they are in the
 * file: given to the threads that ran a call once all are read. */
struct thread_name {
	int64_t pid, tid;
	size_t seq; /* its place among them */
	uint32_t name;
};

struct thread_names {
	struct thread_name *v;
	size_t n, cap;
};

/* Names as rpd has them. */
enum { S_EMPTY, S_KERNEL, S_FILL, S_H2D, S_D2H, S_D2D, S_H2H, S_P2P, S_MARKER, NSTR };

struct kreader {
	struct trace *t;
	const char *path;
	uint32_t input;
	int ops;  /* the ops are read (else they are t's already) */
	int apis; /* the API rows, links and copies' sizes are read */
	size_t op_base, api_base;
	int64_t nops, napis; /* GPU ops and API rows met: their ids */
	uint32_t str[NSTR];
	struct corr_rows op_corr, api_corr;
	struct op_span *span; /* kineto_span: the ops' span alone */
	int64_t lo, hi;       /* the earliest start and latest end read (ns, before the base) */
	int any;
	struct thread_names names;
};

static void intern_names(struct kreader *r)
{
	static const char *const names[NSTR] = { "",
						 "KernelExecution",
						 "FillBuffer",
						 "CopyHostToDevice",
						 "CopyDeviceToHost",
						 "CopyDeviceToDevice",
						 "CopyHostToHost",
						 "CopyPeerToPeer",
						 TRACE_MARKER_NAME };
	for (int i = 0; i < NSTR; i++)
		r->str[i] = strtab_intern(&r->t->strings, names[i]);
}

static const char *cat_name(enum kineto_cat c)
{
	static const char *const names[] = {
		"?",           "kernel", "gpu_memcpy",      "gpu_memset",      "cuda_runtime",
		"cuda_driver", "cpu_op", "user_annotation", "python_function", "gpu_user_annotation"
	};
	return (size_t)c < sizeof(names) / sizeof(names[0]) ? names[c] : "?";
}

/* Why a field of an event cannot be read. */
static int field_error(const struct kreader *r, const struct kineto_event *e, unsigned field,
		       struct rpd_error *err)
{
	unsigned b = (unsigned)__builtin_ctz(field);
	const char *f = kineto_field_name(field);
	const char *c = cat_name(e->cat);
	switch (b < KINETO_NFIELDS ? e->bad[b] : KBAD_NONE) {
	case KBAD_TYPE:
		return err_set(err, _("%s: event %zu (%s): %s is not a number"), r->path, e->index, c, f);
	case KBAD_RANGE:
		if (field & (KF_TS | KF_DUR))
			return err_set(err, _("%s: event %zu (%s): %s is past 2^63 ns"), r->path, e->index, c,
				       f);
		return err_set(err, _("%s: event %zu (%s): %s is out of range"), r->path, e->index, c, f);
	case KBAD_WHOLE:
		return err_set(err, _("%s: event %zu (%s): %s is not a whole number"), r->path, e->index, c,
			       f);
	default:
		return err_set(err, _("%s: event %zu (%s): no %s"), r->path, e->index, c, f);
	}
}

/* Is an optional field there and good (1), absent (0), or bad (-1)? */
static int optional(const struct kineto_event *e, unsigned field)
{
	unsigned b = (unsigned)__builtin_ctz(field);
	if (e->bad[b] != KBAD_NONE)
		return -1;
	return (e->have & field) != 0;
}

/* A required field: 0, or -1 with *err. */
static int required(const struct kreader *r, const struct kineto_event *e, unsigned field,
		    struct rpd_error *err)
{
	return optional(e, field) == 1 ? 0 : field_error(r, e, field, err);
}

/* Its start and end: 0, or -1 with *err. */
static int event_times(struct kreader *r, const struct kineto_event *e, int64_t *start, int64_t *end,
		       struct rpd_error *err)
{
	if (required(r, e, KF_TS, err) || required(r, e, KF_DUR, err))
		return -1;
	if (e->dur < 0)
		return err_set(err, _("%s: event %zu (%s): negative duration %lld ns"), r->path, e->index,
			       cat_name(e->cat), (long long)e->dur);
	if (e->ts > INT64_MAX - e->dur)
		return err_set(err, _("%s: event %zu (%s): ts + dur is past 2^63 ns"), r->path, e->index,
			       cat_name(e->cat));
	*start = e->ts;
	*end = e->ts + e->dur;
	if (!r->any || *start < r->lo)
		r->lo = *start;
	if (!r->any || *end > r->hi)
		r->hi = *end;
	r->any = 1;
	return 0;
}

/* The direction of a copy named "Memcpy HtoD (Host -> Device)" and the
 * like, as rpd names it; S_EMPTY when it is none of them. */
static int copy_kind(const struct kineto_event *e)
{
	static const struct {
		const char *dir;
		int str;
	} dirs[] = {
		{ "HtoD", S_H2D }, { "HtoA", S_H2D }, { "DtoH", S_D2H }, { "AtoH", S_D2H }, { "DtoD", S_D2D },
		{ "DtoA", S_D2D }, { "AtoD", S_D2D }, { "AtoA", S_D2D }, { "HtoH", S_H2H }, { "PtoP", S_P2P },
	};
	const char *n = e->name;
	if (!n || e->name_len < 11 || strncmp(n, "Memcpy ", 7) != 0 || (e->name_len > 11 && n[11] != ' '))
		return S_EMPTY;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (memcmp(n + 7, dirs[i].dir, 4) == 0)
			return dirs[i].str;
	return S_EMPTY;
}

static uint32_t name_of(struct kreader *r, const struct kineto_event *e)
{
	return e->have & KF_NAME ? strtab_intern_len(&r->t->strings, e->name, e->name_len) : r->str[S_EMPTY];
}

static int gpu_op(struct kreader *r, const struct kineto_event *e, struct rpd_error *err)
{
	int64_t id = ++r->nops, start, end;
	if (!r->ops && !r->apis)
		return 0;
	if (event_times(r, e, &start, &end, err))
		return -1;
	/* The GPU and the stream, else the lane the event is drawn on. */
	unsigned dev = optional(e, KF_DEVICE) ? KF_DEVICE : KF_PID;
	unsigned str = optional(e, KF_STREAM) ? KF_STREAM : KF_TID;
	if (required(r, e, dev, err) || required(r, e, str, err))
		return -1;
	int corr = optional(e, KF_CORR), bytes = optional(e, KF_BYTES);
	if (corr < 0)
		return field_error(r, e, KF_CORR, err);
	if (bytes < 0)
		return field_error(r, e, KF_BYTES, err);
	if (r->span) {
		op_span_add(r->span, start, end);
		return 0;
	}
	struct trace *t = r->t;
	uint32_t row;
	int copy = e->cat == KCAT_MEMCPY ? copy_kind(e) : S_EMPTY;
	if (r->ops) {
		uint32_t queue = trace_queue(t, trace_gpu(t, r->input, dev == KF_DEVICE ? e->device : e->pid),
					     str == KF_STREAM ? e->stream : e->tid);
		if (e->cat == KCAT_KERNEL) {
			row = trace_add_op(t, id, start, end, name_of(r, e), r->str[S_KERNEL], queue);
		} else if (e->cat == KCAT_MEMSET) {
			row = trace_add_op(t, id, start, end, r->str[S_EMPTY], r->str[S_FILL], queue);
		} else if (copy != S_EMPTY) {
			row = trace_add_op(t, id, start, end, r->str[S_EMPTY], r->str[copy], queue);
		} else {
			/* A copy of a direction rpd has no name for keeps its own. */
			row = trace_add_op(t, id, start, end, r->str[S_EMPTY], name_of(r, e), queue);
			t->ops.kind[row] = OP_COPY;
		}
	} else {
		row = trace_op_row(t, r->input, id);
		if (row == TRACE_NONE)
			return 0;
	}
	if (r->apis && corr)
		corr_push(&r->op_corr, e->corr, row);
	if (r->apis && bytes && e->cat == KCAT_MEMCPY)
		trace_add_copy(t, row, e->bytes, TRACE_NONE, TRACE_NONE);
	return 0;
}

/* A call (range: 0) or a CPU range (1). */
static int api_row(struct kreader *r, const struct kineto_event *e, int range, struct rpd_error *err)
{
	int64_t start, end;
	if (!r->apis)
		return 0;
	if (event_times(r, e, &start, &end, err) || required(r, e, KF_PID, err) ||
	    required(r, e, KF_TID, err))
		return -1;
	int corr = range ? 0 : optional(e, KF_CORR);
	if (corr < 0)
		return field_error(r, e, KF_CORR, err);
	struct trace *t = r->t;
	uint32_t thread = trace_thread(t, r->input, e->pid, e->tid);
	uint32_t row;
	if (range)
		row = trace_add_api(t, ++r->napis, start, end, r->str[S_MARKER], name_of(r, e), thread);
	else
		row = trace_add_api(t, ++r->napis, start, end, name_of(r, e), TRACE_NONE, thread);
	if (corr)
		corr_push(&r->api_corr, e->corr, row);
	return 0;
}

/* A metadata event naming a thread (the last one for a thread wins). */
static void thread_name(struct kreader *r, const struct kineto_event *e)
{
	const unsigned need = KF_PID | KF_TID | KF_NAME | KF_ARG_NAME;
	if ((e->have & need) != need || !r->apis || r->span || e->name_len != 11 ||
	    memcmp(e->name, "thread_name", 11) != 0 || e->arg_name_len == 0)
		return;
	struct thread_names *tn = &r->names;
	tn->v = xgrow(tn->v, &tn->cap, tn->n + 1, sizeof(*tn->v));
	tn->v[tn->n] =
		(struct thread_name){ e->pid, e->tid, tn->n,
				      strtab_intern_len(&r->t->strings, e->arg_name, e->arg_name_len) };
	tn->n++;
}

static int by_thread(const void *a, const void *b)
{
	const struct thread_name *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

static int by_thread_seq(const void *a, const void *b)
{
	const struct thread_name *x = a, *y = b;
	int c = by_thread(a, b);
	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/* Each of the input's threads gets its name, when a metadata event gave one. */
static void name_threads(struct kreader *r)
{
	struct thread_names *tn = &r->names;
	if (tn->n == 0)
		return;
	qsort(tn->v, tn->n, sizeof(*tn->v), by_thread_seq);
	struct trace *t = r->t;
	for (size_t i = 0; i < t->nthreads; i++) {
		const struct trace_thread *th = &t->threads[i];
		if (th->input != r->input)
			continue;
		struct thread_name key = { th->pid, th->tid, 0, 0 };
		const struct thread_name *hit = bsearch(&key, tn->v, tn->n, sizeof(*tn->v), by_thread);
		/* A thread named more than once: its last name in the file. */
		while (hit && hit + 1 < tn->v + tn->n && by_thread(hit + 1, &key) == 0)
			hit++;
		if (hit)
			trace_thread_set_name(t, (uint32_t)i, hit->name);
	}
	free(tn->v);
	memset(tn, 0, sizeof(*tn));
}

static int on_event(void *ctx, const struct kineto_event *e, struct rpd_error *err)
{
	struct kreader *r = ctx;
	if (e->have & KF_META)
		thread_name(r, e);
	switch (kineto_role(e)) {
	case KROLE_OP:
		return gpu_op(r, e, err);
	case KROLE_CALL:
		return api_row(r, e, 0, err);
	case KROLE_RANGE:
		return api_row(r, e, 1, err);
	default:
		return 0;
	}
}

static int by_corr(const void *a, const void *b)
{
	const struct corr_row *x = a, *y = b;
	if (x->corr != y->corr)
		return x->corr < y->corr ? -1 : 1;
	return (x->row > y->row) - (x->row < y->row);
}

/* Each op with a correlation id to the first call with it. */
static void link_ops(struct kreader *r)
{
	struct corr_rows *o = &r->op_corr, *a = &r->api_corr;
	if (o->n == 0 || a->n == 0)
		return;
	qsort(o->v, o->n, sizeof(*o->v), by_corr);
	qsort(a->v, a->n, sizeof(*a->v), by_corr);
	trace_reserve_links(r->t, o->n);
	size_t k = 0;
	for (size_t i = 0; i < o->n; i++) {
		while (k < a->n && a->v[k].corr < o->v[i].corr)
			k++;
		if (k < a->n && a->v[k].corr == o->v[i].corr)
			trace_add_link(r->t, a->v[k].row, o->v[i].row);
	}
}

/* Times from the file's base on: checked, then moved. */
static int add_base(struct kreader *r, const struct kineto_meta *m, struct rpd_error *err)
{
	int64_t base = m->has_base ? m->base_ns : 0;
	if (!r->any || base == 0)
		return 0;
	if (r->hi > INT64_MAX - base || (r->lo < 0 && r->lo < INT64_MIN + base))
		return err_set(
			err, _("%s: times past 2^63 ns (baseTimeNanoseconds %lld plus times up to %lld ns)"),
			r->path, (long long)base, (long long)r->hi);
	if (r->span) {
		r->span->first += base;
		r->span->last += base;
		return 0;
	}
	struct trace *t = r->t;
	for (size_t i = r->op_base; r->ops && i < t->ops.n; i++) {
		t->ops.start[i] += base;
		t->ops.end[i] += base;
	}
	for (size_t i = r->api_base; r->apis && i < t->apis.n; i++) {
		t->apis.start[i] += base;
		t->apis.end[i] += base;
	}
	return 0;
}

static int read_file(struct kreader *r, struct rpd_error *err)
{
	struct instream in;
	struct kineto_meta meta;
	if (instream_open(&in, r->path, err))
		return -1;
	/* What the ops are read from: their export reads it again. */
	if (r->ops && !r->span)
		kineto_stamp(&in.st, &r->t->inputs[r->input].stamp);
	int rc = kineto_parse(&in, r->path, on_event, r, &meta, err);
	instream_close(&in);
	if (rc == 0)
		rc = add_base(r, &meta, err);
	if (rc == 0 && !r->span && meta.has_rank) {
		r->t->inputs[r->input].rank = meta.rank;
		r->t->inputs[r->input].world_size = meta.world_size;
	}
	if (rc == 0 && r->apis && !r->span)
		link_ops(r);
	if (rc == 0 && r->apis && !r->span)
		name_threads(r);
	free(r->names.v);
	free(r->op_corr.v);
	free(r->api_corr.v);
	return rc;
}

int kineto_read(struct trace *t, const char *path, unsigned what, struct rpd_error *err)
{
	struct kreader r = { .t = t, .path = path, .op_base = t->ops.n, .api_base = t->apis.n };
	r.ops = (what & LOAD_OPS) != 0;
	/* Read in the same pass unless nobody wants them or they are wanted
	 * later, apart (a second pass then). */
	r.apis = (what & LOAD_APIS) || !(what & (LOAD_NO_OP_IDS | LOAD_APIS_LATER));
	intern_names(&r);
	r.input = trace_add_input(t, path, INPUT_KINETO, 0);
	int rc = read_file(&r, err);
	struct trace_input *in = &t->inputs[r.input];
	in->op_first = r.op_base;
	in->op_count = t->ops.n - r.op_base;
	in->api_first = r.api_base;
	in->api_count = t->apis.n - r.api_base;
	in->apis_with_ops = r.apis;
	return rc;
}

int kineto_read_apis(struct trace *t, uint32_t input, struct rpd_error *err)
{
	struct kreader r = { .t = t, .path = t->inputs[input].path, .input = input, .apis = 1 };
	r.op_base = t->inputs[input].op_first;
	r.api_base = t->apis.n;
	intern_names(&r);
	int rc = read_file(&r, err);
	t->inputs[input].api_first = r.api_base;
	t->inputs[input].api_count = t->apis.n - r.api_base;
	return rc;
}

int kineto_span(const char *path, struct op_span *out, struct rpd_error *err)
{
	struct trace t;
	trace_init(&t);
	memset(out, 0, sizeof(*out));
	struct kreader r = { .t = &t, .path = path, .ops = 1, .span = out };
	intern_names(&r);
	int rc = read_file(&r, err);
	trace_free(&t);
	return rc;
}

void kineto_stamp(const struct stat *st, struct trace_stamp *out)
{
	out->size = (int64_t)st->st_size;
	out->mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
	out->dev = (uint64_t)st->st_dev;
	out->ino = (uint64_t)st->st_ino;
}

int kineto_stamp_same(const struct trace_stamp *a, const struct stat *st)
{
	struct trace_stamp b;
	kineto_stamp(st, &b);
	return a->size == b.size && a->mtime_ns == b.mtime_ns && a->dev == b.dev && a->ino == b.ino;
}

/* What says a file changed: its identity, size and modification time. */
static int stamp(const char *path, struct stat *st)
{
	return stat(path, st);
}

static int same(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* Readings of a file that changes under them before one counts. */
#define READINGS 3

int kineto_reading(const char *path, int (*read)(void *ctx, const char *path, struct rpd_error *err),
		   void (*again)(void *ctx), void *ctx, struct rpd_error *err)
{
	for (int n = 1;; n++) {
		struct stat before, after;
		if (stamp(path, &before) != 0)
			return read(ctx, path, err); /* which says why it cannot be opened */
		int rc = read(ctx, path, err);
		if (stamp(path, &after) == 0 && same(&before, &after))
			return rc;
		if (n == READINGS)
			return err_set(err, _("%s: changed while it was read, %d times; not read"), path,
				       READINGS);
		if (again)
			again(ctx);
	}
}
