#include "config.h"
#include "load/load.h"

#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "load/cache.h"
#include "load/inputs.h"
#include "load/instream.h"
#include "load/json_kind.h"
#include "load/kineto.h"
#include "load/nsys.h"
#include "load/progress.h"
#include "load/rocpd.h"
#include "load/rocprof.h"
#include "load/rocprofv3.h"
#include "sqlfile/dbfile_read.h"
#include "trace/merge.h"
#include "util/error.h"
#include "util/i18n.h"
#include "util/threads.h"
#include "util/xalloc.h"

/* Read one input through rd (in its snapshot): the format is told by its
 * tables. */
static int read_one(void *ctx, sqlite3 *db, const char *path, struct rpd_error *err)
{
	const struct input_reader *rd = ctx;
	int version;
	struct rocpd_file file;
	struct nsys_file nsys;
	struct rocprof_file rocprof;
	int rc = rocpd_is(db, path, err);
	if (rc == 1) {
		rc = rocpd_detect(db, path, &file, err);
		if (rc == 0)
			rc = rd->rocpd(rd->ctx, db, path, &file, err);
		rocpd_file_free(&file);
	} else if (rc == 0 && (rc = nsys_is(db, path, err)) == 1) {
		rc = nsys_detect(db, path, &nsys, err);
		if (rc == 0)
			rc = rd->nsys(rd->ctx, db, path, &nsys, err);
	} else if (rc == 0 && (rc = rocprof_is(db, path, err)) == 1) {
		rc = rocprof_detect(db, path, &rocprof, err);
		if (rc == 0)
			rc = rd->rocprof(rd->ctx, db, path, &rocprof, err);
	} else if (rc == 0) {
		rc = rpd_detect(db, path, &version, err);
		if (rc == 0)
			rc = rd->rpd(rd->ctx, db, path, version, err);
	}
	return rc ? -1 : 0;
}

static void reader_again(void *ctx)
{
	const struct input_reader *rd = ctx;
	rd->again(rd->ctx);
}

int load_input(const char *path, const struct input_reader *rd, struct rpd_error *err)
{
	/* A JSON file is read in one go, as the Kineto reader reads its own. */
	switch (json_kind(path)) {
	case JSON_KINETO:
		return kineto_reading(path, rd->kineto, rd->again, rd->ctx, err);
	case JSON_ROCPROFV3:
		return kineto_reading(path, rd->rocprofv3, rd->again, rd->ctx, err);
	default:
		break;
	}
	/* One snapshot for the whole input: tables read one after another
	 * must not see a writer's commit in between. */
	struct input_reader copy = *rd;
	struct dbfile_reading r = { read_one, reader_again, &copy };
	return dbfile_read(path, &r, err);
}

int load_json_is_trace(const char *path)
{
	/* The top-level key that holds a format's events. */
	static const char *const keys[] = { "\"traceEvents\"" };
	switch (json_kind(path)) {
	case JSON_ROCPROFV3:
		return 1;
	case JSON_KINETO:
		return instream_find(path, keys, sizeof(keys) / sizeof(keys[0]), (size_t)1 << 20);
	default:
		return 0;
	}
}

/* Reading an input into a trace. */
struct trace_reader {
	struct trace *t;
	unsigned what;
	int threads;
	int order;                     /* an rpd file's calls are to be put in order as read */
	struct api_order_job *sorting; /* they are, meanwhile */
};

static int read_rocpd(void *ctx, sqlite3 *db, const char *path, const struct rocpd_file *f,
		      struct rpd_error *err)
{
	struct trace_reader *r = ctx;
	return rocpd_read(r->t, db, path, f, r->what, err);
}

static int read_rpd(void *ctx, sqlite3 *db, const char *path, int version, struct rpd_error *err)
{
	struct trace_reader *r = ctx;
	return rpd_read_ordered(r->t, db, trace_add_input(r->t, path, INPUT_RPD, version), r->what,
				r->threads, r->order ? &r->sorting : NULL, err);
}

static int read_kineto(void *ctx, const char *path, struct rpd_error *err)
{
	struct trace_reader *r = ctx;
	return kineto_read(r->t, path, r->what, err);
}

static int read_nsys(void *ctx, sqlite3 *db, const char *path, const struct nsys_file *f,
		     struct rpd_error *err)
{
	struct trace_reader *r = ctx;
	return nsys_read(r->t, db, path, f, r->what, err);
}

static int read_rocprof(void *ctx, sqlite3 *db, const char *path, const struct rocprof_file *f,
			struct rpd_error *err)
{
	struct trace_reader *r = ctx;
	return rocprof_read(r->t, db, path, f, r->what, err);
}

static int read_rocprofv3(void *ctx, const char *path, struct rpd_error *err)
{
	struct trace_reader *r = ctx;
	return rocprofv3_read(r->t, path, r->what, err);
}

/* The trace as trace_init left it, with the flags of the load. */
static void read_again(void *ctx)
{
	struct trace *t = ((struct trace_reader *)ctx)->t;
	api_order_cancel(&((struct trace_reader *)ctx)->sorting);
	int same_node = t->same_node, no_op_ids = t->no_op_ids, apis_read = t->apis_read;
	trace_free(t);
	trace_init(t);
	t->same_node = same_node;
	t->no_op_ids = no_op_ids;
	t->apis_read = apis_read;
}

/* One input into t (as trace_init left it, with the flags of a load);
 * sorting given, an rpd file's calls are put in order as it is read, by
 * that job (NULL: they are not). */
static int load_one(struct trace *t, const char *path, unsigned what, int threads,
		    struct api_order_job **sorting, struct rpd_error *err)
{
	struct trace_reader r = { t, what, threads, sorting != NULL, NULL };
	struct input_reader rd = { read_rocpd,   read_rpd,       read_kineto, read_nsys,
				   read_rocprof, read_rocprofv3, read_again,  &r };
	int rc = load_input(path, &rd, err);
	if (rc)
		api_order_cancel(&r.sorting);
	if (sorting)
		*sorting = r.sorting;
	return rc;
}

enum job_state { JOB_PENDING, JOB_DONE, JOB_FAILED };

struct job {
	const char *path;
	struct trace part;
	struct rpd_error err;
	enum job_state state;
};

struct pool {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct job *jobs;
	size_t n, next;
	int stop;
	unsigned what;
};

static void *worker(void *arg)
{
	struct pool *p = arg;
	for (;;) {
		pthread_mutex_lock(&p->lock);
		if (p->stop || p->next == p->n) {
			pthread_mutex_unlock(&p->lock);
			return NULL;
		}
		struct job *j = &p->jobs[p->next++];
		pthread_mutex_unlock(&p->lock);

		trace_init(&j->part);
		j->part.no_op_ids = (p->what & LOAD_NO_OP_IDS) != 0;
		int rc = load_one(&j->part, j->path, p->what, 1, NULL, &j->err);
		progress_flush();

		pthread_mutex_lock(&p->lock);
		j->state = rc == 0 ? JOB_DONE : JOB_FAILED;
		pthread_cond_broadcast(&p->changed);
		pthread_mutex_unlock(&p->lock);
	}
}

/* Wait for job i, showing progress meanwhile. */
static void wait_job(struct pool *p, size_t i, struct progress *pr)
{
	pthread_mutex_lock(&p->lock);
	while (p->jobs[i].state == JOB_PENDING) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 100 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&p->changed, &p->lock, &ts);
		pthread_mutex_unlock(&p->lock);
		progress_update(pr, i);
		pthread_mutex_lock(&p->lock);
	}
	pthread_mutex_unlock(&p->lock);
}

/* A process read twice (rocpd keeps a guid per process: the originals
 * beside a merged copy of them) is read once: the inputs of part whose
 * guid an input of t has already are marked in skip, with a warning. */
static uint8_t *repeated_processes(const struct trace *t, const struct trace *part, struct progress *pr)
{
	uint8_t *skip = NULL;
	for (size_t i = 0; i < part->ninputs; i++) {
		const char *guid = part->inputs[i].guid;
		for (size_t k = 0; guid && *guid && k < t->ninputs; k++) {
			if (!t->inputs[k].guid || strcmp(t->inputs[k].guid, guid) != 0)
				continue;
			if (!skip)
				skip = xcalloc(part->ninputs, 1);
			if (!skip[i]) {
				progress_end(pr);
				err_report(_("rpdtop: %s: process %s was read from %s already; counted once"),
					   part->inputs[i].path, guid, t->inputs[k].path);
			}
			skip[i] = 1;
		}
	}
	return skip;
}

void load_skipped_free(struct load_skipped *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->paths[i]);
		free(s->why[i]);
	}
	free(s->paths);
	free(s->why);
	memset(s, 0, sizeof(*s));
}

void load_say_skipped(const char *why)
{
	fprintf(stderr, _("rpdtop: skipped %s\n"), why);
}

int load_say_skipped_count(size_t skipped, size_t inputs, struct rpd_error *err)
{
	if (skipped > 0 && skipped >= inputs)
		return err_set(err, _("none of the %zu inputs could be read"), inputs);
	if (skipped > 0)
		fprintf(stderr, _("rpdtop: skipped %ld of %zu inputs that could not be read\n"),
			(long)skipped, inputs);
	return 0;
}

/* An input skipped: said on stderr, or told to the caller. */
static void skipped_one(const struct load_options *o, const char *path, const char *why, struct progress *pr)
{
	struct load_skipped *s = o->skipped;
	if (!s) {
		progress_end(pr);
		load_say_skipped(why);
		return;
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 4;
		s->paths = xrealloc_array(s->paths, s->cap, sizeof(*s->paths));
		s->why = xrealloc_array(s->why, s->cap, sizeof(*s->why));
	}
	s->paths[s->n] = xstrdup(path);
	s->why[s->n++] = xstrdup(why);
}

/* Merge the parts in the order of the inputs as they complete. Returns the
 * number skipped, or -1 when a bad input stops the load. */
static long merge_all(struct trace *t, struct pool *p, const struct load_options *o, struct progress *pr,
		      struct rpd_error *err)
{
	int skip_bad = o->skip_bad;
	long skipped = 0;
	for (size_t i = 0; i < p->n; i++) {
		wait_job(p, i, pr);
		struct job *j = &p->jobs[i];
		if (j->state == JOB_FAILED && !skip_bad) {
			*err = j->err;
			return -1;
		}
		if (j->state == JOB_FAILED) {
			skipped_one(o, j->path, j->err.msg, pr);
			skipped++;
		} else {
			uint8_t *skip = repeated_processes(t, &j->part, pr);
			trace_merge(t, &j->part, skip);
			free(skip);
		}
		trace_free(&j->part);
		progress_update(pr, i + 1);
	}
	return skipped;
}

/* Descriptors a reader may hold at once: the database, its -wal and -shm,
 * the header read beside them. */
#define FDS_PER_READER 4
/* Kept for everything else (standard streams, the terminal, an export). */
#define FDS_SPARE 8

size_t load_readers_that_fit(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return SIZE_MAX;
	if (rl.rlim_cur <= FDS_SPARE + FDS_PER_READER)
		return 1;
	return (size_t)(rl.rlim_cur - FDS_SPARE) / FDS_PER_READER;
}

static long load_parallel(struct trace *t, const struct input_list *in, const struct load_options *o,
			  struct progress *pr, struct rpd_error *err)
{
	struct pool p = { .n = in->n, .what = o->what };
	p.jobs = xcalloc(in->n, sizeof(*p.jobs));
	for (size_t i = 0; i < in->n; i++)
		p.jobs[i].path = in->paths[i];
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.changed, NULL);
	/* This thread only merges what the readers read: its place in the
	 * process's cap goes to a reader meanwhile. */
	threads_lend();
	size_t want = (size_t)threads_limit() < in->n ? (size_t)threads_limit() : in->n;
	size_t fit = load_readers_that_fit();
	want = want < fit ? want : fit;
	size_t nthreads = (size_t)threads_acquire((int)want);
	pthread_t *threads = xcalloc(nthreads ? nthreads : 1, sizeof(*threads));
	size_t started = 0;
	while (started < nthreads && pthread_create(&threads[started], NULL, worker, &p) == 0)
		started++;
	/* Without any thread the work is still done, on this one. */
	if (started == 0)
		worker(&p);
	long skipped = merge_all(t, &p, o, pr, err);

	pthread_mutex_lock(&p.lock);
	p.stop = 1;
	pthread_mutex_unlock(&p.lock);
	for (size_t i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	threads_release((int)nthreads);
	threads_reclaim();
	for (size_t i = 0; i < in->n; i++)
		trace_free(&p.jobs[i].part);
	pthread_mutex_destroy(&p.lock);
	pthread_cond_destroy(&p.changed);
	free(threads);
	free(p.jobs);
	return skipped;
}

/* Inputs read in one pass (JSON) brought their API rows with their ops:
 * the trace then has all of them, those of the other inputs read now
 * (API rows read apart later go only into a trace without any). */
static int apis_with_ops(struct trace *t, struct rpd_error *err)
{
	size_t with = 0;
	for (size_t i = 0; i < t->ninputs; i++)
		with += t->inputs[i].apis_with_ops != 0;
	if (t->apis_read || with == 0)
		return 0;
	if (with < t->ninputs && trace_read_apis(t, NULL, err))
		return -1;
	t->apis_read = 1;
	return 0;
}

static int finish(struct trace *t, const struct input_list *in, long skipped, const struct load_options *o,
		  struct rpd_error *err)
{
	/* A caller told of the skipped inputs says the rest. */
	if (!o->skipped && load_say_skipped_count((size_t)skipped, in->n, err))
		return -1;
	if ((o->what & LOAD_OPS) && t->ops.n == 0 && !o->allow_empty && !trace_ops_left_out(t)) {
		if (in->n == 1)
			return err_set(err, _("%s: trace has no GPU ops"), in->paths[0]);
		return err_set(err, _("none of the %zu inputs has GPU ops"), in->n);
	}
	if (apis_with_ops(t, err))
		return -1;
	trace_finish(t);
	return 0;
}

/* The trace the inputs are read into, before any is. */
static void empty_trace(struct trace *t, const struct load_options *o)
{
	trace_init(t);
	t->same_node = o->same_node;
	t->no_op_ids = (o->what & LOAD_NO_OP_IDS) != 0;
	t->apis_read = (o->what & LOAD_APIS) != 0;
}

int trace_load(struct trace *t, const char *const *args, size_t nargs, const struct load_options *o,
	       struct rpd_error *err)
{
	struct input_list in;
	struct progress pr;
	if (o->cache_entry)
		*o->cache_entry = NULL;
	if (inputs_expand(args, nargs, &in, err)) {
		memset(t, 0, sizeof(*t)); /* as trace_free leaves it */
		return -1;
	}
	if (o->cache_entry &&
	    cache_load(t, in.paths, in.n, o->what, o->same_node, o->cache_want_all, o->cache_entry)) {
		inputs_free(&in);
		return 0;
	}
	/* A trace for the cache is read whole, for every later open: only a
	 * load that writes none leaves calls out. */
	struct load_options whole = *o;
	if (o->cache_entry && *o->cache_entry)
		whole.what &=
			~(unsigned)(LOAD_NO_MARKERS | LOAD_MARKERS_ONLY | LOAD_OPS_UNUSED | LOAD_NO_CALLS);
	o = &whole;
	empty_trace(t, o);
	progress_start(&pr, in.n, o->progress, in.n == 1);
	long skipped = 0;
	struct api_order_job *sorting = NULL;
	/* One input is read straight into the trace, with no merge. */
	if (in.n == 1) {
		skipped = load_one(t, in.paths[0], o->what, threads_limit(), o->order ? &sorting : NULL, err)
				  ? -1
				  : 0;
		/* Skipped as one of several inputs when the caller counts them. */
		if (skipped < 0 && o->skip_bad && o->skipped) {
			skipped_one(o, in.paths[0], err->msg, &pr);
			trace_free(t);
			empty_trace(t, o);
			skipped = 1;
		}
	} else
		skipped = load_parallel(t, &in, o, &pr, err);
	progress_end(&pr);
	int rc = skipped < 0 ? -1 : finish(t, &in, skipped, o, err);
	/* The order was made meanwhile, of rows finish left as they were. */
	if (o->order) {
		api_order_finish(sorting, o->order);
		if (rc || skipped)
			api_order_free(o->order);
	}
	inputs_free(&in);
	if (rc)
		trace_free(t);
	/* A trace missing an input is not what these inputs make. */
	if ((rc || skipped > 0) && o->cache_entry) {
		cache_entry_free(*o->cache_entry);
		*o->cache_entry = NULL;
	}
	return rc;
}

int trace_load_apis(struct trace *t, struct rpd_error *err)
{
	int rc = trace_read_apis(t, NULL, err);
	t->apis_read = rc == 0;
	trace_finish(t);
	return rc;
}

/* The API rows of one input being read, and how far the API rows and
 * what comes with them went before it. */
struct api_reading {
	struct trace *t;
	uint32_t input;
	size_t apis, runs, links, samples, series, copies, graphs;
};

static void mark_apis(struct api_reading *a)
{
	const struct trace *t = a->t;
	a->apis = t->apis.n;
	a->runs = t->apis.runs.n;
	a->links = t->links.n;
	a->samples = t->counters.n;
	a->series = t->counters.nseries;
	a->copies = t->copies.n;
	a->graphs = t->graphs.n;
}

/* Forget what an input's reading added (it is read again). */
static void back_to(void *ctx)
{
	const struct api_reading *a = ctx;
	struct trace *t = a->t;
	trace_api_texts_drop(t, a->apis);
	t->apis.n = a->apis;
	t->apis.runs.n = a->runs;
	t->links.n = a->links;
	t->counters.n = a->samples;
	t->counters.nseries = a->series;
	t->copies.n = a->copies;
	t->graphs.n = a->graphs;
}

static int read_apis_once(void *ctx, sqlite3 *db, const char *path, struct rpd_error *err)
{
	const struct api_reading *a = ctx;
	if (a->t->inputs[a->input].format == INPUT_RPD)
		return rpd_read(a->t, db, a->input, LOAD_APIS, threads_limit(), err);
	if (a->t->inputs[a->input].format == INPUT_NSYS) {
		struct nsys_file f;
		return nsys_detect(db, path, &f, err) || nsys_read_apis(a->t, db, a->input, &f, err) ? -1 : 0;
	}
	if (a->t->inputs[a->input].format == INPUT_ROCPROF) {
		struct rocprof_file f;
		return rocprof_detect(db, path, &f, err) || rocprof_read_apis(a->t, db, a->input, &f, err)
			       ? -1
			       : 0;
	}
	struct rocpd_file file;
	int rc = rocpd_detect(db, path, &file, err);
	if (rc == 0)
		rc = rocpd_read(a->t, db, path, &file, LOAD_APIS, err);
	rocpd_file_free(&file);
	return rc;
}

static int read_kineto_apis(void *ctx, const char *path, struct rpd_error *err)
{
	(void)path;
	const struct api_reading *a = ctx;
	return kineto_read_apis(a->t, a->input, err);
}

static int read_rocprofv3_apis(void *ctx, const char *path, struct rpd_error *err)
{
	(void)path;
	const struct api_reading *a = ctx;
	return rocprofv3_read_apis(a->t, a->input, err);
}

/* The API rows of one input (rpd, Kineto, nsys, rocprof, rocprofv3), or of all a rocpd file's
 * processes, in one snapshot as the ops (load_input). A file growing
 * between the ops and these rows gives links to ops not read, which are
 * dropped. */
static int read_apis_of(struct trace *t, uint32_t input, struct rpd_error *err)
{
	struct api_reading a = { .t = t, .input = input };
	mark_apis(&a);
	if (t->inputs[input].format == INPUT_KINETO)
		return kineto_reading(t->inputs[input].path, read_kineto_apis, back_to, &a, err);
	if (t->inputs[input].format == INPUT_ROCPROFV3)
		return kineto_reading(t->inputs[input].path, read_rocprofv3_apis, back_to, &a, err);
	struct dbfile_reading r = { read_apis_once, back_to, &a };
	return dbfile_read(t->inputs[input].path, &r, err);
}

/* Has an earlier input the same rocpd file (read with it)? */
static int file_read_before(const struct trace *t, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (t->inputs[k].format == INPUT_ROCPD && strcmp(t->inputs[k].path, t->inputs[i].path) == 0)
			return 1;
	return 0;
}

int trace_read_apis(struct trace *t, const atomic_int *stop, struct rpd_error *err)
{
	/* API rows are linked to ops by id. */
	assert(!t->no_op_ids);
	for (size_t i = 0; i < t->ninputs; i++) {
		if (stop && atomic_load(stop))
			return err_set(err, "%s", _("reading the API rows was stopped"));
		if ((t->inputs[i].format == INPUT_ROCPD && file_read_before(t, i)) ||
		    t->inputs[i].apis_with_ops)
			continue;
		if (read_apis_of(t, (uint32_t)i, err))
			return -1;
	}
	return 0;
}
