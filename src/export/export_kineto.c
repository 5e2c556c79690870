#include "config.h"
#include "export/export_kineto.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "load/instream.h"
#include "load/kineto.h"
#include "load/kineto_parse.h"
#include "sqlfile/outfile.h"
#include "sqlfile/tempname.h"
#include "util/i18n.h"
#include "util/idmap.h"
#include "util/interrupt.h"
#include "util/utf8.h"
#include "util/xalloc.h"

/* An event larger than this is refused (memory holds one event at a
 * time; a real one is a few kB). */
#define EVENT_MAX ((size_t)256 << 20)
/* Bytes gathered before they are written (or deflated). */
#define CHUNK ((size_t)1 << 16)
/* Events between two looks at the interrupt flag. */
#define POLL_EVENTS 4096

struct text {
	char *p;
	size_t n, cap;
};

static void put(struct text *b, const char *s, size_t n)
{
	if (n == 0)
		return;
	b->p = xgrow(b->p, &b->cap, b->n + n, 1);
	memcpy(b->p + b->n, s, n);
	b->n += n;
}

#define PUTS(b, s) put((b), (s), strlen(s))

/* A JSON string of bytes s: quotes, backslashes and control characters
 * escaped; what is not UTF-8 becomes U+FFFD (JSON holds text only). */
static void put_string(struct text *b, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	put(b, "\"", 1);
	size_t i = 0;
	while (i < n) {
		size_t run = i;
		while (run < n && u[run] >= 0x20 && u[run] < 0x80 && u[run] != '"' && u[run] != '\\')
			run++;
		put(b, s + i, run - i);
		i = run;
		if (i == n)
			break;
		unsigned char c = u[i];
		if (c == '"' || c == '\\') {
			char esc[2] = { '\\', (char)c };
			put(b, esc, 2);
			i++;
		} else if (c < 0x20) {
			static const char short_form[] = { '\b', 'b',  '\f', 'f',  '\n',
							   'n',  '\r', 'r',  '\t', 't' };
			char esc[8];
			int len = 0;
			for (size_t k = 0; k < sizeof(short_form); k += 2)
				if (short_form[k] == (char)c)
					len = snprintf(esc, sizeof(esc), "\\%c", short_form[k + 1]);
			if (!len)
				len = snprintf(esc, sizeof(esc), "\\u%04x", c);
			put(b, esc, (size_t)len);
			i++;
		} else {
			size_t len = utf8_seq_len(u + i, n - i);
			if (len) {
				put(b, s + i, len);
				i += len;
			} else {
				PUTS(b, "\xef\xbf\xbd");
				i++;
			}
		}
	}
	put(b, "\"", 1);
}

/* The output: bytes gathered in out, written to fd as they are or
 * deflated into gzip. */
struct sink {
	int fd;
	int gz;
	z_stream z;
	unsigned char *zbuf;
	struct text out;
	int err; /* errno of a failed write (EIO for zlib), 0 */
};

static int write_all(struct sink *k, const unsigned char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(k->fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			k->err = w < 0 ? errno : EIO;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Write what is gathered; finish ends the gzip stream. */
static int drain(struct sink *k, int finish)
{
	if (k->err)
		return -1;
	if (!k->gz) {
		int rc = write_all(k, (const unsigned char *)k->out.p, k->out.n);
		k->out.n = 0;
		return rc;
	}
	k->z.next_in = (unsigned char *)k->out.p;
	k->z.avail_in = (uInt)k->out.n;
	int rc;
	do {
		k->z.next_out = k->zbuf;
		k->z.avail_out = (uInt)CHUNK;
		rc = deflate(&k->z, finish ? Z_FINISH : Z_NO_FLUSH);
		if (rc == Z_STREAM_ERROR) {
			k->err = EIO;
			return -1;
		}
		if (write_all(k, k->zbuf, CHUNK - k->z.avail_out))
			return -1;
	} while (k->z.avail_out == 0 || (finish && rc != Z_STREAM_END));
	k->out.n = 0;
	return 0;
}

static int sink_open(struct sink *k, int fd, int gz)
{
	memset(k, 0, sizeof(*k));
	k->fd = fd;
	if (!gz)
		return 0;
	/* 16 + the window's bits: a gzip header and trailer. */
	if (deflateInit2(&k->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) !=
	    Z_OK)
		return -1;
	k->gz = 1;
	k->zbuf = xmalloc(CHUNK);
	return 0;
}

static void sink_close(struct sink *k)
{
	if (k->gz)
		deflateEnd(&k->z);
	free(k->zbuf);
	free(k->out.p);
	memset(k, 0, sizeof(*k));
}

/* Where the copy is in the JSON: a level of containers. */
struct level {
	unsigned char map;   /* an object (else an array) */
	unsigned char first; /* nothing written in it yet */
};

/* The keys of an event that choose whether it goes, beside what the
 * parse reads. */
enum ev_key { EK_OTHER, EK_PH, EK_CAT, EK_ID };

struct kx {
	const struct export_request *r;
	const struct trace *t;
	const struct trace_input *in;
	struct rpd_error *err;

	/* What goes, by place among the file's ops and API rows (from 1). */
	uint64_t *ops;
	size_t nops;
	uint64_t *apis; /* NULL: every call */
	size_t napis;
	struct idmap corr; /* correlation ids of the kept ops */
	int64_t base;      /* baseTimeNanoseconds */
	size_t op_seen, api_seen, events;
	uint64_t ops_out, apis_out;
	int changed; /* an op is not where the trace has it */

	/* The copy (pass 2). */
	struct sink sink;
	struct text ev; /* the event being read */
	struct level lv[KINETO_DEPTH_MAX + 2];
	int depth;        /* containers open */
	int events_depth; /* depth of traceEvents' array once open, else 0 */
	int events_next;  /* the next value is traceEvents' */
	int events_seen, events_written;
	int in_event; /* inside an event: tokens go to ev */
	int skip;     /* a value left out: tokens are dropped... */
	int skip_at;  /* ...until the depth is this again */
	int skip_next;
	enum ev_key key;
	char ph[4], cat[32], id[32];
	int cat_long;
};

static int bit(const uint64_t *v, size_t n, size_t k)
{
	return k >= 1 && k <= n && (v[k >> 6] >> (k & 63) & 1);
}

static void set_bit(uint64_t *v, size_t n, size_t k)
{
	if (k >= 1 && k <= n)
		v[k >> 6] |= (uint64_t)1 << (k & 63);
}

static int failed_write(struct kx *x)
{
	return err_set(x->err, "%s: %s", x->r->path, strerror(x->sink.err ? x->sink.err : EIO));
}

static int changed(struct kx *x)
{
	return err_set(x->err, _("%s: changed since it was read; open it again to export it"), x->in->path);
}

/* Is the file at path as the trace was read from it? */
static int unchanged(struct kx *x, const struct stat *st)
{
	return kineto_stamp_same(&x->in->stamp, st) ? 0 : changed(x);
}

/* Separators: a key after another, a value after another in an array;
 * the top level's keys one a line. */
static void before_key(struct kx *x, struct text *b)
{
	struct level *l = &x->lv[x->depth];
	if (x->depth == 1)
		PUTS(b, l->first ? "\n  " : ",\n  ");
	else if (!l->first)
		PUTS(b, ", ");
	l->first = 0;
}

static void before_value(struct kx *x, struct text *b)
{
	struct level *l = &x->lv[x->depth];
	if (x->depth == 0 || l->map)
		return;
	if (!l->first)
		PUTS(b, ", ");
	l->first = 0;
}

static enum ev_key key_of(const char *s, size_t n)
{
	if (n == 2 && memcmp(s, "ph", 2) == 0)
		return EK_PH;
	if (n == 3 && memcmp(s, "cat", 3) == 0)
		return EK_CAT;
	if (n == 2 && memcmp(s, "id", 2) == 0)
		return EK_ID;
	return EK_OTHER;
}

/* A value of the event itself that chooses whether it goes. */
static void capture(struct kx *x, enum kineto_token kind, const char *s, size_t n)
{
	char *to = NULL;
	size_t room = 0;
	if (x->key == EK_PH && kind == KT_STRING)
		to = x->ph, room = sizeof(x->ph);
	else if (x->key == EK_CAT && kind == KT_STRING)
		to = x->cat, room = sizeof(x->cat);
	else if (x->key == EK_ID && (kind == KT_STRING || kind == KT_NUMBER))
		to = x->id, room = sizeof(x->id);
	x->key = EK_OTHER;
	if (!to)
		return;
	/* Longer than any value that matters: none of them. */
	if (n >= room || memchr(s, '\0', n))
		n = 0;
	memcpy(to, s, n);
	to[n] = '\0';
	if (to == x->cat)
		x->cat_long = n == 0;
}

/* What records the export in the file itself, as the last top-level key. */
static void record(struct kx *x, struct text *b)
{
	const struct export_request *r = x->r;
	char buf[512];
	before_key(x, b);
	PUTS(b, "\"rpdtop\": {\"exported_from\": ");
	put_string(b, x->in->path, strlen(x->in->path));
	filter_describe(r->filter, buf, sizeof(buf));
	PUTS(b, ", \"filter\": ");
	put_string(b, buf, strlen(buf));
	buf[0] = '\0';
	if (r->window->active)
		snprintf(buf, sizeof(buf), "%lld:%lld", (long long)r->window->start,
			 (long long)r->window->end);
	PUTS(b, ", \"window\": ");
	put_string(b, buf, strlen(buf));
	snprintf(buf, sizeof(buf), ", \"exported_ops\": %llu, \"exported_api\": %llu}",
		 (unsigned long long)x->ops_out, (unsigned long long)x->apis_out);
	PUTS(b, buf);
}

static void value_left_out(struct kx *x, int opens)
{
	x->skip_at = x->depth;
	if (opens) {
		x->skip = 1;
		x->depth++;
	}
}

/* Every token of the second reading: copied to the output, to the event
 * being read, or left out. */
static int copy_token(void *ctx, enum kineto_token kind, const char *s, size_t n, struct rpd_error *err)
{
	struct kx *x = ctx;
	(void)err;
	int opens = kind == KT_MAP_START || kind == KT_ARRAY_START;
	int closes = kind == KT_MAP_END || kind == KT_ARRAY_END;
	int events_next = x->events_next;
	if (kind != KT_KEY)
		x->events_next = 0;
	if (x->skip_next) {
		x->skip_next = 0;
		value_left_out(x, opens);
		return 0;
	}
	if (x->skip) {
		x->depth += opens - closes;
		x->skip = x->depth != x->skip_at;
		return 0;
	}
	/* An element of traceEvents that is no object: no event. */
	if (x->events_depth && x->depth == x->events_depth && kind != KT_MAP_START && !closes) {
		value_left_out(x, opens);
		return 0;
	}
	struct text *b = x->in_event ? &x->ev : &x->sink.out;
	switch (kind) {
	case KT_KEY:
		if (x->depth == 1 && n == 6 && memcmp(s, "rpdtop", 6) == 0) {
			/* Ours, from an earlier export: this one's replaces it. */
			x->skip_next = 1;
			return 0;
		}
		if (x->depth == 1)
			x->events_next = !x->events_seen && n == 11 && memcmp(s, "traceEvents", 11) == 0;
		if (x->in_event && x->depth == x->events_depth + 1)
			x->key = key_of(s, n);
		before_key(x, b);
		put_string(b, s, n);
		PUTS(b, ": ");
		break;
	case KT_MAP_START:
	case KT_ARRAY_START:
		if (x->events_depth && x->depth == x->events_depth) {
			x->in_event = 1;
			x->ev.n = 0;
			x->ph[0] = x->cat[0] = x->id[0] = '\0';
			x->cat_long = 0;
			x->key = EK_OTHER;
			b = &x->ev;
		} else {
			before_value(x, b);
		}
		put(b, kind == KT_MAP_START ? "{" : "[", 1);
		if (kind == KT_ARRAY_START && events_next && x->depth == 1) {
			x->events_depth = 2;
			x->events_seen = 1;
		}
		/* The parse refuses what is nested deeper, after this. */
		if (x->depth + 1 < (int)(sizeof(x->lv) / sizeof(x->lv[0])))
			x->lv[x->depth + 1] = (struct level){ kind == KT_MAP_START, 1 };
		x->depth++;
		break;
	case KT_MAP_END:
	case KT_ARRAY_END:
		if (x->depth == 1) {
			record(x, b);
			PUTS(b, "\n}\n");
		} else if (x->events_depth && x->depth == x->events_depth) {
			PUTS(b, x->events_written ? "\n  ]" : "]");
			x->events_depth = 0;
		} else {
			put(b, kind == KT_MAP_END ? "}" : "]", 1);
		}
		x->depth--;
		break;
	default:
		before_value(x, b);
		if (kind == KT_NUMBER)
			put(b, s, n);
		else if (kind == KT_STRING)
			put_string(b, s, n);
		else
			PUTS(b, kind == KT_NULL ? "null" : kind == KT_TRUE ? "true" : "false");
		if (x->in_event && x->depth == x->events_depth + 1)
			capture(x, kind, s, n);
		break;
	}
	if (x->in_event && x->ev.n > EVENT_MAX)
		return err_set(x->err, _("%s: an event of more than %zu MiB; not exported"), x->in->path,
			       EVENT_MAX >> 20);
	if (!x->in_event && x->sink.out.n >= CHUNK && drain(&x->sink, 0))
		return failed_write(x);
	return 0;
}

/* Is the event in the window (always, without one)? Times from the
 * file's base on, as the reader has them. */
static int in_window(const struct kx *x, const struct kineto_event *e)
{
	const struct window *w = x->r->window;
	if (!w->active)
		return 1;
	int64_t start, end;
	if (!(e->have & KF_TS) || __builtin_add_overflow(e->ts, x->base, &start))
		return 0;
	int64_t dur = e->have & KF_DUR && e->dur > 0 ? e->dur : 0;
	if (__builtin_add_overflow(start, dur, &end))
		end = INT64_MAX;
	return select_in_window(w, start, end);
}

static int is_flow(const char *ph)
{
	return (ph[0] == 's' || ph[0] == 'f' || ph[0] == 't') && ph[1] == '\0';
}

/* The id of an ac2g flow: the correlation id of the op it reaches. */
static int flow_of_kept_op(const struct kx *x)
{
	int64_t id;
	uint32_t v;
	return x->id[0] && kineto_whole(x->id, strlen(x->id), &id) == KBAD_NONE &&
	       idmap_get(&x->corr, (uint64_t)id, &v);
}

/* The op numbered k: where the trace has it, or the file changed. */
static void check_op(struct kx *x, const struct kineto_event *e, size_t k)
{
	uint32_t row = trace_op_row(x->t, (uint32_t)(x->in - x->t->inputs), (int64_t)k);
	int64_t start, end;
	if (row == TRACE_NONE || (e->have & (KF_TS | KF_DUR)) != (KF_TS | KF_DUR) ||
	    __builtin_add_overflow(e->ts, x->base, &start) || __builtin_add_overflow(start, e->dur, &end) ||
	    x->t->ops.start[row] != start || x->t->ops.end[row] != end)
		x->changed = 1;
}

/* Does the event go (module comment)? */
static int keep(struct kx *x, const struct kineto_event *e)
{
	uint32_t v;
	size_t k;
	int kept;
	switch (kineto_role(e)) {
	case KROLE_OP:
		k = ++x->op_seen;
		check_op(x, e, k);
		kept = bit(x->ops, x->nops, k);
		x->ops_out += (uint64_t)kept;
		return kept;
	case KROLE_CALL:
		k = ++x->api_seen;
		kept = !x->apis || bit(x->apis, x->napis, k) ||
		       (e->have & KF_CORR && idmap_get(&x->corr, (uint64_t)e->corr, &v));
		x->apis_out += (uint64_t)kept;
		return kept;
	case KROLE_RANGE:
		k = ++x->api_seen;
		kept = in_window(x, e) || (x->apis && bit(x->apis, x->napis, k));
		x->apis_out += (uint64_t)kept;
		return kept;
	default:
		break;
	}
	if (strcmp(x->ph, "M") == 0)
		return 1;
	if (is_flow(x->ph) && !x->cat_long && strcmp(x->cat, "ac2g") == 0)
		return flow_of_kept_op(x);
	return in_window(x, e);
}

static int poll_stop(struct kx *x)
{
	if (++x->events % POLL_EVENTS == 0 && interrupt_pending())
		return err_set(x->err, _("%s: interrupted"), x->r->path);
	return 0;
}

/* First reading: the correlation ids of the kept ops. */
static int scan_event(void *ctx, const struct kineto_event *e, struct rpd_error *err)
{
	struct kx *x = ctx;
	(void)err;
	if (poll_stop(x))
		return -1;
	switch (kineto_role(e)) {
	case KROLE_OP:
		if (bit(x->ops, x->nops, ++x->op_seen) && e->have & KF_CORR)
			idmap_put(&x->corr, (uint64_t)e->corr, 1);
		break;
	case KROLE_CALL:
	case KROLE_RANGE:
		x->api_seen++;
		break;
	default:
		break;
	}
	return 0;
}

/* Second reading: the event read goes out, or not. */
static int copy_event(void *ctx, const struct kineto_event *e, struct rpd_error *err)
{
	struct kx *x = ctx;
	(void)err;
	if (poll_stop(x))
		return -1;
	int kept = keep(x, e);
	if (x->changed)
		return changed(x);
	if (kept) {
		PUTS(&x->sink.out, x->events_written ? ",\n    " : "\n    ");
		put(&x->sink.out, x->ev.p, x->ev.n);
		x->events_written++;
	}
	x->in_event = 0;
	x->ev.n = 0;
	if (x->sink.out.n >= CHUNK && drain(&x->sink, 0))
		return failed_write(x);
	return 0;
}

/* One reading of the input, the file checked to be the one read. */
static int reading(struct kx *x, kineto_event_fn fn, const struct kineto_tap *tap)
{
	struct instream in;
	struct kineto_meta meta;
	if (instream_open(&in, x->in->path, x->err))
		return -1;
	if (unchanged(x, &in.st)) {
		instream_close(&in);
		return -1;
	}
	x->op_seen = x->api_seen = 0;
	int rc = kineto_parse_tapped(&in, x->in->path, fn, x, tap, &meta, x->err);
	instream_close(&in);
	x->base = meta.has_base ? meta.base_ns : 0;
	/* As many ops and calls as read before. */
	if (rc == 0 &&
	    (x->op_seen != x->in->op_count || (x->t->apis_read && x->api_seen != x->in->api_count)))
		rc = changed(x);
	return rc;
}

/* Which ops and calls go, by their numbers. */
static void choose(struct kx *x)
{
	const struct export_request *r = x->r;
	const struct trace_input *in = x->in;
	x->nops = in->op_count;
	x->ops = xcalloc(x->nops / 64 + 2, sizeof(uint64_t));
	for (size_t i = in->op_first; i < in->op_first + in->op_count; i++)
		if (selected_op(r->sel, i))
			set_bit(x->ops, x->nops, (size_t)trace_op_id(x->t, i));
	if (!r->sel || !r->sel->filtered)
		return;
	x->napis = in->api_count;
	x->apis = xcalloc(x->napis / 64 + 2, sizeof(uint64_t));
	for (size_t i = in->api_first; i < in->api_first + in->api_count; i++)
		if (selected_api(r->sel, i))
			set_bit(x->apis, x->napis, (size_t)trace_api_id(x->t, i));
}

static int ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);
	return n >= m && strcmp(s + n - m, end) == 0;
}

/* RPDTOP_TEST_EXPORT_PAUSE=MS: the export waits once its temporary file
 * is made, before it looks at the input (a test changes it meanwhile). */
static void test_pause(void)
{
	const char *v = getenv("RPDTOP_TEST_EXPORT_PAUSE");
	long ms = v ? strtol(v, NULL, 10) : 0;
	if (ms > 0 && ms <= 60000) {
		struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };
		nanosleep(&ts, NULL);
	}
}

static int check_request(const struct export_request *r, struct rpd_error *err)
{
	const struct trace *t = r->t;
	for (size_t i = 0; i < t->ninputs; i++) {
		if (t->inputs[i].format != INPUT_KINETO)
			return err_set(
				err,
				_("%s: a Kineto trace and rpd or rocpd inputs cannot go into one export; "
				  "export them separately"),
				t->inputs[i].path);
	}
	if (t->ninputs != 1)
		return err_set(err, _("%s: Kineto traces are exported one at a time"), t->inputs[1].path);
	/* rpdtop itself refuses a trace without GPU ops: so does the export. */
	if (r->sel && r->sel->nops == 0)
		return err_set(err, _("%s: nothing to export: no GPU op passes the filter and window"),
			       r->path);
	/* The calls to keep are the selection's. */
	if (r->sel && r->sel->filtered && !t->apis_read)
		return err_set(err, _("%s: the API calls must be read before this export"), r->path);
	if (!r->force && access(r->path, F_OK) == 0)
		return err_set(err, _("%s: already exists (use --force to replace it)"), r->path);
	return 0;
}

/* Both readings into the temporary file open as fd. */
static int write_export(struct kx *x, int fd)
{
	struct stat st;
	if (stat(x->in->path, &st) != 0 || unchanged(x, &st))
		return changed(x);
	choose(x);
	if (reading(x, scan_event, NULL))
		return -1;
	if (sink_open(&x->sink, fd, ends_with(x->r->path, ".gz")))
		return err_set(x->err, "%s: %s", x->r->path, strerror(ENOMEM));
	x->events = 0;
	struct kineto_tap tap = { copy_token, x };
	if (reading(x, copy_event, &tap))
		return -1;
	if (drain(&x->sink, 1))
		return failed_write(x);
	/* The file may have changed after it was read: its events are then
	 * of another trace. */
	if (stat(x->in->path, &st) != 0 || unchanged(x, &st))
		return changed(x);
	return 0;
}

int export_kineto_wanted(const struct trace *t)
{
	for (size_t i = 0; i < t->ninputs; i++)
		if (t->inputs[i].format == INPUT_KINETO)
			return 1;
	return 0;
}

int export_kineto(const struct export_request *r, struct export_result *res, struct rpd_error *err)
{
	memset(res, 0, sizeof(*res));
	if (check_request(r, err))
		return -1;
	/* Ours, left by an export that was killed: they would stay forever. */
	tempname_remove_stale(r->path);
	int fd = -1;
	char *tmp = tempname_create(r->path, &fd);
	if (!tmp)
		return err_set(err, _("%s: cannot create a file there: %s"), r->path, strerror(errno));
	outfile_pending(tmp);
	test_pause();
	struct kx x = { .r = r, .t = r->t, .in = &r->t->inputs[0], .err = err };
	idmap_init(&x.corr);
	int rc = write_export(&x, fd);
	if (rc == 0) {
		/* The data must be on disk before the name points at it. */
		int sync = outfile_sync(tmp, fd);
		if (sync == OUTFILE_STOPPED)
			rc = err_set(err, _("%s: interrupted"), r->path);
		else if (sync != 0)
			rc = err_set(err, "%s: %s", r->path, strerror(sync));
	}
	struct stat st;
	if (rc == 0 && fstat(fd, &st) == 0)
		res->bytes = st.st_size;
	if (rc == 0)
		rc = outfile_move(tmp, r->path, r->force, err);
	if (rc != 0)
		unlink(tmp);
	res->ops = x.ops_out;
	res->apis = x.apis_out;
	outfile_done(tmp);
	close(fd);
	free(tmp);
	sink_close(&x.sink);
	free(x.ev.p);
	free(x.ops);
	free(x.apis);
	idmap_free(&x.corr);
	return rc ? -1 : 0;
}
