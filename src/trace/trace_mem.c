#include "config.h"
#include "trace/trace_mem.h"

/* Bytes of cap elements of an array that exists and is the trace's own
 * (a column mapped from the cache is counted with the mapping). */
#define COL(p, cap) (owned(t, (p)) ? (size_t)(cap) * sizeof(*(p)) : 0)

#define HEAP(p, n) ((p) ? (size_t)(n) * sizeof(*(p)) : 0)

static int owned(const struct trace *t, const void *p)
{
	const char *c = p, *base = t->borrowed.base;
	return c && !(base && c >= base && c < base + t->borrowed.len);
}

static void ops_memory(const struct trace *t, const struct trace_ops *o, struct mem_report *r)
{
	mem_add(r, "ops.", "id", COL(o->id, o->cap));
	mem_add(r, "ops.", "start", COL(o->start, o->cap));
	mem_add(r, "ops.", "end", COL(o->end, o->cap));
	mem_add(r, "ops.", "name", COL(o->name, o->cap));
	mem_add(r, "ops.", "queue", COL(o->queue, o->cap));
	mem_add(r, "ops.", "kind", COL(o->kind, o->cap));
	const struct trace_host_copies *h = &t->host_copies;
	mem_add(r, "", "host-to-host copies",
		COL(h->start, h->cap) + COL(h->end, h->cap) + COL(h->name, h->cap) + COL(h->input, h->cap));
}

static void apis_memory(const struct trace *t, const struct trace_apis *a, struct mem_report *r)
{
	mem_add(r, "api.", "id", COL(a->id, a->cap));
	mem_add(r, "api.", "id runs", COL(a->runs.row, a->runs.cap) + COL(a->runs.id, a->runs.cap));
	mem_add(r, "api.", "start", COL(a->start, a->cap));
	mem_add(r, "api.", "end", COL(a->end, a->cap));
	mem_add(r, "api.", "name", COL(a->name, a->cap));
	mem_add(r, "api.", "thread", COL(a->thread, a->cap));
	mem_add(r, "api.", "texted (a bit a row)", COL(a->texted, (a->cap + 63) / 64));
}

static void strings_memory(const struct trace *t, const struct strtab *s, struct mem_report *r)
{
	mem_add(r, "strings.", "bytes", s->bytes ? s->bytes_cap : 0);
	mem_add(r, "strings.", "offsets", COL(s->offset, s->offset_cap));
	mem_add(r, "strings.", "lengths", COL(s->len, s->len_cap));
	mem_add(r, "strings.", "hash", COL(s->slots, s->nslots));
}

static void side_memory(const struct trace *t, struct mem_report *r)
{
	mem_add(r, "", "links (while loading)",
		COL(t->links.api, t->links.cap) + COL(t->links.op, t->links.cap));
	mem_add(r, "ops.", "launching call", COL(t->op_launch, t->op_launch_n));
	const struct trace_counters *c = &t->counters;
	mem_add(r, "", "counters",
		COL(c->of, c->cap) + COL(c->start, c->cap) + COL(c->end, c->cap) + COL(c->value, c->cap) +
			COL(c->series, c->series_cap));
	const struct trace_copies *k = &t->copies;
	mem_add(r, "", "copies",
		COL(k->op, k->cap) + COL(k->bytes, k->cap) + COL(k->src, k->cap) + COL(k->dst, k->cap));
	mem_add(r, "", "graph launches",
		COL(t->graphs.api, t->graphs.cap) + COL(t->graphs.exec, t->graphs.cap));
	mem_add(r, "", "lanes (GPUs, queues, threads)",
		COL(t->gpus, t->gpus_cap) + COL(t->queues, t->queues_cap) + COL(t->threads, t->threads_cap) +
			COL(t->lane_index.slots, t->lane_index.nslots));
}

void trace_memory(const struct trace *t, struct mem_report *r)
{
	ops_memory(t, &t->ops, r);
	apis_memory(t, &t->apis, r);
	strings_memory(t, &t->strings, r);
	/* File pages, shared with the page cache: resident as they are read. */
	mem_add(r, "", "cache file (mapped)", t->borrowed.base ? t->borrowed.len : 0);
	side_memory(t, r);
}

void api_order_memory(const struct api_order *o, struct mem_report *r, const char *prefix)
{
	size_t nparents = o->pfirst && o->nthreads ? o->pfirst[o->nthreads] : 0;
	/* Rows a cache file kept are counted with its mapping. */
	mem_add(r, prefix, "calls by thread",
		(o->borrowed ? 0 : HEAP(o->rows, o->napis)) + HEAP(o->first, o->nthreads + 1));
	mem_add(r, prefix, "enclosing calls", HEAP(o->parents, nparents) + HEAP(o->pfirst, o->nthreads + 1));
}
