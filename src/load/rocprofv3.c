#include "config.h"
#include "load/rocprofv3.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/instream.h"
#include "load/rocpd.h" /* rocpd_copy_type */
#include "load/rocprofv3_parse.h"
#include "load/rpd.h" /* enum load_what */
#include "trace/copies.h"
#include "trace/host_copies.h"
#include "util/i18n.h"
#include "util/idmap.h"
#include "util/xalloc.h"

/* Times past this are refused: sums of a few stay within 64 bits. */
#define TIME_LIMIT ((uint64_t)1 << 62)

/* An exact map of pairs of 64-bit values to small numbers. */
struct pair_slot {
	uint64_t a, b;
	uint32_t val, used;
};

struct pairmap {
	struct pair_slot *slots;
	size_t count, nslots;
};

static size_t pair_at(const struct pairmap *m, uint64_t a, uint64_t b)
{
	size_t i = (size_t)idmap_key3(a, b, 0) & (m->nslots - 1);
	while (m->slots[i].used && (m->slots[i].a != a || m->slots[i].b != b))
		i = (i + 1) & (m->nslots - 1);
	return i;
}

/* The value of (a, b), or val given it (*added set) when it has none. */
static uint32_t pair_get(struct pairmap *m, uint64_t a, uint64_t b, uint32_t val, int *added)
{
	if (2 * (m->count + 1) > m->nslots) {
		struct pairmap bigger = { xcalloc(m->nslots ? 2 * m->nslots : 64, sizeof(struct pair_slot)),
					  0, m->nslots ? 2 * m->nslots : 64 };
		for (size_t i = 0; i < m->nslots; i++)
			if (m->slots[i].used)
				bigger.slots[pair_at(&bigger, m->slots[i].a, m->slots[i].b)] = m->slots[i];
		bigger.count = m->count;
		free(m->slots);
		*m = bigger;
	}
	size_t i = pair_at(m, a, b);
	*added = !m->slots[i].used;
	if (*added) {
		m->slots[i] = (struct pair_slot){ a, b, val, 1 };
		m->count++;
	}
	return m->slots[i].val;
}

/* A string kept for the process: its place in the arena. */
struct span {
	size_t off, len;
};

struct agent {
	uint64_t handle;
	int gpu;       /* type 2 */
	int has_index; /* logical_node_type_id, else logical_node_id */
	int64_t index;
	int kind; /* 1 CPU, 2 GPU, else other */
};

/* A lane of dispatches, by agent and queue handle, as met. */
struct lane {
	uint64_t agent, queue;
	size_t record; /* the first dispatch on it, for a message */
};

/* A kernel id as met, and the first dispatch of it. */
struct kernel_ref {
	uint64_t id;
	size_t record;
};

/* A call's name by its kind and operation, as met. */
struct name_ref {
	uint64_t kind, op;
	enum r3_list list;
	size_t record;
	int packed; /* kind and op fit 32 bits each (else no table names them) */
};

struct pend_copy {
	int64_t start, end;
	uint64_t src, dst, stream, corr, bytes, kind, op;
	int has_bytes, has_op;
	size_t record;
};

struct pend_marker {
	uint32_t row, name; /* name: its name_ref, for a marker without message */
	int has_corr;
	uint64_t corr;
};

struct corr_row {
	uint64_t corr;
	uint32_t row;
};

struct corr_rows {
	struct corr_row *v;
	size_t n, cap;
};

/* What is kept of a process until it ends. */
struct process {
	char *arena;
	size_t arena_n, arena_cap;
	struct agent *agents;
	size_t nagents, agents_cap;
	struct idmap agent_of;   /* handle -> agents[] */
	struct span *strs;       /* kernel names, operations' names, messages */
	size_t nstrs, strs_cap;  /* */
	struct idmap symbol_of;  /* kernel id -> strs[] */
	struct idmap op_name_of; /* kind << 32 | op -> strs[] */
	struct idmap message_of; /* correlation id -> strs[] */
	struct pairmap lane_of;  /* (agent, queue) -> lanes[] */
	struct lane *lanes;
	size_t nlanes, lanes_cap;
	struct idmap kernel_of; /* kernel id -> kernels[] */
	struct kernel_ref *kernels;
	size_t nkernels, kernels_cap;
	struct idmap name_of; /* kind << 32 | op -> names[] */
	struct name_ref *names;
	size_t nnames, names_cap;
	uint32_t unpacked;   /* names[] of every kind or op past 32 bits, or TRACE_NONE */
	struct idmap tid_of; /* thread_id -> tids[] */
	uint64_t *tids;
	size_t ntids, tids_cap;
	struct pend_copy *copies;
	size_t ncopies, copies_cap;
	struct pend_marker *markers;
	size_t nmarkers, markers_cap;
	struct corr_rows op_corr, api_corr;
	size_t op_first, api_first; /* its rows in the trace */
	int calls;                  /* API rows met */
};

/* Names as rpd has them. */
enum { S_EMPTY, S_KERNEL, S_MARKER, S_HOST_COPY, NSTR };

struct r3reader {
	struct trace *t;
	const char *path;
	uint32_t input;
	int ops;  /* the ops are read (else they are t's already) */
	int apis; /* the API rows, links and copies' sizes are read */
	struct op_span *span;
	int64_t nops, napis; /* ids of ops and API rows */
	uint32_t str[NSTR];
	/* Where the trace was before this reading: what a failure drops. */
	size_t op_base, api_base, runs_base, links_base, copies_base, host_base;
	struct process pr;
};

static void process_init(struct process *pr, const struct trace *t)
{
	memset(pr, 0, sizeof(*pr));
	pr->unpacked = TRACE_NONE;
	pr->op_first = t->ops.n;
	pr->api_first = t->apis.n;
}

static void process_free(struct process *pr)
{
	free(pr->arena);
	free(pr->agents);
	idmap_free(&pr->agent_of);
	free(pr->strs);
	idmap_free(&pr->symbol_of);
	idmap_free(&pr->op_name_of);
	idmap_free(&pr->message_of);
	free(pr->lane_of.slots);
	free(pr->lanes);
	idmap_free(&pr->kernel_of);
	free(pr->kernels);
	idmap_free(&pr->name_of);
	free(pr->names);
	idmap_free(&pr->tid_of);
	free(pr->tids);
	free(pr->copies);
	free(pr->markers);
	free(pr->op_corr.v);
	free(pr->api_corr.v);
}

static uint32_t keep(struct process *pr, const char *s, size_t n)
{
	pr->arena = xgrow(pr->arena, &pr->arena_cap, pr->arena_n + n, 1);
	memcpy(pr->arena + pr->arena_n, s, n);
	pr->strs = xgrow(pr->strs, &pr->strs_cap, pr->nstrs + 1, sizeof(*pr->strs));
	pr->strs[pr->nstrs] = (struct span){ pr->arena_n, n };
	pr->arena_n += n;
	return (uint32_t)pr->nstrs++;
}

static uint32_t intern_kept(struct r3reader *r, uint32_t s)
{
	return strtab_intern_len(&r->t->strings, r->pr.arena + r->pr.strs[s].off, r->pr.strs[s].len);
}

/* kind and op as one key, when both fit 32 bits. */
static int pack(uint64_t kind, uint64_t op, uint64_t *key)
{
	if (kind > UINT32_MAX || op > UINT32_MAX)
		return 0;
	*key = kind << 32 | op;
	return 1;
}

static void on_agent(void *ctx, const struct r3_agent *a)
{
	struct process *pr = &((struct r3reader *)ctx)->pr;
	if (!(a->have & R3A_HANDLE))
		return;
	struct agent g = { .handle = a->handle,
			   .kind = a->have & R3A_TYPE && a->type <= 2 ? (int)a->type : 0 };
	g.gpu = g.kind == 2;
	if (a->have & (R3A_TYPE_INDEX | R3A_LOGICAL)) {
		uint64_t i = a->have & R3A_TYPE_INDEX ? a->type_index : a->logical;
		g.has_index = i <= INT64_MAX;
		g.index = (int64_t)i;
	}
	pr->agents = xgrow(pr->agents, &pr->agents_cap, pr->nagents + 1, sizeof(*pr->agents));
	pr->agents[pr->nagents] = g;
	idmap_put(&pr->agent_of, a->handle, (uint32_t)pr->nagents++);
}

/* A kernel's name as rocpd's reader names it: its symbol without the
 * descriptor's ".kd"; an empty one gives way to the formatted name. */
static void on_symbol(void *ctx, const struct r3_symbol *s)
{
	struct process *pr = &((struct r3reader *)ctx)->pr;
	if (!s->has_id)
		return;
	const char *name = s->name ? s->name : "";
	size_t n = s->name ? s->name_len : 0;
	if (n == 0 && s->formatted) {
		name = s->formatted;
		n = s->formatted_len;
	}
	if (n > 3 && memcmp(name + n - 3, ".kd", 3) == 0)
		n -= 3;
	idmap_put(&pr->symbol_of, s->kernel_id, keep(pr, name, n));
}

static void on_op_name(void *ctx, uint64_t kind, uint64_t op, const char *s, size_t n)
{
	struct process *pr = &((struct r3reader *)ctx)->pr;
	uint64_t key;
	if (pack(kind, op, &key))
		idmap_put(&pr->op_name_of, key, keep(pr, s, n));
}

static void on_message(void *ctx, uint64_t corr, const char *s, size_t n)
{
	struct process *pr = &((struct r3reader *)ctx)->pr;
	idmap_put(&pr->message_of, corr, keep(pr, s, n));
}

/* Why a field of a record cannot be read. */
static int field_error(const struct r3reader *r, const struct r3_record *rec, enum r3_field f,
		       struct rpd_error *err)
{
	const char *l = rocprofv3_list_name(rec->list), *name = rocprofv3_field_name(f);
	switch (rec->bad[f]) {
	case R3BAD_TYPE:
		return err_set(err, _("%s: process %zu, %s record %zu: %s is not a number"), r->path,
			       rec->process, l, rec->index, name);
	case R3BAD_RANGE:
		if (f == RF_START || f == RF_END)
			return err_set(err, _("%s: process %zu, %s record %zu: %s is past 2^62 ns"), r->path,
				       rec->process, l, rec->index, name);
		return err_set(err, _("%s: process %zu, %s record %zu: %s is out of range"), r->path,
			       rec->process, l, rec->index, name);
	case R3BAD_NEGATIVE:
		return err_set(err, _("%s: process %zu, %s record %zu: %s is negative"), r->path,
			       rec->process, l, rec->index, name);
	case R3BAD_WHOLE:
		return err_set(err, _("%s: process %zu, %s record %zu: %s is not a whole number"), r->path,
			       rec->process, l, rec->index, name);
	default:
		return err_set(err, _("%s: process %zu, %s record %zu: no %s"), r->path, rec->process, l,
			       rec->index, name);
	}
}

static int has(const struct r3_record *rec, enum r3_field f)
{
	return (rec->have >> f) & 1;
}

/* Required fields: 0, or -1 with *err for the first missing or bad. */
static int need(const struct r3reader *r, const struct r3_record *rec, unsigned fields, struct rpd_error *err)
{
	for (int f = 0; f < RF_N; f++)
		if ((fields >> f & 1) && !has(rec, (enum r3_field)f))
			return field_error(r, rec, (enum r3_field)f, err);
	return 0;
}

/* Optional fields: present and good, or absent; -1 with *err for a bad one. */
static int optional(const struct r3reader *r, const struct r3_record *rec, unsigned fields,
		    struct rpd_error *err)
{
	for (int f = 0; f < RF_N; f++)
		if ((fields >> f & 1) && rec->bad[f] != R3BAD_NONE)
			return field_error(r, rec, (enum r3_field)f, err);
	return 0;
}

#define BIT(f) (1u << (f))

/* Its start and end: 0, or -1 with *err. */
static int record_times(const struct r3reader *r, const struct r3_record *rec, int64_t *start, int64_t *end,
			struct rpd_error *err)
{
	if (need(r, rec, BIT(RF_START) | BIT(RF_END), err))
		return -1;
	const char *l = rocprofv3_list_name(rec->list);
	for (int f = RF_START; f <= RF_END; f++)
		if (rec->v[f] > TIME_LIMIT)
			return err_set(err, _("%s: process %zu, %s record %zu: %s %llu ns is past 2^62 ns"),
				       r->path, rec->process, l, rec->index,
				       rocprofv3_field_name((enum r3_field)f), (unsigned long long)rec->v[f]);
	if (rec->v[RF_END] < rec->v[RF_START])
		return err_set(err, _("%s: process %zu, %s record %zu: ends (%llu) before it starts (%llu)"),
			       r->path, rec->process, l, rec->index, (unsigned long long)rec->v[RF_END],
			       (unsigned long long)rec->v[RF_START]);
	*start = (int64_t)rec->v[RF_START];
	*end = (int64_t)rec->v[RF_END];
	return 0;
}

static void corr_push(struct corr_rows *c, uint64_t corr, uint32_t row)
{
	c->v = xgrow(c->v, &c->cap, c->n + 1, sizeof(*c->v));
	c->v[c->n++] = (struct corr_row){ corr, row };
}

static uint32_t lane_of(struct process *pr, uint64_t agent, uint64_t queue, size_t record)
{
	int added;
	uint32_t i = pair_get(&pr->lane_of, agent, queue, (uint32_t)pr->nlanes, &added);
	if (added) {
		pr->lanes = xgrow(pr->lanes, &pr->lanes_cap, pr->nlanes + 1, sizeof(*pr->lanes));
		pr->lanes[pr->nlanes++] = (struct lane){ agent, queue, record };
	}
	return i;
}

static uint32_t kernel_of(struct process *pr, uint64_t id, size_t record)
{
	uint32_t i;
	if (idmap_get(&pr->kernel_of, id, &i))
		return i;
	pr->kernels = xgrow(pr->kernels, &pr->kernels_cap, pr->nkernels + 1, sizeof(*pr->kernels));
	pr->kernels[pr->nkernels] = (struct kernel_ref){ id, record };
	idmap_put(&pr->kernel_of, id, (uint32_t)pr->nkernels);
	return (uint32_t)pr->nkernels++;
}

static uint32_t name_of(struct process *pr, const struct r3_record *rec)
{
	uint64_t key;
	uint32_t i;
	int packed = pack(rec->v[RF_KIND], rec->v[RF_OPERATION], &key);
	if (packed ? idmap_get(&pr->name_of, key, &i) : pr->unpacked != TRACE_NONE)
		return packed ? i : pr->unpacked;
	pr->names = xgrow(pr->names, &pr->names_cap, pr->nnames + 1, sizeof(*pr->names));
	pr->names[pr->nnames] =
		(struct name_ref){ rec->v[RF_KIND], rec->v[RF_OPERATION], rec->list, rec->index, packed };
	if (packed)
		idmap_put(&pr->name_of, key, (uint32_t)pr->nnames);
	else
		pr->unpacked = (uint32_t)pr->nnames;
	return (uint32_t)pr->nnames++;
}

static uint32_t tid_of(struct process *pr, uint64_t tid)
{
	uint32_t i;
	if (idmap_get(&pr->tid_of, tid, &i))
		return i;
	pr->tids = xgrow(pr->tids, &pr->tids_cap, pr->ntids + 1, sizeof(*pr->tids));
	pr->tids[pr->ntids] = tid;
	idmap_put(&pr->tid_of, tid, (uint32_t)pr->ntids);
	return (uint32_t)pr->ntids++;
}

/* A dispatch: its row now, on its lane and named when its process ends
 * (until then its queue and name are the lane's and kernel's numbers). */
static int dispatch(struct r3reader *r, const struct r3_record *rec, struct rpd_error *err)
{
	int64_t id = ++r->nops, start, end;
	if (record_times(r, rec, &start, &end, err) ||
	    need(r, rec, BIT(RF_AGENT) | BIT(RF_QUEUE) | BIT(RF_KERNEL), err) ||
	    optional(r, rec, BIT(RF_CORR), err))
		return -1;
	if (r->span) {
		op_span_add(r->span, start, end);
		return 0;
	}
	struct trace *t = r->t;
	uint32_t row;
	if (r->ops) {
		uint32_t lane = lane_of(&r->pr, rec->v[RF_AGENT], rec->v[RF_QUEUE], rec->index);
		row = trace_add_op(t, id, start, end, r->str[S_EMPTY], r->str[S_KERNEL], lane);
		t->ops.name[row] = kernel_of(&r->pr, rec->v[RF_KERNEL], rec->index);
	} else {
		row = trace_op_row(t, r->input, id);
		if (row == TRACE_NONE)
			return 0;
	}
	if (r->apis && has(rec, RF_CORR) && rec->v[RF_CORR] != 0)
		corr_push(&r->pr.op_corr, rec->v[RF_CORR], row);
	return 0;
}

/* A copy: kept until its process ends, which says its agents. */
static int copy(struct r3reader *r, const struct r3_record *rec, struct rpd_error *err)
{
	struct pend_copy c = { .record = rec->index };
	if (record_times(r, rec, &c.start, &c.end, err) || need(r, rec, BIT(RF_SRC) | BIT(RF_DST), err) ||
	    optional(r, rec, BIT(RF_KIND) | BIT(RF_OPERATION) | BIT(RF_BYTES) | BIT(RF_STREAM) | BIT(RF_CORR),
		     err))
		return -1;
	c.src = rec->v[RF_SRC];
	c.dst = rec->v[RF_DST];
	c.stream = has(rec, RF_STREAM) ? rec->v[RF_STREAM] : 0;
	c.corr = has(rec, RF_CORR) ? rec->v[RF_CORR] : 0;
	c.has_bytes = has(rec, RF_BYTES) && rec->v[RF_BYTES] <= INT64_MAX;
	c.bytes = rec->v[RF_BYTES];
	c.has_op = has(rec, RF_KIND) && has(rec, RF_OPERATION);
	c.kind = rec->v[RF_KIND];
	c.op = rec->v[RF_OPERATION];
	struct process *pr = &r->pr;
	pr->copies = xgrow(pr->copies, &pr->copies_cap, pr->ncopies + 1, sizeof(*pr->copies));
	pr->copies[pr->ncopies++] = c;
	return 0;
}

/* A call or a roctx marker: its row now, its thread and name when its
 * process ends (until then the thread's number, and the name's, or
 * TRACE_NONE for a marker). */
static int call(struct r3reader *r, const struct r3_record *rec, int marker, struct rpd_error *err)
{
	int64_t start, end;
	if (!r->apis)
		return 0;
	if (record_times(r, rec, &start, &end, err) ||
	    need(r, rec, BIT(RF_THREAD) | BIT(RF_KIND) | BIT(RF_OPERATION), err) ||
	    optional(r, rec, BIT(RF_CORR), err))
		return -1;
	struct process *pr = &r->pr;
	uint32_t thread = tid_of(pr, rec->v[RF_THREAD]), name = name_of(pr, rec);
	uint32_t row =
		trace_add_api(r->t, ++r->napis, start, end, marker ? TRACE_NONE : name, TRACE_NONE, thread);
	int corr = has(rec, RF_CORR) && rec->v[RF_CORR] != 0;
	if (marker) {
		pr->markers = xgrow(pr->markers, &pr->markers_cap, pr->nmarkers + 1, sizeof(*pr->markers));
		pr->markers[pr->nmarkers++] = (struct pend_marker){ row, name, corr, rec->v[RF_CORR] };
	} else if (corr) {
		corr_push(&pr->api_corr, rec->v[RF_CORR], row);
	}
	pr->calls = 1;
	return 0;
}

static int on_record(void *ctx, const struct r3_record *rec, struct rpd_error *err)
{
	struct r3reader *r = ctx;
	switch (rec->list) {
	case R3_DISPATCH:
		return dispatch(r, rec, err);
	case R3_COPY:
		return copy(r, rec, err);
	case R3_MARKER:
		return call(r, rec, 1, err);
	default:
		return call(r, rec, 0, err);
	}
}

static const struct agent *agent_named(const struct process *pr, uint64_t handle)
{
	uint32_t i;
	return idmap_get(&pr->agent_of, handle, &i) ? &pr->agents[i] : NULL;
}

/* The GPU agent a record names by handle (in field f): 0, or -1 with
 * *err when no GPU agent of the process has it. */
static int gpu_agent(const struct r3reader *r, size_t process, enum r3_list list, size_t record,
		     enum r3_field f, uint64_t handle, const struct agent **out, struct rpd_error *err)
{
	const struct agent *a = agent_named(&r->pr, handle);
	const char *l = rocprofv3_list_name(list), *name = rocprofv3_field_name(f);
	if (!a)
		return err_set(err, _("%s: process %zu, %s record %zu: %s %llu is not among the agents"),
			       r->path, process, l, record, name, (unsigned long long)handle);
	if (out == NULL)
		return 0;
	if (!a->gpu)
		return err_set(err, _("%s: process %zu, %s record %zu: %s %llu is no GPU agent"), r->path,
			       process, l, record, name, (unsigned long long)handle);
	if (!a->has_index)
		return err_set(err,
			       _("%s: process %zu: GPU agent %llu has no logical_node_type_id nor "
				 "logical_node_id"),
			       r->path, process, (unsigned long long)handle);
	*out = a;
	return 0;
}

/* The name of the kind and operation of names[i]: kept[] index, or
 * TRACE_NONE. */
static uint32_t op_name(const struct process *pr, const struct name_ref *n)
{
	uint64_t key;
	uint32_t s;
	return n->packed && pack(n->kind, n->op, &key) && idmap_get(&pr->op_name_of, key, &s) ? s
											      : TRACE_NONE;
}

static int unnamed(const struct r3reader *r, size_t process, const struct name_ref *n, struct rpd_error *err)
{
	return err_set(err,
		       _("%s: process %zu, %s record %zu: kind %llu operation %llu is not named in "
			 "strings.buffer_records"),
		       r->path, process, rocprofv3_list_name(n->list), n->record, (unsigned long long)n->kind,
		       (unsigned long long)n->op);
}

static uint32_t message(const struct process *pr, const struct pend_marker *m)
{
	uint32_t s;
	return m->has_corr && idmap_get(&pr->message_of, m->corr, &s) ? s : TRACE_NONE;
}

/* Everything the process's records name is there: 0, or -1 with *err. */
static int check_process(struct r3reader *r, const struct r3_process *p, struct rpd_error *err)
{
	struct process *pr = &r->pr;
	if (pr->calls && (!p->has_pid || p->pid > INT64_MAX))
		return err_set(err, _("%s: process %zu: no metadata.pid (the process of its calls)"), r->path,
			       p->index);
	for (size_t i = 0; i < pr->nkernels; i++) {
		uint32_t s;
		if (!idmap_get(&pr->symbol_of, pr->kernels[i].id, &s))
			return err_set(
				err,
				_("%s: process %zu, kernel_dispatch record %zu: %s %llu is not among the "
				  "kernel_symbols"),
				r->path, p->index, pr->kernels[i].record, rocprofv3_field_name(RF_KERNEL),
				(unsigned long long)pr->kernels[i].id);
	}
	const struct agent *a;
	for (size_t i = 0; i < pr->nlanes; i++)
		if (gpu_agent(r, p->index, R3_DISPATCH, pr->lanes[i].record, RF_AGENT, pr->lanes[i].agent, &a,
			      err))
			return -1;
	for (size_t i = 0; i < pr->ncopies; i++)
		if (gpu_agent(r, p->index, R3_COPY, pr->copies[i].record, RF_SRC, pr->copies[i].src, NULL,
			      err) ||
		    gpu_agent(r, p->index, R3_COPY, pr->copies[i].record, RF_DST, pr->copies[i].dst, NULL,
			      err))
			return -1;
	/* Calls need their names; a marker needs its own only without a
	 * message. */
	uint8_t *needed = xcalloc(pr->nnames ? pr->nnames : 1, 1);
	for (size_t row = pr->api_first; r->apis && row < r->t->apis.n; row++)
		if (r->t->apis.name[row] != TRACE_NONE)
			needed[r->t->apis.name[row]] = 1;
	for (size_t i = 0; i < pr->nmarkers; i++)
		if (message(pr, &pr->markers[i]) == TRACE_NONE)
			needed[pr->markers[i].name] = 1;
	int rc = 0;
	for (size_t i = 0; i < pr->nnames && rc == 0; i++)
		if (needed[i] && op_name(pr, &pr->names[i]) == TRACE_NONE)
			rc = unnamed(r, p->index, &pr->names[i], err);
	free(needed);
	return rc;
}

static int by_corr(const void *a, const void *b)
{
	const struct corr_row *x = a, *y = b;
	if (x->corr != y->corr)
		return x->corr < y->corr ? -1 : 1;
	return (x->row > y->row) - (x->row < y->row);
}

/* Each op of the process to the first call of it with its correlation id. */
static void link_ops(struct r3reader *r)
{
	struct corr_rows *o = &r->pr.op_corr, *a = &r->pr.api_corr;
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

/* "GPU 1", "CPU 0": an agent of a copy, by kind and index. */
static uint32_t agent_text(struct r3reader *r, const struct agent *a)
{
	char buf[64];
	if (!a->has_index)
		return TRACE_NONE;
	snprintf(buf, sizeof(buf), "%s %lld",
		 a->kind == 2   ? "GPU"
		 : a->kind == 1 ? "CPU"
				: "agent",
		 (long long)a->index);
	return strtab_intern(&r->t->strings, buf);
}

/* The lane of copies of a stream on a GPU: named as rocpd names streams. */
static uint32_t copy_lane(struct r3reader *r, uint32_t gpu, uint64_t stream)
{
	struct trace *t = r->t;
	uint32_t q = trace_queue(t, gpu, (int64_t)(UINT64_MAX - 1 - stream)); /* -2 - stream */
	if (t->queues[q].name == TRACE_NONE) {
		char buf[64];
		if (stream == 0)
			snprintf(buf, sizeof(buf), "Default Stream");
		else
			snprintf(buf, sizeof(buf), "Stream %llu", (unsigned long long)stream);
		trace_queue_set_name(t, q, strtab_intern(&t->strings, buf));
	}
	return q;
}

/* A copy, once its agents are known: a GPU op (its id the next), or
 * between agents that are no GPUs a host copy. */
static void add_copy(struct r3reader *r, const struct pend_copy *c)
{
	struct trace *t = r->t;
	struct process *pr = &r->pr;
	const struct agent *src = agent_named(pr, c->src), *dst = agent_named(pr, c->dst);
	int from_gpu = src->gpu && src->has_index, to_gpu = dst->gpu && dst->has_index;
	if (!from_gpu && !to_gpu) {
		if (r->ops && !r->span)
			trace_add_host_copy(t, r->input, c->start, c->end, r->str[S_HOST_COPY]);
		return;
	}
	int64_t id = ++r->nops;
	if (r->span) {
		op_span_add(r->span, c->start, c->end);
		return;
	}
	uint32_t row;
	if (r->ops) {
		struct name_ref n = { c->kind, c->op, R3_COPY, c->record, 1 };
		uint32_t s = c->has_op ? op_name(pr, &n) : TRACE_NONE;
		char opname[64] = "";
		if (s != TRACE_NONE)
			snprintf(opname, sizeof(opname), "%.*s", (int)pr->strs[s].len,
				 pr->arena + pr->strs[s].off);
		const char *type = rocpd_copy_type(opname, from_gpu, to_gpu);
		uint32_t gpu = trace_gpu(t, r->input, to_gpu ? dst->index : src->index);
		row = trace_add_op(t, id, c->start, c->end, r->str[S_EMPTY], strtab_intern(&t->strings, type),
				   copy_lane(r, gpu, c->stream));
	} else {
		row = trace_op_row(t, r->input, id);
		if (row == TRACE_NONE)
			return;
	}
	if (r->apis && c->corr != 0)
		corr_push(&pr->op_corr, c->corr, row);
	if (r->apis && c->has_bytes)
		trace_add_copy(t, row, (int64_t)c->bytes, agent_text(r, src), agent_text(r, dst));
}

/* The process ends: its rows get their lanes, names and threads, its ops
 * their calls. */
static int on_process_end(void *ctx, const struct r3_process *p, struct rpd_error *err)
{
	struct r3reader *r = ctx;
	struct process *pr = &r->pr;
	struct trace *t = r->t;
	if (check_process(r, p, err))
		return -1;
	if (r->ops && !r->span) {
		uint32_t *queue = xcalloc(pr->nlanes ? pr->nlanes : 1, sizeof(*queue));
		uint32_t *name = xcalloc(pr->nkernels ? pr->nkernels : 1, sizeof(*name));
		for (size_t i = 0; i < pr->nlanes; i++) {
			const struct agent *a = agent_named(pr, pr->lanes[i].agent);
			queue[i] =
				trace_queue(t, trace_gpu(t, r->input, a->index), (int64_t)pr->lanes[i].queue);
		}
		for (size_t i = 0; i < pr->nkernels; i++) {
			uint32_t s = 0;
			idmap_get(&pr->symbol_of, pr->kernels[i].id, &s);
			name[i] = intern_kept(r, s);
		}
		for (size_t row = pr->op_first; row < t->ops.n; row++)
			trace_set_op(t, (uint32_t)row, name[t->ops.name[row]], r->str[S_KERNEL],
				     queue[t->ops.queue[row]]);
		free(queue);
		free(name);
	}
	for (size_t i = 0; i < pr->ncopies; i++)
		add_copy(r, &pr->copies[i]);
	if (r->apis && !r->span) {
		uint32_t *thread = xcalloc(pr->ntids ? pr->ntids : 1, sizeof(*thread));
		uint32_t *name = xcalloc(pr->nnames ? pr->nnames : 1, sizeof(*name));
		for (size_t i = 0; i < pr->ntids; i++)
			thread[i] = trace_thread(t, r->input, (int64_t)p->pid, (int64_t)pr->tids[i]);
		for (size_t i = 0; i < pr->nnames; i++) {
			uint32_t s = op_name(pr, &pr->names[i]);
			name[i] = s == TRACE_NONE ? TRACE_NONE : intern_kept(r, s);
		}
		for (size_t row = pr->api_first; row < t->apis.n; row++) {
			t->apis.thread[row] = thread[t->apis.thread[row]];
			uint32_t n = t->apis.name[row];
			t->apis.name[row] = n == TRACE_NONE ? r->str[S_MARKER] : name[n];
		}
		for (size_t i = 0; i < pr->nmarkers; i++) {
			uint32_t m = message(pr, &pr->markers[i]);
			trace_add_api_text(t, pr->markers[i].row,
					   m != TRACE_NONE ? intern_kept(r, m) : name[pr->markers[i].name]);
		}
		free(thread);
		free(name);
		link_ops(r);
	}
	process_free(pr);
	process_init(pr, t);
	return 0;
}

static void intern_names(struct r3reader *r)
{
	static const char *const names[NSTR] = { "", "KernelExecution", TRACE_MARKER_NAME,
						 TRACE_HOST_COPY_NAME };
	for (int i = 0; i < NSTR; i++)
		r->str[i] = strtab_intern(&r->t->strings, names[i]);
}

/* What this reading added, dropped (it failed). */
static void drop_rows(struct r3reader *r)
{
	struct trace *t = r->t;
	if (r->ops && !r->span) {
		t->ops.n = r->op_base;
		t->host_copies.n = r->host_base;
	}
	if (r->apis && !r->span) {
		trace_api_texts_drop(t, r->api_base);
		t->apis.n = r->api_base;
		t->apis.runs.n = r->runs_base;
		t->links.n = r->links_base;
		t->copies.n = r->copies_base;
	}
}

static int read_file(struct r3reader *r, struct rpd_error *err)
{
	struct trace *t = r->t;
	struct instream in;
	r->op_base = t->ops.n;
	r->api_base = t->apis.n;
	r->runs_base = t->apis.runs.n;
	r->links_base = t->links.n;
	r->copies_base = t->copies.n;
	r->host_base = t->host_copies.n;
	intern_names(r);
	process_init(&r->pr, t);
	if (instream_open(&in, r->path, err))
		return -1;
	struct r3_handler h = { r, on_record, on_process_end, on_agent, on_symbol, on_op_name, on_message };
	int rc = rocprofv3_parse(&in, r->path, &h, err);
	instream_close(&in);
	process_free(&r->pr);
	if (rc)
		drop_rows(r);
	return rc;
}

int rocprofv3_read(struct trace *t, const char *path, unsigned what, struct rpd_error *err)
{
	struct r3reader r = { .t = t, .path = path };
	r.ops = (what & LOAD_OPS) != 0;
	r.apis = (what & LOAD_APIS) || !(what & LOAD_NO_OP_IDS);
	r.input = trace_add_input(t, path, INPUT_ROCPROFV3, 0);
	size_t op_first = t->ops.n, api_first = t->apis.n;
	int rc = read_file(&r, err);
	struct trace_input *in = &t->inputs[r.input];
	in->op_first = op_first;
	in->op_count = t->ops.n - op_first;
	in->api_first = api_first;
	in->api_count = t->apis.n - api_first;
	in->apis_with_ops = r.apis;
	return rc;
}

int rocprofv3_read_apis(struct trace *t, uint32_t input, struct rpd_error *err)
{
	struct r3reader r = { .t = t, .path = t->inputs[input].path, .input = input, .apis = 1 };
	size_t api_first = t->apis.n;
	int rc = read_file(&r, err);
	t->inputs[input].api_first = api_first;
	t->inputs[input].api_count = t->apis.n - api_first;
	return rc;
}

int rocprofv3_span(const char *path, struct op_span *out, struct rpd_error *err)
{
	struct trace t;
	trace_init(&t);
	memset(out, 0, sizeof(*out));
	struct r3reader r = { .t = &t, .path = path, .ops = 1, .span = out };
	int rc = read_file(&r, err);
	trace_free(&t);
	return rc;
}
