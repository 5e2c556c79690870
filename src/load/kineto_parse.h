/* The PyTorch profiler's (Kineto's) Chrome-trace JSON, parsed as a stream
 * (yajl's SAX parser over load/instream.h): each element of traceEvents
 * is handed over as one event with the fields rpdtop reads, the rest
 * skipped unread; the top level's baseTimeNanoseconds and
 * displayTimeUnit are kept, and distributedInfo's rank and world_size. Memory stays the same whatever the
 * file's size (one event's fields, a name at most KINETO_NAME_MAX bytes).
 *
 * Times: ts and dur are decimal microseconds, read digit by digit into
 * integer nanoseconds (never through a double); digits past the
 * nanosecond are dropped. */
#ifndef RPDTOP_KINETO_PARSE_H
#define RPDTOP_KINETO_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "load/instream.h"
#include "util/error.h"

/* Containers nested deeper than this are refused. */
#define KINETO_DEPTH_MAX 64
/* A name longer than this is refused. */
#define KINETO_NAME_MAX ((size_t)1 << 20)

enum kineto_cat {
	KCAT_OTHER,
	KCAT_KERNEL,
	KCAT_MEMCPY,
	KCAT_MEMSET,
	KCAT_RUNTIME, /* cuda_runtime (HIP's too) */
	KCAT_DRIVER,  /* cuda_driver */
	KCAT_CPU_OP,
	KCAT_USER_ANNOTATION,
	KCAT_PYTHON,
	KCAT_GPU_USER_ANNOTATION,
};

/* Fields of an event, as bits: present, or present with a value that
 * is not what the field holds. */
enum kineto_field {
	KF_TS = 1 << 0,
	KF_DUR = 1 << 1,
	KF_PID = 1 << 2,
	KF_TID = 1 << 3,
	KF_DEVICE = 1 << 4, /* args.device */
	KF_STREAM = 1 << 5, /* args.stream */
	KF_CORR = 1 << 6,   /* args.correlation */
	KF_BYTES = 1 << 7,  /* args.bytes */
	KF_NAME = 1 << 8,
	KF_COMPLETE = 1 << 9,  /* "ph": "X" */
	KF_META = 1 << 10,     /* "ph": "M" */
	KF_ARG_NAME = 1 << 11, /* args.name, a string */
};

/* Why a field's value is not used. */
enum kineto_bad {
	KBAD_NONE,
	KBAD_TYPE,  /* not a number (a string, an object, null) */
	KBAD_RANGE, /* beyond what 64 bits hold (in ns for times) */
	KBAD_WHOLE, /* not a whole number where one is needed */
};

#define KINETO_NFIELDS 8 /* the numeric fields: ts .. bytes */

struct kineto_event {
	size_t index; /* 1-based, among traceEvents */
	enum kineto_cat cat;
	unsigned have; /* enum kineto_field bits */
	const char *name;
	size_t name_len;
	const char *arg_name; /* args.name (a metadata event's thread or process name) */
	size_t arg_name_len;
	int64_t ts, dur; /* ns */
	int64_t pid, tid, device, stream, corr, bytes;
	uint8_t bad[KINETO_NFIELDS]; /* enum kineto_bad, by field bit number */
};

struct kineto_meta {
	int has_base;
	int64_t base_ns;          /* baseTimeNanoseconds */
	char time_unit[8];        /* displayTimeUnit, "" when absent or unknown */
	int has_rank;             /* distributedInfo.rank is a whole number from 0 */
	int64_t rank, world_size; /* world_size 0 when not given */
};

/* What an event is to rpdtop. The GPU ops are numbered by their place
 * among the file's GPU ops, from 1: an op's id; the calls and CPU ranges
 * together likewise: an API row's id. The reader and the export (which
 * finds the events of the ops kept again in the file) count by this. */
enum kineto_role {
	KROLE_NONE,
	KROLE_OP,    /* "X" events of kernel, gpu_memcpy, gpu_memset */
	KROLE_CALL,  /* "X" events of cuda_runtime, cuda_driver */
	KROLE_RANGE, /* "X" events of cpu_op, user_annotation, python_function */
};

enum kineto_role kineto_role(const struct kineto_event *e);

/* Called for each event; returns 0, or -1 with *err set to stop. */
typedef int (*kineto_event_fn)(void *ctx, const struct kineto_event *e, struct rpd_error *err);

/* Parse the stream to its end. 0, or -1 with *err one line naming path
 * (not JSON, not a Kineto trace, a field that cannot be read). */
int kineto_parse(struct instream *in, const char *path, kineto_event_fn fn, void *ctx,
		 struct kineto_meta *meta, struct rpd_error *err);

/* The JSON's tokens, as yajl reads them. */
enum kineto_token {
	KT_NULL,
	KT_TRUE,
	KT_FALSE,
	KT_NUMBER, /* its text as written */
	KT_STRING, /* its bytes, unescaped (UTF-8) */
	KT_KEY,    /* likewise */
	KT_MAP_START,
	KT_MAP_END,
	KT_ARRAY_START,
	KT_ARRAY_END,
};

/* Every token is handed to token(ctx, ...) before the parse looks at it,
 * so that an event's tokens have all come when fn gets the event. It
 * returns 0, or -1 with *err set to stop the parse. */
struct kineto_tap {
	int (*token)(void *ctx, enum kineto_token kind, const char *s, size_t n, struct rpd_error *err);
	void *ctx;
};

/* kineto_parse with a tap (NULL: none). */
int kineto_parse_tapped(struct instream *in, const char *path, kineto_event_fn fn, void *ctx,
			const struct kineto_tap *tap, struct kineto_meta *meta, struct rpd_error *err);

/* Decimal microseconds (a JSON number's text) to nanoseconds. */
enum kineto_bad kineto_us_to_ns(const char *s, size_t n, int64_t *ns);
/* A JSON number's text to a whole number. */
enum kineto_bad kineto_whole(const char *s, size_t n, int64_t *v);
/* The name of a field bit ("ts", "args.device"). */
const char *kineto_field_name(unsigned field);

#endif
