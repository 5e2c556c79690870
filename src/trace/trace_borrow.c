/* Columns a trace borrows from a block it does not own (a cache file the
 * loader mapped): copied to the heap before anything changes them. */
#include "config.h"
#include "trace/trace_borrow.h"

#include <string.h>

#include "util/xalloc.h"

/* Every column a trace may borrow, with its length in items: the
 * strings, the ops, and the API rows with what comes with them. */
#define STRING_COLUMNS(DO)                                                                                   \
	DO(t->strings.bytes, t->strings.bytes_len)                                                           \
	DO(t->strings.offset, t->strings.count)                                                              \
	DO(t->strings.len, t->strings.count)                                                                 \
	DO(t->strings.slots, t->strings.nslots)
#define OP_COLUMNS(DO)                                                                                       \
	DO(t->ops.id, t->ops.n)                                                                              \
	DO(t->ops.start, t->ops.n)                                                                           \
	DO(t->ops.end, t->ops.n)                                                                             \
	DO(t->ops.name, t->ops.n)                                                                            \
	DO(t->ops.queue, t->ops.n)                                                                           \
	DO(t->ops.kind, t->ops.n)                                                                            \
	DO(t->host_copies.start, t->host_copies.n)                                                           \
	DO(t->host_copies.end, t->host_copies.n)                                                             \
	DO(t->host_copies.name, t->host_copies.n)                                                            \
	DO(t->host_copies.input, t->host_copies.n)
#define API_COLUMNS(DO)                                                                                      \
	DO(t->apis.id, t->apis.n)                                                                            \
	DO(t->apis.runs.row, t->apis.runs.n)                                                                 \
	DO(t->apis.runs.id, t->apis.runs.n)                                                                  \
	DO(t->apis.start, t->apis.n)                                                                         \
	DO(t->apis.end, t->apis.n)                                                                           \
	DO(t->apis.name, t->apis.n)                                                                          \
	DO(t->apis.thread, t->apis.n)                                                                        \
	DO(t->apis.texted, t->apis.n / 64 + 1)                                                               \
	DO(t->op_launch, t->op_launch_n)                                                                     \
	DO(t->counters.of, t->counters.n)                                                                    \
	DO(t->counters.start, t->counters.n)                                                                 \
	DO(t->counters.end, t->counters.n)                                                                   \
	DO(t->counters.value, t->counters.n)                                                                 \
	DO(t->copies.op, t->copies.n)                                                                        \
	DO(t->copies.bytes, t->copies.n)                                                                     \
	DO(t->copies.src, t->copies.n)                                                                       \
	DO(t->copies.dst, t->copies.n)                                                                       \
	DO(t->graphs.api, t->graphs.n)                                                                       \
	DO(t->graphs.exec, t->graphs.n)
#define TRACE_COLUMNS(DO) STRING_COLUMNS(DO) OP_COLUMNS(DO) API_COLUMNS(DO)

int trace_borrowed(const struct trace *t, const void *p)
{
	const char *c = p;
	return t->borrowed.base && c && c >= t->borrowed.base && c < t->borrowed.base + t->borrowed.len;
}

/* A heap copy of n bytes at p when p is borrowed, else p. */
static void *own_copy(const struct trace *t, void *p, size_t n)
{
	if (!trace_borrowed(t, p))
		return p;
	void *copy = xmalloc(n ? n : 1);
	memcpy(copy, p, n);
	return copy;
}

#define OWN_COLUMN(col, n) (col) = own_copy(t, (col), (n) * sizeof(*(col)));
#define FORGET_COLUMN(col, n)                                                                                \
	if (trace_borrowed(t, (col)))                                                                        \
		(col) = NULL;

static void release_borrowed(struct trace *t)
{
	if (t->borrowed.base && t->borrowed.release)
		t->borrowed.release(t->borrowed.ctx);
	memset(&t->borrowed, 0, sizeof(t->borrowed));
}

/* Capacities of borrowed columns are their lengths: so are the copies'.
 * The block stays until trace_free: what was made of the trace before
 * (a timeline's lanes) may point into it still. */
void trace_own(struct trace *t)
{
	if (!t->borrowed.base)
		return;
	TRACE_COLUMNS(OWN_COLUMN)
}

void trace_own_ops(struct trace *t)
{
	if (!t->borrowed.base)
		return;
	OP_COLUMNS(OWN_COLUMN)
}

void trace_own_apis(struct trace *t)
{
	/* The rows are about to change: their kept order would not hold. */
	t->call_order = NULL;
	if (!t->borrowed.base)
		return;
	API_COLUMNS(OWN_COLUMN)
}

void trace_forget_borrowed(struct trace *t)
{
	TRACE_COLUMNS(FORGET_COLUMN)
	t->call_order = NULL;
	release_borrowed(t);
}
