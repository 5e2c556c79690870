#include "config.h"
#include "load/kineto_parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "load/jsonstream.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* A JSON number's text times 10^shift, as an integer: digits that fall
 * past the point are dropped (drop_ok) or must be zeros (KBAD_WHOLE). */
static enum kineto_bad scale(const char *s, size_t n, int shift, int drop_ok, int64_t *out)
{
	size_t i = 0;
	int neg = i < n && s[i] == '-';
	i += (size_t)neg;
	const char *digits[2];
	size_t len[2] = { 0, 0 };
	digits[0] = s + i;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++, len[0]++;
	digits[1] = s + i;
	if (i < n && s[i] == '.') {
		digits[1] = s + ++i;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++, len[1]++;
		if (len[1] == 0)
			return KBAD_TYPE;
	}
	if (len[0] == 0)
		return KBAD_TYPE;
	long exp = 0;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		int eneg = 0;
		if (++i < n && (s[i] == '+' || s[i] == '-'))
			eneg = s[i++] == '-';
		size_t from = i;
		while (i < n && s[i] >= '0' && s[i] <= '9') {
			/* Past a million the number is 0 or out of range anyway. */
			if (exp < 1000000)
				exp = exp * 10 + (s[i] - '0');
			i++;
		}
		if (i == from)
			return KBAD_TYPE;
		exp = eneg ? -exp : exp;
	}
	if (i != n)
		return KBAD_TYPE;
	/* The digits d[0..total) stand for their integer times 10^point. */
	size_t total = len[0] + len[1];
	long point = exp - (long)len[1] + shift;
	uint64_t v = 0;
	const uint64_t limit = (uint64_t)INT64_MAX;
	for (size_t k = 0; k < total; k++) {
		char c = k < len[0] ? digits[0][k] : digits[1][k - len[0]];
		/* Digits from here on stand below the units when their place,
		 * counted from the last, is under -point. */
		long place = (long)(total - 1 - k) + point;
		if (place < 0) {
			if (c != '0' && !drop_ok)
				return KBAD_WHOLE;
			continue;
		}
		if (v > (limit - (uint64_t)(c - '0')) / 10)
			return KBAD_RANGE;
		v = v * 10 + (uint64_t)(c - '0');
	}
	/* Zeros the exponent adds. */
	for (long k = 0; k < point && v != 0; k++) {
		if (v > limit / 10)
			return KBAD_RANGE;
		v *= 10;
	}
	*out = neg ? -(int64_t)v : (int64_t)v;
	return KBAD_NONE;
}

enum kineto_bad kineto_us_to_ns(const char *s, size_t n, int64_t *ns)
{
	return scale(s, n, 3, 1, ns);
}

enum kineto_bad kineto_whole(const char *s, size_t n, int64_t *v)
{
	return scale(s, n, 0, 0, v);
}

const char *kineto_field_name(unsigned field)
{
	static const char *const names[] = {
		"ts",         "dur",  "pid", "tid", "args.device", "args.stream", "args.correlation",
		"args.bytes", "name", "ph"
	};
	for (unsigned b = 0; b < sizeof(names) / sizeof(names[0]); b++)
		if (field == 1u << b)
			return names[b];
	return "?";
}

enum kineto_role kineto_role(const struct kineto_event *e)
{
	if (!(e->have & KF_COMPLETE))
		return KROLE_NONE;
	switch (e->cat) {
	case KCAT_KERNEL:
	case KCAT_MEMCPY:
	case KCAT_MEMSET:
		return KROLE_OP;
	case KCAT_RUNTIME:
	case KCAT_DRIVER:
		return KROLE_CALL;
	case KCAT_CPU_OP:
	case KCAT_USER_ANNOTATION:
	case KCAT_PYTHON:
		return KROLE_RANGE;
	default:
		return KROLE_NONE;
	}
}

/* Where the parse is: the keys that matter at the levels that matter. */
enum place {
	AT_NONE,
	TOP_EVENTS, /* "traceEvents" */
	TOP_BASE,   /* "baseTimeNanoseconds" */
	TOP_UNIT,   /* "displayTimeUnit" */
	TOP_DIST,   /* "distributedInfo" */
	DIST_RANK,  /* its "rank" */
	DIST_WORLD, /* its "world_size" */
	EV_PH,      /* an event's "ph" */
	EV_CAT,     /* "cat" */
	EV_NAME,    /* "name" */
	EV_ARGS,    /* "args" */
	EV_FIELD,   /* a numeric field: parser.field */
	ARG_FIELD,  /* args.device and the like: parser.field */
	ARG_NAME,   /* args.name */
};

struct parser {
	const char *path;
	kineto_event_fn fn;
	void *ctx;
	struct kineto_meta *meta;
	struct rpd_error *err;
	int failed;       /* err is set */
	int depth;        /* open containers */
	int events_depth; /* depth inside traceEvents' array, 0: not in it */
	int events_seen;  /* traceEvents was met */
	unsigned top_seen;
	enum place key; /* what the next value is */
	unsigned field; /* EV_FIELD, ARG_FIELD: its bit */
	int in_args;    /* inside an event's args */
	int in_dist;    /* inside distributedInfo */
	int in_event;   /* inside an event */
	unsigned keys;  /* keys of the event (and its args) met, as bits */
	int complete, meta_ph, ph_seen;
	struct kineto_event ev;
	char *name, *arg_name;
	size_t name_cap, arg_name_cap;
	const struct kineto_tap *tap;
};

/* Hand the token to the tap, if any: 1 to go on, 0 to stop. */
static int tapped(struct parser *p, enum kineto_token kind, const char *s, size_t n)
{
	if (!p->tap || p->tap->token(p->tap->ctx, kind, s, n, p->err) == 0)
		return 1;
	p->failed = 1;
	return 0;
}

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

/* Extra bits for the keys read as strings: ph and cat (name has its own). */
#define KEY_PH (1u << 16)
#define KEY_CAT (1u << 17)
#define KEY_ARGS (1u << 18)
#define KEY_ARG_NAME (1u << 19)

static int key_once(struct parser *p, unsigned bit, const char *name)
{
	if (p->keys & bit)
		return fail(p, _("event %zu: key \"%s\" appears twice"), p->ev.index, name);
	p->keys |= bit;
	return 1;
}

static int number_field(struct parser *p, const char *s, size_t n)
{
	unsigned b = (unsigned)__builtin_ctz(p->field);
	int64_t v = 0;
	enum kineto_bad bad =
		p->field & (KF_TS | KF_DUR) ? kineto_us_to_ns(s, n, &v) : kineto_whole(s, n, &v);
	p->ev.bad[b] = (uint8_t)bad;
	if (bad != KBAD_NONE)
		return 1;
	switch (p->field) {
	case KF_TS:
		p->ev.ts = v;
		break;
	case KF_DUR:
		p->ev.dur = v;
		break;
	case KF_PID:
		p->ev.pid = v;
		break;
	case KF_TID:
		p->ev.tid = v;
		break;
	case KF_DEVICE:
		p->ev.device = v;
		break;
	case KF_STREAM:
		p->ev.stream = v;
		break;
	case KF_CORR:
		p->ev.corr = v;
		break;
	default:
		p->ev.bytes = v;
		break;
	}
	p->ev.have |= p->field;
	return 1;
}

/* A value that is not a number where one is read. */
static void not_number(struct parser *p)
{
	if (p->key == EV_FIELD || p->key == ARG_FIELD)
		p->ev.bad[__builtin_ctz(p->field)] = KBAD_TYPE;
}

/* null is no value: a field that is null is as one that is absent. */
static int on_null(void *ctx)
{
	struct parser *p = ctx;
	if (!tapped(p, KT_NULL, NULL, 0))
		return 0;
	p->key = AT_NONE;
	return 1;
}

static int on_boolean(void *ctx, int v)
{
	struct parser *p = ctx;
	if (!tapped(p, v ? KT_TRUE : KT_FALSE, NULL, 0))
		return 0;
	not_number(p);
	p->key = AT_NONE;
	return 1;
}

static int on_number(void *ctx, const char *s, size_t n)
{
	struct parser *p = ctx;
	if (!tapped(p, KT_NUMBER, s, n))
		return 0;
	enum place k = p->key;
	p->key = AT_NONE;
	if (k == EV_FIELD || k == ARG_FIELD)
		return number_field(p, s, n);
	if (k == TOP_BASE) {
		if (kineto_whole(s, n, &p->meta->base_ns) != KBAD_NONE || p->meta->base_ns < 0)
			return fail(p, "%s",
				    _("baseTimeNanoseconds is not a whole number of ns within 2^63"));
		p->meta->has_base = 1;
	}
	if (k == TOP_EVENTS)
		return fail(p, "%s", _("traceEvents is not an array"));
	/* A rank that is no whole number from 0 is no rank: the trace is
	 * read as of an unknown one. */
	int64_t v;
	if ((k == DIST_RANK || k == DIST_WORLD) && kineto_whole(s, n, &v) == KBAD_NONE && v >= 0 &&
	    v <= INT32_MAX) {
		*(k == DIST_RANK ? &p->meta->rank : &p->meta->world_size) = v;
		p->meta->has_rank |= k == DIST_RANK;
	}
	return 1;
}

static enum kineto_cat category(const unsigned char *s, size_t n)
{
	static const struct {
		const char *name;
		size_t len;
		enum kineto_cat cat;
	} cats[] = {
		{ "kernel", 6, KCAT_KERNEL },
		{ "gpu_memcpy", 10, KCAT_MEMCPY },
		{ "gpu_memset", 10, KCAT_MEMSET },
		{ "cuda_runtime", 12, KCAT_RUNTIME },
		{ "cuda_driver", 11, KCAT_DRIVER },
		{ "cpu_op", 6, KCAT_CPU_OP },
		{ "user_annotation", 15, KCAT_USER_ANNOTATION },
		{ "python_function", 15, KCAT_PYTHON },
		{ "gpu_user_annotation", 19, KCAT_GPU_USER_ANNOTATION },
	};
	for (size_t i = 0; i < sizeof(cats) / sizeof(cats[0]); i++)
		if (cats[i].len == n && memcmp(cats[i].name, s, n) == 0)
			return cats[i].cat;
	return KCAT_OTHER;
}

/* A string of the event kept in *buf (grown as needed), NUL-terminated;
 * 0 (failed) for one longer than a name may be. */
static int keep_text(struct parser *p, char **buf, size_t *cap, const unsigned char *s, size_t n)
{
	if (n > KINETO_NAME_MAX)
		return fail(p, _("event %zu: a name of %zu bytes (at most %zu are read)"), p->ev.index, n,
			    KINETO_NAME_MAX);
	if (n + 1 > *cap) {
		*cap = n + 1 > 2 * *cap ? n + 1 : 2 * *cap;
		*buf = xrealloc(*buf, *cap);
	}
	memcpy(*buf, s, n);
	(*buf)[n] = '\0';
	return 1;
}

static int on_string(void *ctx, const unsigned char *s, size_t n)
{
	struct parser *p = ctx;
	if (!tapped(p, KT_STRING, (const char *)s, n))
		return 0;
	enum place k = p->key;
	p->key = AT_NONE;
	switch (k) {
	case EV_PH:
		p->complete = n == 1 && s[0] == 'X';
		p->meta_ph = n == 1 && s[0] == 'M';
		break;
	case EV_CAT:
		p->ev.cat = category(s, n);
		break;
	case EV_NAME:
		if (!keep_text(p, &p->name, &p->name_cap, s, n))
			return 0;
		p->ev.name = p->name;
		p->ev.name_len = n;
		p->ev.have |= KF_NAME;
		break;
	case ARG_NAME:
		if (!keep_text(p, &p->arg_name, &p->arg_name_cap, s, n))
			return 0;
		p->ev.arg_name = p->arg_name;
		p->ev.arg_name_len = n;
		p->ev.have |= KF_ARG_NAME;
		break;
	case TOP_UNIT:
		if ((n == 2 && memcmp(s, "ms", 2) == 0) || (n == 2 && memcmp(s, "ns", 2) == 0))
			memcpy(p->meta->time_unit, s, 2), p->meta->time_unit[2] = '\0';
		break;
	case TOP_BASE:
		return fail(p, "%s", _("baseTimeNanoseconds is not a whole number of ns within 2^63"));
	case TOP_EVENTS:
		return fail(p, "%s", _("traceEvents is not an array"));
	case EV_FIELD:
	case ARG_FIELD:
		p->ev.bad[__builtin_ctz(p->field)] = KBAD_TYPE;
		break;
	default:
		break;
	}
	return 1;
}

static int top_key(struct parser *p, const unsigned char *s, size_t n)
{
	static const struct {
		const char *name;
		enum place place;
	} keys[] = {
		{ "traceEvents", TOP_EVENTS },
		{ "baseTimeNanoseconds", TOP_BASE },
		{ "displayTimeUnit", TOP_UNIT },
		{ "distributedInfo", TOP_DIST },
	};
	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (strlen(keys[i].name) != n || memcmp(keys[i].name, s, n) != 0)
			continue;
		if (p->top_seen & (1u << i))
			return fail(p, _("key \"%s\" appears twice"), keys[i].name);
		p->top_seen |= 1u << i;
		p->key = keys[i].place;
		return 1;
	}
	return 1;
}

static int event_key(struct parser *p, const unsigned char *s, size_t n)
{
	/* Every key of every event is looked up: lengths known beforehand. */
	static const struct {
		const char *name;
		size_t len;
		enum place place;
		unsigned bit;
	} keys[] = {
		{ "ph", 2, EV_PH, KEY_PH },      { "cat", 3, EV_CAT, KEY_CAT },
		{ "name", 4, EV_NAME, KF_NAME }, { "args", 4, EV_ARGS, KEY_ARGS },
		{ "ts", 2, EV_FIELD, KF_TS },    { "dur", 3, EV_FIELD, KF_DUR },
		{ "pid", 3, EV_FIELD, KF_PID },  { "tid", 3, EV_FIELD, KF_TID },
	};
	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (keys[i].len != n || memcmp(keys[i].name, s, n) != 0)
			continue;
		if (!key_once(p, keys[i].bit, keys[i].name))
			return 0;
		p->key = keys[i].place;
		p->field = keys[i].bit;
		return 1;
	}
	return 1;
}

static int arg_key(struct parser *p, const unsigned char *s, size_t n)
{
	static const struct {
		const char *name;
		size_t len;
		unsigned bit;
	} keys[] = {
		{ "device", 6, KF_DEVICE },
		{ "stream", 6, KF_STREAM },
		{ "correlation", 11, KF_CORR },
		{ "bytes", 5, KF_BYTES },
	};
	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (keys[i].len != n || memcmp(keys[i].name, s, n) != 0)
			continue;
		if (!key_once(p, keys[i].bit, kineto_field_name(keys[i].bit)))
			return 0;
		p->key = ARG_FIELD;
		p->field = keys[i].bit;
		return 1;
	}
	if (n == 4 && memcmp(s, "name", 4) == 0) {
		if (!key_once(p, KEY_ARG_NAME, "args.name"))
			return 0;
		p->key = ARG_NAME;
	}
	return 1;
}

static int dist_key(struct parser *p, const unsigned char *s, size_t n)
{
	if (n == 4 && memcmp(s, "rank", 4) == 0)
		p->key = DIST_RANK;
	else if (n == 10 && memcmp(s, "world_size", 10) == 0)
		p->key = DIST_WORLD;
	return 1;
}

static int on_key(void *ctx, const unsigned char *s, size_t n)
{
	struct parser *p = ctx;
	if (!tapped(p, KT_KEY, (const char *)s, n))
		return 0;
	p->key = AT_NONE;
	if (p->depth == 1)
		return top_key(p, s, n);
	if (p->in_dist && p->depth == 2)
		return dist_key(p, s, n);
	if (p->in_event && p->depth == p->events_depth + 1)
		return event_key(p, s, n);
	if (p->in_args && p->depth == p->events_depth + 2)
		return arg_key(p, s, n);
	return 1;
}

static int open_container(struct parser *p, int map)
{
	enum place k = p->key;
	p->key = AT_NONE;
	if (p->depth == 0 && !map)
		return fail(p, "%s", _("not a Kineto trace: the JSON is not an object"));
	if (++p->depth > KINETO_DEPTH_MAX)
		return fail(p, _("JSON nested deeper than %d levels"), KINETO_DEPTH_MAX);
	if (k == TOP_EVENTS) {
		if (map)
			return fail(p, "%s", _("traceEvents is not an array"));
		p->events_depth = p->depth;
		p->events_seen = 1;
	} else if (k == TOP_BASE) {
		return fail(p, "%s", _("baseTimeNanoseconds is not a whole number of ns within 2^63"));
	} else if (k == TOP_DIST && map) {
		p->in_dist = 1;
	} else if (map && p->events_depth && p->depth == p->events_depth + 1) {
		size_t index = p->ev.index + 1;
		memset(&p->ev, 0, sizeof(p->ev));
		p->ev.index = index;
		p->in_event = 1;
		p->keys = 0;
		p->complete = 0;
		p->meta_ph = 0;
	} else if (k == EV_ARGS && map) {
		p->in_args = 1;
	} else if (k == EV_FIELD || k == ARG_FIELD) {
		p->ev.bad[__builtin_ctz(p->field)] = KBAD_TYPE;
	}
	return 1;
}

static int on_start_map(void *ctx)
{
	return tapped(ctx, KT_MAP_START, NULL, 0) && open_container(ctx, 1);
}

static int on_start_array(void *ctx)
{
	return tapped(ctx, KT_ARRAY_START, NULL, 0) && open_container(ctx, 0);
}

static int on_end_map(void *ctx)
{
	struct parser *p = ctx;
	if (!tapped(p, KT_MAP_END, NULL, 0))
		return 0;
	p->key = AT_NONE;
	if (p->in_dist && p->depth == 2) {
		p->in_dist = 0;
	} else if (p->in_args && p->depth == p->events_depth + 2) {
		p->in_args = 0;
	} else if (p->in_event && p->depth == p->events_depth + 1) {
		p->in_event = 0;
		if (p->complete)
			p->ev.have |= KF_COMPLETE;
		if (p->meta_ph)
			p->ev.have |= KF_META;
		if (p->fn(p->ctx, &p->ev, p->err)) {
			p->failed = 1;
			return 0;
		}
	}
	p->depth--;
	return 1;
}

static int on_end_array(void *ctx)
{
	struct parser *p = ctx;
	if (!tapped(p, KT_ARRAY_END, NULL, 0))
		return 0;
	p->key = AT_NONE;
	if (p->events_depth && p->depth == p->events_depth)
		p->events_depth = 0;
	p->depth--;
	return 1;
}

int kineto_parse(struct instream *in, const char *path, kineto_event_fn fn, void *ctx,
		 struct kineto_meta *meta, struct rpd_error *err)
{
	return kineto_parse_tapped(in, path, fn, ctx, NULL, meta, err);
}

int kineto_parse_tapped(struct instream *in, const char *path, kineto_event_fn fn, void *ctx,
			const struct kineto_tap *tap, struct kineto_meta *meta, struct rpd_error *err)
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
	struct parser p = { .path = path, .fn = fn, .ctx = ctx, .meta = meta, .err = err, .tap = tap };
	memset(meta, 0, sizeof(*meta));
	int rc = json_stream(in, path, &cb, &p, &p.failed, err);
	if (rc == 0 && !p.events_seen)
		rc = err_set(err, _("%s: not a Kineto trace: the JSON object has no traceEvents"), path);
	free(p.name);
	free(p.arg_name);
	return rc;
}
