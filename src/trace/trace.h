/* The unified in-memory trace: every input's GPU ops and API rows as
 * columns, names as interned string ids, GPUs, queues and threads as small
 * lane indices. Built once by a loader or the generator, then read-only. */
#ifndef RPDTOP_TRACE_H
#define RPDTOP_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "trace/copies.h"
#include "trace/counters.h"
#include "trace/graphs.h"
#include "trace/host_copies.h"
#include "trace/strtab.h"
#include "util/idmap.h"
#include "util/rankbits.h"

#define TRACE_NONE UINT32_MAX

/* rocpd keeps copies in another table than kernel dispatches: a copy's
 * op id in the trace is its row id plus this offset. Calls without a
 * duration (roctx marks) are samples, not regions: their API ids are
 * moved past the regions' by the other. */
#define ROCPD_COPY_ID_BASE ((int64_t)1 << 48)
#define ROCPD_SAMPLE_ID_BASE ((int64_t)1 << 50)

enum op_kind {
	OP_KERNEL,  /* non-empty description, not a copy or barrier */
	OP_COPY,    /* opType Copy* */
	OP_BARRIER, /* opType Barrier* */
	OP_OTHER,   /* anything else without a description (FillBuffer, ...) */
};

enum input_format {
	INPUT_RPD,       /* rocmProfileData */
	INPUT_ROCPD,     /* rocprofiler-sdk */
	INPUT_KINETO,    /* PyTorch profiler (Kineto) Chrome-trace JSON */
	INPUT_NSYS,      /* NVIDIA Nsight Systems SQLite export */
	INPUT_ROCPROF,   /* rocprof (v1) results.db */
	INPUT_ROCPROFV3, /* rocprofv3 --output-format json */
};

/* Inputs recorded on one machine share a domain: their GPU 0 is one GPU
 * and their pid 1234 one process. An input that does not say where it was
 * recorded has a domain of its own. */
struct trace_domain {
	char *node; /* host name, or NULL for an input of unknown origin */
};

/* A file as it was read: its size, modification time, device and inode.
 * A Kineto trace is read again by its export, which must find the file
 * the trace was read from. */
struct trace_stamp {
	int64_t size, mtime_ns;
	uint64_t dev, ino;
};

struct trace_input {
	char *path;
	char *uuid, *guid; /* rocpd: the process's table suffix and guid, else NULL */
	int format;        /* enum input_format */
	int schema_version;
	uint32_t domain;             /* index into trace.domains */
	size_t op_first, op_count;   /* its ops: a run of trace.ops */
	size_t api_first, api_count; /* its API rows, when read as a run */
	int64_t op_id0;              /* the first op id, when op ids are not kept */
	int launches_only;           /* of its API rows, only the calls that launched ops are in */
	int apis_with_ops;           /* its API rows were read with its ops (a JSON trace's one pass) */
	int ops_left_out;            /* it has ops, not read (LOAD_OPS_UNUSED) */
	/* Its rank in a distributed job and the job's size, as the input
	 * says (Kineto's distributedInfo); -1 and 0 when it does not. */
	int64_t rank, world_size;
	struct trace_stamp stamp; /* Kineto: the file its ops were read from */
};

struct trace_gpu {
	uint32_t domain;
	uint32_t input; /* the first input it was seen in, for its label */
	int64_t device; /* gpuId (rpd) or GPU index (rocpd) as recorded */
};

struct trace_queue {
	uint32_t gpu;  /* index into trace.gpus */
	int64_t queue; /* queueId as recorded (rocpd: a queue's handle, or a stream's) */
	uint32_t name; /* string id of its name ("Queue 0"), or TRACE_NONE */
};

struct trace_thread {
	uint32_t domain;
	uint32_t input;
	int64_t pid, tid;
	uint32_t name; /* string id of its name (a Kineto trace's thread_name), or TRACE_NONE */
};

struct trace_ops {
	size_t n, cap;
	int64_t *id; /* id in its input database; NULL with trace.no_op_ids
		      * or when ids run without gaps (trace_op_id) */
	int64_t *start, *end;
	uint32_t *name;  /* description, or opType when the description is empty */
	uint32_t *queue; /* index into trace.queues */
	uint8_t *kind;   /* enum op_kind */
};

/* Ids that run on without gaps, in stretches: stretch k holds rows
 * row[k] .. row[k + 1] - 1 (the last: to the table's end) with ids from
 * id[k]. A few stretches hold the ids of millions of calls. */
struct id_runs {
	size_t n, cap;
	size_t *row;
	int64_t *id;
};

/* A stretch more: from row on, the ids from id. */
void id_runs_push(struct id_runs *r, size_t row, int64_t id);

struct trace_apis {
	size_t n, cap;
	/* Each row's id; NULL while the ids are kept as runs (a table whose
	 * ids jump too often gets the column, trace_apis_need_ids). */
	int64_t *id;
	struct id_runs runs;
	int64_t *start, *end;
	/* apiName; for a roctx marker that carries a text, the text (its
	 * API name is then marker_name: the text is what it is shown and
	 * matched by, and storing it here costs nothing more). */
	uint32_t *name;
	uint32_t *thread;     /* index into trace.threads */
	uint64_t *texted;     /* a bit per row: its name is a marker's text */
	uint32_t marker_name; /* string id of TRACE_MARKER_NAME, TRACE_NONE before a text */
};

/* Links of API calls to the ops they launched, as read; trace_finish turns
 * them into op_launch and frees them. */
struct trace_links {
	size_t n, cap;
	uint32_t *api, *op; /* indices into trace.apis and trace.ops */
};

/* Columns may point into a block the trace does not own (a file mapped
 * by the loader, read-only): such columns are never freed, grown or
 * written; trace_own copies them to the heap first, and trace_free
 * forgets them and calls release. */
struct trace_borrow {
	const char *base; /* the block, or NULL: every column is the trace's */
	size_t len;
	void (*release)(void *ctx);
	void *ctx;
};

struct trace {
	struct strtab strings;
	struct trace_input *inputs;
	size_t ninputs, inputs_cap;
	struct trace_domain *domains;
	size_t ndomains, domains_cap;
	int same_node; /* inputs of unknown origin share one domain */
	int no_op_ids; /* ops.id is not kept (reports never link ops) */
	int apis_read; /* the inputs' API rows are in (there may be none) */
	struct trace_gpu *gpus;
	size_t ngpus, gpus_cap;
	struct trace_queue *queues;
	size_t nqueues, queues_cap;
	struct trace_thread *threads;
	size_t nthreads, threads_cap;
	struct trace_ops ops;
	struct trace_apis apis;
	struct trace_links links;
	struct trace_counters counters;       /* read with the API rows */
	struct trace_copies copies;           /* read with the API rows */
	struct trace_graphs graphs;           /* read with the API rows */
	struct trace_host_copies host_copies; /* read with the ops; no ops */
	uint32_t *op_launch;                  /* per op: index of the API call that launched it */
	size_t op_launch_n;
	int64_t op_first_start, op_last_end; /* span of the GPU ops */
	struct idmap lane_index;             /* builder's lookup for lanes */
	struct trace_borrow borrowed;
	/* The API rows by thread and start (struct api_order's rows) as a
	 * cache file kept them, borrowed from it; NULL otherwise, and once
	 * the API rows change. */
	const uint32_t *call_order;
};

void trace_init(struct trace *t);
void trace_free(struct trace *t);
/* Copy the columns borrowed from a block to the heap (the block itself
 * is released by trace_free). */
void trace_own(struct trace *t);
/* The same for the API rows and what comes with them (texts, links,
 * launches, counters, copies): every function here that changes those
 * calls it first, as those that change ops copy the ops' columns. The
 * ops' columns stay where they are when API rows come; the kept order of
 * the calls is dropped. */
void trace_own_apis(struct trace *t);
/* Remake the lanes' lookup from t's GPUs, queues and threads (a trace
 * whose lanes were set otherwise than by trace_gpu and the like). */
void trace_index_lanes(struct trace *t);

uint32_t trace_add_input(struct trace *t, const char *path, int format, int schema_version);
/* Record where an input was recorded (a host name); call before adding its
 * rows. Inputs of one node share GPUs and processes. */
void trace_input_set_node(struct trace *t, uint32_t input, const char *node);
uint32_t trace_gpu(struct trace *t, uint32_t input, int64_t device);
uint32_t trace_queue(struct trace *t, uint32_t gpu, int64_t queue);
/* Name a queue (its number is then not shown). */
void trace_queue_set_name(struct trace *t, uint32_t queue, uint32_t name);
void trace_thread_set_name(struct trace *t, uint32_t thread, uint32_t name);
/* Record a rocpd input's table suffix and guid. */
void trace_input_set_uuid(struct trace *t, uint32_t input, const char *uuid, const char *guid);
uint32_t trace_thread(struct trace *t, uint32_t input, int64_t pid, int64_t tid);

/* Append rows; string ids are ids in t->strings. Return the new row index.
 * An API call's args is kept as its text unless it is TRACE_NONE. */
uint32_t trace_add_op(struct trace *t, int64_t id, int64_t start, int64_t end, uint32_t desc, uint32_t type,
		      uint32_t queue);
uint32_t trace_add_api(struct trace *t, int64_t id, int64_t start, int64_t end, uint32_t name, uint32_t args,
		       uint32_t thread);
/* Name an op and put it on its queue (after trace_add_op: a reader that
 * learns them after the op's times), as trace_add_op does. */
void trace_set_op(struct trace *t, uint32_t op, uint32_t desc, uint32_t type, uint32_t queue);
void trace_add_link(struct trace *t, uint32_t api, uint32_t op);
/* Give API row api, a roctx marker, its text (a string id): it is then
 * shown and matched by it. Other calls' texts are not kept, nor a second
 * text of a marker. */
void trace_add_api_text(struct trace *t, uint32_t api, uint32_t text);
/* How many API rows carry a text. */
size_t trace_api_texts(const struct trace *t);
/* Take the texts of rows from on back (their names are the marker's
 * again): rows about to be dropped and read again. */
void trace_api_texts_drop(struct trace *t, size_t from);

static inline int trace_api_texted(const struct trace *t, size_t api)
{
	return t->apis.texted && (t->apis.texted[api >> 6] >> (api & 63) & 1);
}

/* The text of an API row, or TRACE_NONE. */
static inline uint32_t trace_api_text(const struct trace *t, size_t api)
{
	return trace_api_texted(t, api) ? t->apis.name[api] : TRACE_NONE;
}

/* An API row's API name (apiName): a roctx marker's is TRACE_MARKER_NAME. */
static inline uint32_t trace_api_name(const struct trace *t, size_t api)
{
	return trace_api_texted(t, api) ? t->apis.marker_name : t->apis.name[api];
}

/* The name an API call is shown and matched by: a roctx marker's text,
 * else its API name. */
static inline uint32_t trace_api_shown_name(const struct trace *t, size_t api)
{
	return t->apis.name[api];
}
/* The earliest op an API call launched, or TRACE_NONE (a scan: for one
 * call at a time). */
uint32_t trace_api_launched_op(const struct trace *t, size_t api);
/* Room for more rows, for bulk readers that fill the columns past n in
 * place and then raise n. */
void trace_reserve_ops(struct trace *t, size_t more);
void trace_reserve_apis(struct trace *t, size_t more);
/* Room for rows API rows and no more: a reader that reserved room for a
 * table's rows and kept fewer gives the rest back. */
void trace_fit_apis(struct trace *t, size_t rows);
void trace_reserve_links(struct trace *t, size_t more);

/* The name roctx markers are recorded under (their text is their
 * argument, trace_api_text). */
#define TRACE_MARKER_NAME "UserMarker"

/* Derive what the rows imply (launch index, span); call once after loading. */
void trace_finish(struct trace *t);

/* Database ids of rows. Inputs whose ids run without gaps (nearly all)
 * keep only their first id: the rest is arithmetic. */
int64_t trace_op_id(const struct trace *t, size_t op);
int64_t trace_api_id(const struct trace *t, size_t api);
/* The row among rows lo..hi - 1 (ids rising) whose id is id, or TRACE_NONE. */
uint32_t trace_api_find(const struct trace *t, size_t lo, size_t hi, int64_t id);
/* As trace_api_find, trying first the run of ids found last (*run, 0 at
 * first), and leaving in *run the one it found: ids asked in rising order
 * are found in a step or two, not by a search over every run. With an id
 * column, *run is the row found last, and the search goes out from it. */
uint32_t trace_api_find_near(const struct trace *t, size_t lo, size_t hi, int64_t id, size_t *run);
/* The first id of rows lo..hi - 1 when their ids run on without a gap,
 * else -1 (then trace_api_find finds a row by its id). */
int64_t trace_api_dense_first(const struct trace *t, size_t lo, size_t hi);
/* Append a run of ids starting at row (rows from it on, until the next). */
void trace_api_runs_push(struct trace *t, size_t row, int64_t id);
/* Are n runs over n_rows rows too many (the column is then cheaper)? */
int trace_api_runs_too_many(size_t n, size_t rows);
/* Give the API rows an id column (ids that jump too often for runs). */
void trace_apis_need_ids(struct trace *t);
/* The op row of an input's op id, or TRACE_NONE. */
uint32_t trace_op_row(const struct trace *t, uint32_t input, int64_t id);

/* The GPU an op ran on. */
static inline uint32_t trace_op_gpu(const struct trace *t, size_t op)
{
	return t->queues[t->ops.queue[op]].gpu;
}

/* The API call that launched an op, or TRACE_NONE. */
static inline uint32_t trace_op_launch(const struct trace *t, uint32_t op)
{
	uint32_t api = t->op_launch && op < t->op_launch_n ? t->op_launch[op] : TRACE_NONE;
	return api < t->apis.n ? api : TRACE_NONE;
}

static inline const char *trace_str(const struct trace *t, uint32_t id)
{
	return strtab_get(&t->strings, id);
}

/* Kind of an op from its description and opType strings. */
enum op_kind trace_classify_op(const char *desc, const char *type);
/* What an op's opType alone says of its kind: OP_COPY, OP_BARRIER, or
 * OP_KERNEL when its description decides (trace_op_kind). */
enum op_kind trace_type_kind(const char *type);

static inline enum op_kind trace_op_kind(enum op_kind of_type, const char *desc)
{
	return of_type != OP_KERNEL ? of_type : desc[0] ? OP_KERNEL : OP_OTHER;
}

/* A GPU's label for people: its device number alone when the trace has one
 * domain, else prefixed with its node ("node/2") or, when the node is not
 * known, its input's file name ("file:2"). Returns buf. */
const char *trace_gpu_label(const struct trace *t, uint32_t gpu, char *buf, size_t size);
/* The same for a GPU known by its domain, input and device number (one
 * that may have run no op: a counter's). */
const char *trace_device_label(const struct trace *t, uint32_t domain, uint32_t input, int64_t device,
			       char *buf, size_t size);

/* Where a GPU is, for people: its node's name, or when the node is not
 * known its input's file name (the whole path when two inputs share a
 * file name). */
const char *trace_gpu_place(const struct trace *t, uint32_t gpu);
/* The order GPUs are listed in: by place in natural order (rank2 before
 * rank10), then by domain, then by number. <0, 0 or >0. */
int trace_gpu_cmp(const struct trace *t, uint32_t a, uint32_t b);
/* Did an input leave ops it has unread (LOAD_OPS_UNUSED)? */
int trace_ops_left_out(const struct trace *t);
/* An input's short name: its file name, or its whole path when another
 * input has the same file name. */
const char *trace_input_name(const struct trace *t, uint32_t input);

/* "GPU 2 sclk", "GPU node-a/0 SQ_WAVES (sampled)": the GPU labelled as
 * trace_gpu_label does. Returns buf. */
const char *trace_counter_label(const struct trace *t, uint32_t series, char *buf, size_t size);

/* A queue's label: its name, or "q" and its number. Returns buf. */
const char *trace_queue_label(const struct trace *t, uint32_t queue, char *buf, size_t size);

/* A thread's label, "pid/tid", prefixed as GPUs' labels are when the
 * threads come from more than one machine or input. Returns buf. */
const char *trace_thread_label(const struct trace *t, uint32_t thread, char *buf, size_t size);

#endif
