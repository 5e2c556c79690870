#include "config.h"
#include "load/rocprofv3_parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "load/jsonstream.h"
#include "load/kineto_parse.h" /* kineto_whole */
#include "util/i18n.h"
#include "util/xalloc.h"

enum r3_bad rocprofv3_u64(const char *s, size_t n, uint64_t *v)
{
	uint64_t x = 0;
	size_t i = 0;
	int over = 0;
	while (i < n && s[i] >= '0' && s[i] <= '9') {
		unsigned d = (unsigned)(s[i++] - '0');
		if (x > (UINT64_MAX - d) / 10)
			over = 1;
		x = x * 10 + d;
	}
	if (i == n && i > 0) {
		*v = x;
		return over ? R3BAD_RANGE : R3BAD_NONE;
	}
	/* A sign, a fraction or an exponent: read as a signed whole number. */
	int64_t w;
	switch (kineto_whole(s, n, &w)) {
	case KBAD_NONE:
		if (w < 0)
			return R3BAD_NEGATIVE;
		*v = (uint64_t)w;
		return R3BAD_NONE;
	case KBAD_RANGE:
		return s[0] == '-' ? R3BAD_NEGATIVE : R3BAD_RANGE;
	case KBAD_WHOLE:
		return R3BAD_WHOLE;
	default:
		return R3BAD_TYPE;
	}
}

static const char *const list_names[R3_NLISTS] = {
	"kernel_dispatch", "memory_copy", "marker_api",    "hip_api",
	"hsa_api",         "rccl_api",    "rocdecode_api", "rocjpeg_api",
};

const char *rocprofv3_list_name(enum r3_list list)
{
	return (unsigned)list < R3_NLISTS ? list_names[list] : "?";
}

const char *rocprofv3_field_name(enum r3_field field)
{
	static const char *const names[RF_N] = {
		"kind",
		"operation",
		"thread_id",
		"correlation_id.internal",
		"start_timestamp",
		"end_timestamp",
		"dispatch_info.agent_id.handle",
		"dispatch_info.queue_id.handle",
		"dispatch_info.kernel_id",
		"src_agent_id.handle",
		"dst_agent_id.handle",
		"bytes",
		"stream_id.handle",
	};
	return (unsigned)field < RF_N ? names[field] : "?";
}

/* What a container is: the objects and arrays that matter. */
enum ctx {
	X_SKIP,
	X_TOP,         /* the file's object */
	X_PROCS,       /* "rocprofiler-sdk-tool": [...] */
	X_PROC,        /* a process */
	X_META,        /* metadata */
	X_AGENTS,      /* agents */
	X_AGENT,       /* an agent */
	X_AGENT_ID,    /* an agent's id */
	X_SYMS,        /* kernel_symbols */
	X_SYM,         /* a kernel symbol */
	X_STRINGS,     /* strings */
	X_NAMES,       /* strings.buffer_records: a kind each */
	X_NAMES_ENTRY, /* a kind's {"kind", "operations"} */
	X_NAMES_OPS,   /* its operations' names */
	X_MSGS,        /* strings.marker_api */
	X_MSG,         /* {"key", "value"} */
	X_RECS,        /* buffer_records */
	X_LIST,        /* one of its lists */
	X_REC,         /* a record */
	X_CORR,        /* its correlation_id */
	X_DINFO,       /* its dispatch_info */
	X_HANDLE,      /* {"handle"} of one of its fields */
};

/* What the next value is, told by its key. */
enum key {
	K_NONE,
	K_PROCS,
	K_META,
	K_AGENTS,
	K_SYMS,
	K_STRINGS,
	K_RECS,
	K_PID,
	K_AGENT_ID,
	K_AGENT_HANDLE,
	K_AGENT_TYPE,
	K_AGENT_TYPE_INDEX,
	K_AGENT_LOGICAL,
	K_SYM_ID,
	K_SYM_NAME,
	K_SYM_FORMATTED,
	K_NAMES,
	K_MSGS,
	K_OPS,
	K_MSG_KEY,
	K_MSG_VALUE,
	K_LIST,   /* a list of buffer_records: parser.pending_list */
	K_FIELD,  /* a record's number: parser.field */
	K_CORR,   /* correlation_id (an object) */
	K_DINFO,  /* dispatch_info (an object) */
	K_HANDLE, /* an object whose handle is parser.field */
};

/* A string kept while its object is read. */
struct text {
	char *s;
	size_t n, cap;
	int set;
};

struct parser {
	const char *path;
	const struct r3_handler *h;
	struct rpd_error *err;
	int failed;
	int depth;
	uint8_t ctx[ROCPROFV3_DEPTH_MAX + 2];
	uint8_t field_at[ROCPROFV3_DEPTH_MAX + 2]; /* X_HANDLE: its field */
	enum key key;
	enum r3_field field;
	enum r3_list pending_list, list;
	int procs_seen;
	unsigned proc_keys; /* keys of the process met: duplicates are refused */
	struct r3_process proc;
	size_t list_index[R3_NLISTS];
	struct r3_record rec;
	unsigned rec_keys;
	struct r3_agent agent;
	struct r3_symbol sym;
	uint64_t kind_count, op_count; /* strings.buffer_records entries, and ops of one */
	int msg_has_key;
	uint64_t msg_key;
	struct text name, formatted, msg;
};

static int fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct parser *p, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	err_set(p->err, "%s: %s", p->path, msg);
	p->failed = 1;
	return 0;
}

static int too_long(struct parser *p, size_t n)
{
	return fail(p, _("process %zu: a name of %zu bytes (at most %zu are read)"), p->proc.index, n,
		    ROCPROFV3_NAME_MAX);
}

static int keep_text(struct parser *p, struct text *t, const unsigned char *s, size_t n)
{
	if (n > ROCPROFV3_NAME_MAX)
		return too_long(p, n);
	if (n + 1 > t->cap) {
		t->cap = n + 1 > 2 * t->cap ? n + 1 : 2 * t->cap;
		t->s = xrealloc(t->s, t->cap);
	}
	memcpy(t->s, s, n);
	t->s[n] = '\0';
	t->n = n;
	t->set = 1;
	return 1;
}

/* A key of the process, buffer_records or strings: once each. */
static int key_once(struct parser *p, unsigned bit, const char *what, const char *name)
{
	if (p->proc_keys & bit)
		return fail(p, _("process %zu: key \"%s%s\" appears twice"), p->proc.index, what, name);
	p->proc_keys |= bit;
	return 1;
}

static int record_key(struct parser *p, enum key k, enum r3_field f)
{
	p->key = k;
	p->field = f;
	if (k != K_FIELD)
		return 1;
	if (p->rec_keys & (1u << f))
		return fail(p, _("process %zu, %s record %zu: key \"%s\" appears twice"), p->proc.index,
			    rocprofv3_list_name(p->list), p->rec.index, rocprofv3_field_name(f));
	p->rec_keys |= 1u << f;
	return 1;
}

#define IS(lit) (n == sizeof(lit) - 1 && memcmp(s, lit, n) == 0)

static int on_key(void *ctx, const unsigned char *us, size_t n)
{
	struct parser *p = ctx;
	const char *s = (const char *)us;
	p->key = K_NONE;
	switch (p->ctx[p->depth]) {
	case X_TOP:
		if (IS("rocprofiler-sdk-tool")) {
			if (p->procs_seen)
				return fail(p, _("key \"%s\" appears twice"), "rocprofiler-sdk-tool");
			p->procs_seen = 1;
			p->key = K_PROCS;
		}
		return 1;
	case X_PROC: {
		static const struct {
			const char *name;
			enum key key;
		} keys[] = {
			{ "metadata", K_META },   { "agents", K_AGENTS },       { "kernel_symbols", K_SYMS },
			{ "strings", K_STRINGS }, { "buffer_records", K_RECS },
		};
		for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (strlen(keys[i].name) == n && memcmp(keys[i].name, s, n) == 0) {
				p->key = keys[i].key;
				return key_once(p, 1u << i, "", keys[i].name);
			}
		return 1;
	}
	case X_META:
		if (IS("pid"))
			p->key = K_PID;
		return 1;
	case X_AGENT:
		p->key = IS("id")                     ? K_AGENT_ID
			 : IS("type")                 ? K_AGENT_TYPE
			 : IS("logical_node_type_id") ? K_AGENT_TYPE_INDEX
			 : IS("logical_node_id")      ? K_AGENT_LOGICAL
						      : K_NONE;
		return 1;
	case X_AGENT_ID:
		if (IS("handle"))
			p->key = K_AGENT_HANDLE;
		return 1;
	case X_SYM:
		p->key = IS("kernel_id")               ? K_SYM_ID
			 : IS("kernel_name")           ? K_SYM_NAME
			 : IS("formatted_kernel_name") ? K_SYM_FORMATTED
						       : K_NONE;
		return 1;
	case X_STRINGS:
		if (IS("buffer_records")) {
			p->key = K_NAMES;
			return key_once(p, 1u << 5, "strings.", "buffer_records");
		}
		if (IS("marker_api")) {
			p->key = K_MSGS;
			return key_once(p, 1u << 6, "strings.", "marker_api");
		}
		return 1;
	case X_NAMES_ENTRY:
		if (IS("operations"))
			p->key = K_OPS;
		return 1;
	case X_MSG:
		p->key = IS("key") ? K_MSG_KEY : IS("value") ? K_MSG_VALUE : K_NONE;
		return 1;
	case X_RECS:
		for (unsigned i = 0; i < R3_NLISTS; i++)
			if (strlen(list_names[i]) == n && memcmp(list_names[i], s, n) == 0) {
				p->key = K_LIST;
				p->pending_list = (enum r3_list)i;
				return key_once(p, 1u << (8 + i), "buffer_records.", list_names[i]);
			}
		return 1;
	case X_REC:
		if (IS("kind"))
			return record_key(p, K_FIELD, RF_KIND);
		if (IS("operation"))
			return record_key(p, K_FIELD, RF_OPERATION);
		if (IS("thread_id"))
			return record_key(p, K_FIELD, RF_THREAD);
		if (IS("start_timestamp"))
			return record_key(p, K_FIELD, RF_START);
		if (IS("end_timestamp"))
			return record_key(p, K_FIELD, RF_END);
		if (IS("bytes"))
			return record_key(p, K_FIELD, RF_BYTES);
		if (IS("correlation_id"))
			return record_key(p, K_CORR, RF_CORR);
		if (IS("dispatch_info"))
			return record_key(p, K_DINFO, RF_N);
		if (IS("src_agent_id"))
			return record_key(p, K_HANDLE, RF_SRC);
		if (IS("dst_agent_id"))
			return record_key(p, K_HANDLE, RF_DST);
		if (IS("stream_id"))
			return record_key(p, K_HANDLE, RF_STREAM);
		return 1;
	case X_CORR:
		return IS("internal") ? record_key(p, K_FIELD, RF_CORR) : 1;
	case X_DINFO:
		if (IS("kernel_id"))
			return record_key(p, K_FIELD, RF_KERNEL);
		if (IS("agent_id"))
			return record_key(p, K_HANDLE, RF_AGENT);
		if (IS("queue_id"))
			return record_key(p, K_HANDLE, RF_QUEUE);
		return 1;
	case X_HANDLE:
		return IS("handle") ? record_key(p, K_FIELD, (enum r3_field)p->field_at[p->depth]) : 1;
	default:
		return 1;
	}
}

static void bad_field(struct parser *p, enum r3_field f, enum r3_bad why)
{
	p->rec.bad[f] = (uint8_t)why;
	p->rec.have &= ~(1u << f);
}

static void new_process(struct parser *p)
{
	size_t index = p->proc.index + 1;
	memset(&p->proc, 0, sizeof(p->proc));
	p->proc.index = index;
	p->proc_keys = 0;
	memset(p->list_index, 0, sizeof(p->list_index));
}

static void new_record(struct parser *p)
{
	size_t index = ++p->list_index[p->list];
	memset(&p->rec, 0, sizeof(p->rec));
	p->rec.list = p->list;
	p->rec.process = p->proc.index;
	p->rec.index = index;
	p->rec_keys = 0;
}

enum value { V_NUMBER, V_STRING, V_OTHER, V_NULL };

/* A scalar value: its text (numbers, strings). */
static int on_scalar(struct parser *p, enum value type, const char *s, size_t n)
{
	enum key k = p->key;
	p->key = K_NONE;
	if (p->depth == 0)
		return fail(p, "%s", _("not a rocprofv3 trace: the JSON is not an object"));
	uint64_t v;
	switch (p->ctx[p->depth]) {
	case X_TOP:
		if (k == K_PROCS && type != V_NULL)
			return fail(p, "%s", _("rocprofiler-sdk-tool is not an array"));
		return 1;
	case X_PROCS:
		new_process(p);
		return fail(p, _("process %zu is not an object"), p->proc.index);
	case X_PROC:
		if (k == K_RECS && type != V_NULL)
			return fail(p, _("process %zu: buffer_records is not an object"), p->proc.index);
		return 1;
	case X_META:
		if (k == K_PID && type == V_NUMBER && rocprofv3_u64(s, n, &v) == R3BAD_NONE) {
			p->proc.pid = v;
			p->proc.has_pid = 1;
		}
		return 1;
	case X_AGENT:
	case X_AGENT_ID:
		if (type != V_NUMBER || rocprofv3_u64(s, n, &v) != R3BAD_NONE)
			return 1;
		if (k == K_AGENT_HANDLE)
			p->agent.handle = v, p->agent.have |= R3A_HANDLE;
		else if (k == K_AGENT_TYPE)
			p->agent.type = v, p->agent.have |= R3A_TYPE;
		else if (k == K_AGENT_TYPE_INDEX)
			p->agent.type_index = v, p->agent.have |= R3A_TYPE_INDEX;
		else if (k == K_AGENT_LOGICAL)
			p->agent.logical = v, p->agent.have |= R3A_LOGICAL;
		return 1;
	case X_SYM:
		if (k == K_SYM_ID && type == V_NUMBER && rocprofv3_u64(s, n, &v) == R3BAD_NONE) {
			p->sym.kernel_id = v;
			p->sym.has_id = 1;
		} else if (k == K_SYM_NAME && type == V_STRING) {
			return keep_text(p, &p->name, (const unsigned char *)s, n);
		} else if (k == K_SYM_FORMATTED && type == V_STRING) {
			return keep_text(p, &p->formatted, (const unsigned char *)s, n);
		}
		return 1;
	case X_NAMES:
		p->kind_count++;
		return 1;
	case X_NAMES_OPS:
		if (type == V_STRING && n > ROCPROFV3_NAME_MAX)
			return too_long(p, n);
		if (type == V_STRING && p->h->op_name)
			p->h->op_name(p->h->ctx, p->kind_count - 1, p->op_count, s, n);
		p->op_count++;
		return 1;
	case X_MSG:
		if (k == K_MSG_KEY && type == V_NUMBER && rocprofv3_u64(s, n, &v) == R3BAD_NONE) {
			p->msg_key = v;
			p->msg_has_key = 1;
		} else if (k == K_MSG_VALUE && type == V_STRING) {
			return keep_text(p, &p->msg, (const unsigned char *)s, n);
		}
		return 1;
	case X_RECS:
		if (k == K_LIST && type != V_NULL)
			return fail(p, _("process %zu: buffer_records.%s is not an array"), p->proc.index,
				    rocprofv3_list_name(p->pending_list));
		return 1;
	case X_LIST:
		new_record(p);
		return fail(p, _("process %zu: %s record %zu is not an object"), p->proc.index,
			    rocprofv3_list_name(p->list), p->rec.index);
	case X_REC:
	case X_CORR:
	case X_DINFO:
	case X_HANDLE:
		if (type == V_NULL)
			return 1; /* null is no value: as if absent */
		if (k == K_FIELD && type == V_NUMBER) {
			enum r3_bad why = rocprofv3_u64(s, n, &v);
			if (why != R3BAD_NONE) {
				bad_field(p, p->field, why);
			} else {
				p->rec.v[p->field] = v;
				p->rec.have |= 1u << p->field;
				p->rec.bad[p->field] = R3BAD_NONE;
			}
		} else if (k == K_FIELD || k == K_CORR || k == K_HANDLE) {
			bad_field(p, p->field, R3BAD_TYPE);
		}
		return 1;
	default:
		return 1;
	}
}

static int on_null(void *ctx)
{
	return on_scalar(ctx, V_NULL, NULL, 0);
}

static int on_boolean(void *ctx, int v)
{
	(void)v;
	return on_scalar(ctx, V_OTHER, NULL, 0);
}

static int on_number(void *ctx, const char *s, size_t n)
{
	return on_scalar(ctx, V_NUMBER, s, n);
}

static int on_string(void *ctx, const unsigned char *s, size_t n)
{
	return on_scalar(ctx, V_STRING, (const char *)s, n);
}

/* The context of a container opened in parent (as key k says). */
static int open_in(struct parser *p, int parent, enum key k, int map, enum ctx *c)
{
	*c = X_SKIP;
	switch (parent) {
	case X_TOP:
		if (k == K_PROCS && map)
			return fail(p, "%s", _("rocprofiler-sdk-tool is not an array"));
		if (k == K_PROCS)
			*c = X_PROCS;
		return 1;
	case X_PROCS:
		new_process(p);
		if (!map)
			return fail(p, _("process %zu is not an object"), p->proc.index);
		*c = X_PROC;
		return 1;
	case X_PROC:
		if (k == K_RECS && !map)
			return fail(p, _("process %zu: buffer_records is not an object"), p->proc.index);
		if (map)
			*c = k == K_META      ? X_META
			     : k == K_STRINGS ? X_STRINGS
			     : k == K_RECS    ? X_RECS
					      : X_SKIP;
		else
			*c = k == K_AGENTS ? X_AGENTS : k == K_SYMS ? X_SYMS : X_SKIP;
		return 1;
	case X_AGENTS:
		if (map) {
			memset(&p->agent, 0, sizeof(p->agent));
			*c = X_AGENT;
		}
		return 1;
	case X_AGENT:
		if (map && k == K_AGENT_ID)
			*c = X_AGENT_ID;
		return 1;
	case X_SYMS:
		if (map) {
			memset(&p->sym, 0, sizeof(p->sym));
			p->name.set = p->formatted.set = 0;
			*c = X_SYM;
		}
		return 1;
	case X_STRINGS:
		if (!map)
			*c = k == K_NAMES ? X_NAMES : k == K_MSGS ? X_MSGS : X_SKIP;
		if (*c == X_NAMES)
			p->kind_count = 0;
		return 1;
	case X_NAMES:
		p->kind_count++;
		if (map) {
			p->op_count = 0;
			*c = X_NAMES_ENTRY;
		}
		return 1;
	case X_NAMES_ENTRY:
		if (!map && k == K_OPS)
			*c = X_NAMES_OPS;
		return 1;
	case X_NAMES_OPS:
		p->op_count++;
		return 1;
	case X_MSGS:
		if (map) {
			p->msg_has_key = 0;
			p->msg.set = 0;
			*c = X_MSG;
		}
		return 1;
	case X_RECS:
		if (k == K_LIST && map)
			return fail(p, _("process %zu: buffer_records.%s is not an array"), p->proc.index,
				    rocprofv3_list_name(p->pending_list));
		if (k == K_LIST) {
			p->list = p->pending_list;
			*c = X_LIST;
		}
		return 1;
	case X_LIST:
		new_record(p);
		if (!map)
			return fail(p, _("process %zu: %s record %zu is not an object"), p->proc.index,
				    rocprofv3_list_name(p->list), p->rec.index);
		*c = X_REC;
		return 1;
	case X_REC:
	case X_DINFO:
		if (map && k == K_CORR && parent == X_REC) {
			*c = X_CORR;
		} else if (map && k == K_DINFO && parent == X_REC) {
			*c = X_DINFO;
		} else if (map && k == K_HANDLE) {
			*c = X_HANDLE;
			p->field_at[p->depth] = (uint8_t)p->field;
		} else if (k == K_FIELD || k == K_CORR || k == K_HANDLE) {
			bad_field(p, p->field, R3BAD_TYPE);
		}
		return 1;
	case X_CORR:
	case X_HANDLE:
		if (k == K_FIELD)
			bad_field(p, p->field, R3BAD_TYPE);
		return 1;
	default:
		return 1;
	}
}

static int open_container(struct parser *p, int map)
{
	enum key k = p->key;
	p->key = K_NONE;
	if (p->depth == 0 && !map)
		return fail(p, "%s", _("not a rocprofv3 trace: the JSON is not an object"));
	int parent = p->depth ? p->ctx[p->depth] : -1;
	if (++p->depth > ROCPROFV3_DEPTH_MAX)
		return fail(p, _("JSON nested deeper than %d levels"), ROCPROFV3_DEPTH_MAX);
	enum ctx c = X_TOP;
	if (parent >= 0 && !open_in(p, parent, k, map, &c))
		return 0;
	p->ctx[p->depth] = (uint8_t)c;
	return 1;
}

static int on_start_map(void *ctx)
{
	return open_container(ctx, 1);
}

static int on_start_array(void *ctx)
{
	return open_container(ctx, 0);
}

static int stop(struct parser *p, int rc)
{
	if (rc == 0)
		return 1;
	p->failed = 1;
	return 0;
}

static int on_end_map(void *ctx)
{
	struct parser *p = ctx;
	const struct r3_handler *h = p->h;
	p->key = K_NONE;
	int rc = 0;
	switch (p->ctx[p->depth]) {
	case X_REC:
		rc = h->record ? h->record(h->ctx, &p->rec, p->err) : 0;
		break;
	case X_PROC:
		rc = h->process_end ? h->process_end(h->ctx, &p->proc, p->err) : 0;
		break;
	case X_AGENT:
		if (h->agent)
			h->agent(h->ctx, &p->agent);
		break;
	case X_SYM:
		p->sym.name = p->name.set ? p->name.s : NULL;
		p->sym.name_len = p->name.set ? p->name.n : 0;
		p->sym.formatted = p->formatted.set ? p->formatted.s : NULL;
		p->sym.formatted_len = p->formatted.set ? p->formatted.n : 0;
		if (h->symbol)
			h->symbol(h->ctx, &p->sym);
		break;
	case X_MSG:
		if (p->msg_has_key && p->msg.set && h->message)
			h->message(h->ctx, p->msg_key, p->msg.s, p->msg.n);
		break;
	default:
		break;
	}
	p->depth--;
	return stop(p, rc);
}

static int on_end_array(void *ctx)
{
	struct parser *p = ctx;
	p->key = K_NONE;
	p->depth--;
	return 1;
}

int rocprofv3_parse(struct instream *in, const char *path, const struct r3_handler *h, struct rpd_error *err)
{
	static const yajl_callbacks cb = {
		.yajl_null = on_null,
		.yajl_boolean = on_boolean,
		.yajl_number = on_number,
		.yajl_string = on_string,
		.yajl_start_map = on_start_map,
		.yajl_map_key = on_key,
		.yajl_end_map = on_end_map,
		.yajl_start_array = on_start_array,
		.yajl_end_array = on_end_array,
	};
	struct parser *p = xcalloc(1, sizeof(*p));
	p->path = path;
	p->h = h;
	p->err = err;
	int rc = json_stream(in, path, &cb, p, &p->failed, err);
	if (rc == 0 && !p->procs_seen)
		rc = err_set(err, _("%s: not a rocprofv3 trace: the JSON object has no rocprofiler-sdk-tool"),
			     path);
	free(p->name.s);
	free(p->formatted.s);
	free(p->msg.s);
	free(p);
	return rc;
}
