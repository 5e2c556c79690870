#include "config.h"
#include "load/background.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "load/load.h"
#include "trace/api_order.h"
#include "trace/side.h"
#include "util/xalloc.h"

struct bg_apis {
	pthread_t thread;
	struct trace side;
	struct api_order order; /* of the side trace's rows, made here too */
	struct rpd_error err;
	int rc;
	atomic_int done;
	atomic_int stop; /* asked to end: the viewer quits */
};

static void *reader(void *arg)
{
	struct bg_apis *b = arg;
	b->rc = trace_read_apis(&b->side, &b->stop, &b->err);
	if (b->rc == 0 && !atomic_load(&b->stop))
		api_order_build(&b->side, &b->order);
	atomic_store(&b->done, 1);
	return NULL;
}

struct bg_apis *bg_apis_start(const struct trace *t)
{
	/* API rows already there are not mixed with more read apart. */
	if (t->apis.n > 0 || t->apis_read || t->no_op_ids || t->ninputs == 0)
		return NULL;
	struct bg_apis *b = xcalloc(1, sizeof(*b));
	trace_side_init(&b->side, t);
	atomic_init(&b->done, 0);
	atomic_init(&b->stop, 0);
	if (pthread_create(&b->thread, NULL, reader, b) != 0) {
		trace_side_free(&b->side);
		free(b);
		return NULL;
	}
	return b;
}

int bg_apis_done(const struct bg_apis *b)
{
	return atomic_load(&b->done);
}

int bg_apis_finish(struct bg_apis *b, struct trace *t, struct api_order *order, struct rpd_error *err)
{
	pthread_join(b->thread, NULL);
	int rc = b->rc;
	if (rc == 0) {
		trace_side_take(t, &b->side);
		api_order_rethread(&b->order, t);
		api_order_free(order);
		*order = b->order;
	} else {
		*err = b->err;
		trace_side_free(&b->side);
	}
	free(b);
	return rc;
}

void bg_apis_cancel(struct bg_apis *b)
{
	if (!b)
		return;
	/* A thousand inputs take seconds: the reading ends at the next one. */
	atomic_store(&b->stop, 1);
	pthread_join(b->thread, NULL);
	api_order_free(&b->order);
	trace_side_free(&b->side);
	free(b);
}
