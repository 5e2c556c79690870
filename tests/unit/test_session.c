/* The session: what is in view follows the filter and window, is remade
 * once per refresh, and holds for two traces at once; the rule for API
 * calls agrees with SQL over the base tables. */
#include "config.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "demo/demo.h"
#include "session/session.h"
#include "workspace/workspace.h"

static int64_t scalar(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;
	CHECK(sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* An event of [start, end) overlaps [lo, hi) (one without a duration:
 * its time is inside), in SQL over table alias a. */
static char *overlaps(const char *a, int64_t lo, int64_t hi)
{
	return sqlite3_mprintf("(CASE WHEN %s.\"end\" <= %s.start THEN %s.start >= %lld AND %s.start < %lld "
			       "ELSE %s.start < %lld AND %s.\"end\" > %lld END)",
			       a, a, a, (long long)lo, a, (long long)hi, a, (long long)hi, a, (long long)lo);
}

/* The ops and API calls the selection should hold, in SQL: names as
 * shown (a marker's text), caseless substring for a lower-case pattern,
 * events overlapping [lo, hi), the launches of the ops kept, and every
 * call enclosing a kept one on its thread. */
static void oracle(const char *path, const char *word, int64_t lo, int64_t hi, int64_t *ops, int64_t *apis)
{
	sqlite3 *db;
	CHECK(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
	char *ov = overlaps("o", lo, hi), *av = overlaps("a", lo, hi);
	char *kept = sqlite3_mprintf(
		"SELECT o.id FROM rocpd_op o JOIN rocpd_string d ON d.id = o.description_id "
		"JOIN rocpd_string t ON t.id = o.opType_id WHERE (CASE WHEN d.string = '' THEN t.string "
		"ELSE d.string END) LIKE '%%%q%%' AND %s",
		word, ov);
	char *sql = sqlite3_mprintf("SELECT count(*) FROM (%s)", kept);
	*ops = scalar(db, sql);
	sqlite3_free(sql);
	sql = sqlite3_mprintf(
		"WITH k AS (SELECT a.* FROM rocpd_api a JOIN rocpd_string n ON n.id = a.apiName_id "
		"JOIN rocpd_string g ON g.id = a.args_id WHERE ((CASE WHEN n.string = "
		"'UserMarker' THEN g.string "
		"ELSE n.string END) LIKE '%%%q%%' AND %s) "
		"OR a.id IN (SELECT api_id FROM rocpd_api_ops WHERE op_id IN (%s))) "
		"SELECT count(*) FROM rocpd_api e WHERE e.id IN (SELECT id FROM k) OR EXISTS "
		"(SELECT 1 FROM k WHERE k.pid = e.pid AND k.tid = e.tid AND k.start >= e.start "
		"AND k.\"end\" <= e.\"end\")",
		word, av, kept);
	*apis = scalar(db, sql);
	sqlite3_free(sql);
	sqlite3_free(kept);
	sqlite3_free(ov);
	sqlite3_free(av);
	sqlite3_close(db);
}

static void write_trace(const char *path, uint64_t seed, size_t ops)
{
	struct gen_params p = { .seed = seed, .ops = ops, .gpus = 2 };
	struct demo_output rpd = { .format = INPUT_RPD, .force = 1 };
	struct rpd_error err;
	CHECK(demo_write_file(path, &p, &rpd, &err) == 0);
}

static void test_rule(const char *path)
{
	struct workspace ws;
	struct rpd_error err;
	char msg[256];
	const char *paths[] = { path };
	struct workspace_options o = { .paths = paths, .npaths = 1, .op_ids = 1, .apis = API_NEED_ALL };
	CHECK(workspace_open(&ws, &o, &err) == 0);
	struct session *s = &ws.session;
	const struct trace *t = session_trace(s);
	CHECK_INT(session_sel(s)->nops, t->ops.n);
	CHECK(!session_filtered(s));
	unsigned gen = s->generation;

	/* Changes wait for the refresh, which remakes the selection once. */
	CHECK(session_set_filter(s, (const char *const[]){ "at" }, 1, msg, sizeof(msg)) == 0);
	CHECK(session_set_window(s, "10%:60%", msg, sizeof(msg)) == 0);
	CHECK_INT(s->generation, gen);
	CHECK_INT(session_sel(s)->nops, t->ops.n);
	CHECK_INT(session_refresh(s), 1);
	CHECK_INT(s->generation, gen + 1);
	CHECK_INT(session_refresh(s), 0);
	CHECK_INT(s->generation, gen + 1);

	int64_t span = t->op_last_end - t->op_first_start, ops, apis;
	oracle(path, "at", t->op_first_start + (int64_t)llround((double)span * 0.1),
	       t->op_first_start + (int64_t)llround((double)span * 0.6), &ops, &apis);
	CHECK(ops > 0);
	CHECK_INT(session_sel(s)->nops, ops);
	CHECK_INT(session_sel(s)->napis, apis);

	/* A bad pattern leaves the filter as it was. */
	CHECK(session_add_filter(s, "(", msg, sizeof(msg)) == -1);
	CHECK(strstr(msg, "invalid pattern") != NULL);
	CHECK_INT(s->filter.n, 1);
	CHECK(session_set_window(s, "9:1", msg, sizeof(msg)) == -1);
	CHECK(session_window(s)->active);
	char f[128], w[128];
	session_describe(s, f, sizeof(f), w, sizeof(w));
	CHECK_STR(f, "/at/");
	CHECK(w[0] == '+');

	/* No filter, no window: everything, API calls too. */
	CHECK_INT(session_pop_filter(s), 1);
	session_clear_window(s);
	session_refresh(s);
	CHECK_INT(session_sel(s)->nops, t->ops.n);
	CHECK_INT(session_sel(s)->napis, t->apis.n);
	CHECK(session_first_op_named(s, t->ops.name[5]) <= 5);
	workspace_close(&ws);
}

/* Two traces: one filter for both, a window given as a share of each
 * one's own span, and a window of the first's clock moved onto the
 * second by its offset from the start. */
static void test_two(const char *a, const char *b)
{
	struct workspace ws;
	struct rpd_error err;
	char msg[256];
	struct workspace_options o = { .paths = (const char *const[]){ a }, .npaths = 1 };
	CHECK(workspace_open(&ws, &o, &err) == 0);
	struct session *s = &ws.session;
	o.paths = (const char *const[]){ b };
	CHECK(workspace_add_trace(&ws, &o, &err) == 0);
	CHECK_INT(s->ntraces, 2);
	CHECK(workspace_add_trace(&ws, &o, &err) == -1);
	const struct trace *t0 = session_trace_at(s, 0), *t1 = session_trace_at(s, 1);
	CHECK(t0->ops.n != t1->ops.n);
	CHECK(session_set_window(s, "0%:50%", msg, sizeof(msg)) == 0);
	session_refresh(s);
	const struct window *w1 = &s->views[1].window;
	CHECK(w1->active);
	CHECK_INT(w1->start, t1->op_first_start);
	CHECK_INT(w1->end, t1->op_first_start + (t1->op_last_end - t1->op_first_start + 1) / 2);
	session_set_window_ns(s, t0->op_first_start + 1000, t0->op_first_start + 5000000);
	session_refresh(s);
	CHECK_INT(w1->start, t1->op_first_start + 1000);
	CHECK_INT(w1->end, t1->op_first_start + 5000000);
	size_t in_window = 0;
	for (size_t i = 0; i < t1->ops.n; i++)
		in_window += t1->ops.start[i] < w1->end && t1->ops.end[i] > w1->start;
	CHECK_INT(session_sel_at(s, 1)->nops, in_window);
	workspace_close(&ws);
}

/* The enclosing case against brute force, on calls nested, partly
 * overlapping, of equal spans and without a duration, on three threads:
 * with a filter that passes the calls named "call" and a window, a call is
 * selected when it passes and overlaps the window, or when some call of
 * its thread that does starts no earlier and ends no later. */
static void test_enclosing(void)
{
	struct trace t;
	trace_init(&t);
	uint32_t in = trace_add_input(&t, "e.rpd", INPUT_RPD, 2);
	uint32_t q = trace_queue(&t, trace_gpu(&t, in, 0), 0);
	uint32_t call = strtab_intern(&t.strings, "call"), range = strtab_intern(&t.strings, "range");
	uint32_t k = strtab_intern(&t.strings, "k");
	trace_add_op(&t, 1, 0, 10, k, k, q);
	trace_add_op(&t, 2, 99990, 100000, k, k, q);
	uint64_t seed = 7;
	int64_t id = 1;
	for (int th = 0; th < 3; th++) {
		uint32_t thread = trace_thread(&t, in, 1, 10 + th);
		for (int i = 0; i < 400; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			int64_t start = (int64_t)((seed >> 20) % 100000);
			int64_t len = (int64_t)((seed >> 40) % 5) == 0
					      ? 0
					      : (int64_t)((seed >> 8) % (i % 7 ? 300 : 30000));
			trace_add_api(&t, id++, start, start + len, i % 3 ? call : range, TRACE_NONE, thread);
		}
		/* A call and its twin, and a call starting with it but shorter. */
		trace_add_api(&t, id++, 50000, 50500, range, TRACE_NONE, thread);
		trace_add_api(&t, id++, 50000, 50500, call, TRACE_NONE, thread);
		trace_add_api(&t, id++, 50000, 50100, range, TRACE_NONE, thread);
	}
	/* A range starting with the call it encloses. */
	uint32_t alone = trace_thread(&t, in, 1, 20);
	trace_add_api(&t, id++, 65000, 65300, range, TRACE_NONE, alone);
	trace_add_api(&t, id++, 65000, 65200, call, TRACE_NONE, alone);
	trace_finish(&t);
	struct filter f;
	char msg[128];
	filter_init(&f);
	CHECK(filter_push(&f, "^call$", msg, sizeof(msg)) == 0);
	for (int round = 0; round < 4; round++) {
		struct window w = { .active = 1,
				    .start = 20000 + round * 15000,
				    .end = 20000 + round * 15000 + 700 };
		struct selection sel;
		selection_build(&t, &f, &w, NULL, &sel);
		size_t wrong = 0, enclosing = 0;
		for (size_t e = 0; e < t.apis.n; e++) {
			int own = trace_api_name(&t, e) == call &&
				  select_in_window(&w, t.apis.start[e], t.apis.end[e]);
			int want = own;
			for (size_t c = 0; !want && c < t.apis.n; c++)
				want = t.apis.thread[c] == t.apis.thread[e] &&
				       trace_api_name(&t, c) == call &&
				       select_in_window(&w, t.apis.start[c], t.apis.end[c]) &&
				       t.apis.start[c] >= t.apis.start[e] && t.apis.end[c] <= t.apis.end[e];
			enclosing += want && !own;
			wrong += want != selected_api(&sel, e);
		}
		CHECK_INT(wrong, 0);
		CHECK(enclosing > 0);
		selection_free(&sel);
	}
	filter_free(&f);
	trace_free(&t);
}

/* Each thread's calls in the order by thread and start (the longer first
 * at equal starts), every call once. */
static void check_order(const struct trace *t)
{
	struct api_order o;
	api_order_build(t, &o);
	size_t wrong = 0;
	uint8_t *seen = calloc(t->apis.n + 1, 1);
	for (size_t k = 0; k < t->nthreads; k++) {
		for (size_t i = o.first[k]; i < o.first[k + 1]; i++) {
			uint32_t c = o.rows[i];
			wrong += t->apis.thread[c] != k || seen[c]++;
			if (i == o.first[k])
				continue;
			uint32_t b = o.rows[i - 1];
			wrong += t->apis.start[b] > t->apis.start[c] ||
				 (t->apis.start[b] == t->apis.start[c] && t->apis.end[b] < t->apis.end[c]);
		}
	}
	CHECK_INT(o.first[t->nthreads], t->apis.n);
	CHECK_INT(wrong, 0);
	free(seen);
	api_order_free(&o);
}

/* Calls appended as they end: children (random lengths, some without a
 * duration, some starting with their parent) before the call around them. */
static int64_t add_nested(struct trace *t, uint32_t thread, uint32_t name, int64_t start, int64_t end,
			  int depth, uint64_t *seed, int64_t *id)
{
	int64_t at = start;
	while (depth < 6 && at < end) {
		*seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
		int64_t len = (int64_t)((*seed >> 33) % (uint64_t)(end - at + 1)) / 2;
		int64_t from = (*seed >> 20) % 4 == 0 ? at : at + (int64_t)((*seed >> 10) % 5);
		if (from + len > end)
			break;
		add_nested(t, thread, name, from, from + len, depth + 1, seed, id);
		at = from + len + (int64_t)((*seed >> 50) % 3);
	}
	trace_add_api(t, (*id)++, start, end, name, TRACE_NONE, thread);
	return end;
}

static void test_order(void)
{
	struct trace t;
	trace_init(&t);
	uint32_t in = trace_add_input(&t, "o.rpd", INPUT_RPD, 2);
	uint32_t q = trace_queue(&t, trace_gpu(&t, in, 0), 0);
	uint32_t name = strtab_intern(&t.strings, "call");
	trace_add_op(&t, 1, 0, 10, name, name, q);
	uint64_t seed = 3;
	int64_t id = 1;
	/* Two threads of nested calls, one of them interleaved with a thread
	 * of calls recorded by start. */
	uint32_t a = trace_thread(&t, in, 1, 1), b = trace_thread(&t, in, 1, 2),
		 c = trace_thread(&t, in, 1, 3);
	for (int64_t top = 0; top < 20; top++) {
		add_nested(&t, a, name, top * 100000, top * 100000 + 90000, 0, &seed, &id);
		trace_add_api(&t, id++, top * 100000, top * 100000 + 5, name, TRACE_NONE, c);
	}
	add_nested(&t, b, name, 0, 2000000, 0, &seed, &id);
	trace_finish(&t);
	CHECK(t.apis.n > 1000);
	check_order(&t);
	trace_free(&t);
}

/* Whole numbers of ns are read exactly, epoch times too (past 2^53, where
 * a double would round them); units, offsets and shares as before. */
static void test_window_parse(void)
{
	struct window w;
	char msg[256];
	int64_t first = 1752825292661852962, last = 1752825292669412806;
	CHECK(window_parse("1752825292664120915:1752825292666388999", first, last, &w, msg, sizeof(msg)) ==
	      0);
	CHECK_INT(w.start, 1752825292664120915);
	CHECK_INT(w.end, 1752825292666388999);
	CHECK(window_parse("+1:+7559843", first, last, &w, msg, sizeof(msg)) == 0);
	CHECK_INT(w.start, first + 1);
	CHECK_INT(w.end, first + 7559843);
	CHECK(window_parse("+1us:+2.5us", first, last, &w, msg, sizeof(msg)) == 0);
	CHECK_INT(w.start, first + 1000);
	CHECK_INT(w.end, first + 2500);
	CHECK(window_parse("50%:", first, last, &w, msg, sizeof(msg)) == 0);
	CHECK_INT(w.start, first + (last - first) / 2);
	CHECK_INT(w.end, last);
	CHECK(window_parse("1:99999999999999999999", first, last, &w, msg, sizeof(msg)) == -1);
	CHECK(window_parse("-5:10", first, last, &w, msg, sizeof(msg)) == -1);
	/* Sides past the int64 range saturate, never wrap: a start there is
	 * after every end. */
	CHECK(window_parse("9220000000s:", first, last, &w, msg, sizeof(msg)) == -1);
	CHECK(strstr(msg, "ends before it starts") != NULL);
	CHECK(window_parse("1e300:", first, last, &w, msg, sizeof(msg)) == -1);
	CHECK(window_parse("+1e300:", first, last, &w, msg, sizeof(msg)) == -1);
	CHECK(window_parse("+1us:1e30s", first, last, &w, msg, sizeof(msg)) == 0);
	CHECK_INT(w.end, INT64_MAX);
	CHECK(window_parse("+1us:200%", first, last, &w, msg, sizeof(msg)) == 0);
	CHECK_INT(w.end, first + 2 * (last - first));
}

int main(void)
{
	test_window_parse();
	test_order();
	test_enclosing();
	char dir[] = "/tmp/rpdtop-unit.XXXXXX", a[512], b[512];
	CHECK(mkdtemp(dir) != NULL);
	snprintf(a, sizeof(a), "%s/a.rpd", dir);
	snprintf(b, sizeof(b), "%s/b.rpd", dir);
	write_trace(a, 5, 3000);
	write_trace(b, 6, 2000);
	test_rule(a);
	test_two(a, b);
	unlink(a);
	unlink(b);
	rmdir(dir);
	return check_done();
}
