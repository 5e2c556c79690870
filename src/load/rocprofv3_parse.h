/* rocprofv3's JSON (rocprofv3 --output-format json), parsed as a stream
 * (yajl's SAX parser over load/instream.h). The file is one object,
 * {"rocprofiler-sdk-tool": [process, ...]}, each process an object of
 * metadata, agents, kernel_symbols, strings and buffer_records, in any
 * order. What is read is handed over as it ends: a record of
 * buffer_records, an agent, a kernel symbol, an operation's name, a roctx
 * message; then the process itself. The rest is skipped unread. Memory
 * stays the same whatever the file's size: one record's fields, a name
 * at most ROCPROFV3_NAME_MAX bytes.
 *
 * Every number read is a whole number of 64 bits without sign (ids,
 * handles, times in ns), read digit by digit (never through a double). */
#ifndef RPDTOP_ROCPROFV3_PARSE_H
#define RPDTOP_ROCPROFV3_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "load/instream.h"
#include "util/error.h"

/* Containers nested deeper than this are refused. */
#define ROCPROFV3_DEPTH_MAX 64
/* A name (a kernel's, an operation's, a roctx message) longer than this is
 * refused. */
#define ROCPROFV3_NAME_MAX ((size_t)1 << 20)

/* The lists of buffer_records that are read. */
enum r3_list {
	R3_DISPATCH, /* kernel_dispatch */
	R3_COPY,     /* memory_copy */
	R3_MARKER,   /* marker_api: roctx */
	R3_HIP,      /* hip_api and the other calls */
	R3_HSA,
	R3_RCCL,
	R3_ROCDECODE,
	R3_ROCJPEG,
	R3_NLISTS,
};

/* The fields of a record, as bit numbers. */
enum r3_field {
	RF_KIND,
	RF_OPERATION,
	RF_THREAD, /* thread_id */
	RF_CORR,   /* correlation_id.internal */
	RF_START,  /* start_timestamp */
	RF_END,    /* end_timestamp */
	RF_AGENT,  /* dispatch_info.agent_id.handle */
	RF_QUEUE,  /* dispatch_info.queue_id.handle */
	RF_KERNEL, /* dispatch_info.kernel_id */
	RF_SRC,    /* src_agent_id.handle */
	RF_DST,    /* dst_agent_id.handle */
	RF_BYTES,
	RF_STREAM, /* stream_id.handle */
	RF_N,
};

/* Why a field's value is not used. */
enum r3_bad {
	R3BAD_NONE,
	R3BAD_TYPE,     /* not a number (a string, an object, true) */
	R3BAD_RANGE,    /* more than 64 bits hold */
	R3BAD_NEGATIVE, /* below zero */
	R3BAD_WHOLE,    /* not a whole number */
};

struct r3_record {
	enum r3_list list;
	size_t process; /* 1-based, among the processes of the file */
	size_t index;   /* 1-based, among its list's records in its process */
	unsigned have;  /* 1 << enum r3_field: present and good */
	uint8_t bad[RF_N];
	uint64_t v[RF_N];
};

/* An agent: its handle, type (1 CPU, 2 GPU) and indices. */
enum { R3A_HANDLE = 1, R3A_TYPE = 2, R3A_TYPE_INDEX = 4, R3A_LOGICAL = 8 };
struct r3_agent {
	unsigned have; /* R3A_ bits */
	uint64_t handle, type, type_index, logical;
};

/* A kernel symbol: its id and the names read (NULL: absent). */
struct r3_symbol {
	int has_id;
	uint64_t kernel_id;
	const char *name, *formatted;
	size_t name_len, formatted_len;
};

struct r3_process {
	size_t index; /* 1-based */
	int has_pid;
	uint64_t pid; /* metadata.pid */
};

/* What is read goes to these; a function returning -1 (with *err set)
 * stops the parse. Tables (agents, symbols, names, messages) take what
 * can be read of each entry: an entry lacking its key is left out. */
struct r3_handler {
	void *ctx;
	int (*record)(void *ctx, const struct r3_record *r, struct rpd_error *err);
	int (*process_end)(void *ctx, const struct r3_process *p, struct rpd_error *err);
	void (*agent)(void *ctx, const struct r3_agent *a);
	void (*symbol)(void *ctx, const struct r3_symbol *s);
	/* strings.buffer_records[kind].operations[op] */
	void (*op_name)(void *ctx, uint64_t kind, uint64_t op, const char *s, size_t n);
	/* strings.marker_api: a roctx message by its correlation id */
	void (*message)(void *ctx, uint64_t corr, const char *s, size_t n);
};

/* Parse the stream to its end. 0, or -1 with *err one line naming path
 * (not JSON, not a rocprofv3 trace, a record that cannot be read). */
int rocprofv3_parse(struct instream *in, const char *path, const struct r3_handler *h, struct rpd_error *err);

/* A JSON number's text as a whole number of 64 bits without sign. */
enum r3_bad rocprofv3_u64(const char *s, size_t n, uint64_t *v);
/* The name of a list ("kernel_dispatch") and of a field
 * ("dispatch_info.agent_id.handle"). */
const char *rocprofv3_list_name(enum r3_list list);
const char *rocprofv3_field_name(enum r3_field field);

#endif
