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

/* The ops and API calls the selection should hold, in SQL: names as
 * shown (a marker's text), caseless substring for a lower-case pattern,
 * events starting in [lo, hi), and the launches of the ops kept. */
static void oracle(const char *path, const char *word, int64_t lo, int64_t hi, int64_t *ops, int64_t *apis)
{
	sqlite3 *db;
	CHECK(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
	char *kept = sqlite3_mprintf(
		"SELECT o.id FROM rocpd_op o JOIN rocpd_string d ON d.id = o.description_id "
		"JOIN rocpd_string t ON t.id = o.opType_id WHERE (CASE WHEN d.string = '' THEN t.string "
		"ELSE d.string END) LIKE '%%%q%%' AND o.start >= %lld AND o.start < %lld",
		word, (long long)lo, (long long)hi);
	char *sql = sqlite3_mprintf("SELECT count(*) FROM (%s)", kept);
	*ops = scalar(db, sql);
	sqlite3_free(sql);
	sql = sqlite3_mprintf("SELECT count(*) FROM rocpd_api a JOIN rocpd_string n ON n.id = a.apiName_id "
			      "JOIN rocpd_string g ON g.id = a.args_id WHERE ((CASE WHEN n.string = "
			      "'UserMarker' THEN g.string "
			      "ELSE n.string END) LIKE '%%%q%%' AND a.start >= %lld AND a.start < %lld) "
			      "OR a.id IN (SELECT api_id FROM rocpd_api_ops WHERE op_id IN (%s))",
			      word, (long long)lo, (long long)hi, kept);
	*apis = scalar(db, sql);
	sqlite3_free(sql);
	sqlite3_free(kept);
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
	struct session s;
	struct rpd_error err;
	char msg[256];
	const char *paths[] = { path };
	struct session_options o = { .paths = paths, .npaths = 1, .op_ids = 1, .apis = 1 };
	CHECK(session_open(&s, &o, &err) == 0);
	const struct trace *t = session_trace(&s);
	CHECK_INT(session_sel(&s)->nops, t->ops.n);
	CHECK(!session_filtered(&s));
	unsigned gen = s.generation;

	/* Changes wait for the refresh, which remakes the selection once. */
	CHECK(session_set_filter(&s, (const char *const[]){ "at" }, 1, msg, sizeof(msg)) == 0);
	CHECK(session_set_window(&s, "10%:60%", msg, sizeof(msg)) == 0);
	CHECK_INT(s.generation, gen);
	CHECK_INT(session_sel(&s)->nops, t->ops.n);
	CHECK_INT(session_refresh(&s), 1);
	CHECK_INT(s.generation, gen + 1);
	CHECK_INT(session_refresh(&s), 0);
	CHECK_INT(s.generation, gen + 1);

	int64_t span = t->op_last_end - t->op_first_start, ops, apis;
	oracle(path, "at", t->op_first_start + (int64_t)llround((double)span * 0.1),
	       t->op_first_start + (int64_t)llround((double)span * 0.6), &ops, &apis);
	CHECK(ops > 0);
	CHECK_INT(session_sel(&s)->nops, ops);
	CHECK_INT(session_sel(&s)->napis, apis);

	/* A bad pattern leaves the filter as it was. */
	CHECK(session_add_filter(&s, "(", msg, sizeof(msg)) == -1);
	CHECK(strstr(msg, "invalid pattern") != NULL);
	CHECK_INT(s.filter.n, 1);
	CHECK(session_set_window(&s, "9:1", msg, sizeof(msg)) == -1);
	CHECK(session_window(&s)->active);
	char f[128], w[128];
	session_describe(&s, f, sizeof(f), w, sizeof(w));
	CHECK_STR(f, "/at/");
	CHECK(w[0] == '+');

	/* No filter, no window: everything, API calls too. */
	CHECK_INT(session_pop_filter(&s), 1);
	session_clear_window(&s);
	session_refresh(&s);
	CHECK_INT(session_sel(&s)->nops, t->ops.n);
	CHECK_INT(session_sel(&s)->napis, t->apis.n);
	CHECK(session_first_op_named(&s, t->ops.name[5]) <= 5);
	session_close(&s);
}

/* Two traces: one filter for both, a window given as a share of each
 * one's own span, and a window of the first's clock moved onto the
 * second by its offset from the start. */
static void test_two(const char *a, const char *b)
{
	struct session s;
	struct rpd_error err;
	char msg[256];
	struct session_options o = { .paths = (const char *const[]){ a }, .npaths = 1 };
	CHECK(session_open(&s, &o, &err) == 0);
	o.paths = (const char *const[]){ b };
	CHECK(session_add_trace(&s, &o, &err) == 0);
	CHECK_INT(s.ntraces, 2);
	CHECK(session_add_trace(&s, &o, &err) == -1);
	const struct trace *t0 = session_trace_at(&s, 0), *t1 = session_trace_at(&s, 1);
	CHECK(t0->ops.n != t1->ops.n);
	CHECK(session_set_window(&s, "0%:50%", msg, sizeof(msg)) == 0);
	session_refresh(&s);
	const struct window *w1 = &s.views[1].window;
	CHECK(w1->active);
	CHECK_INT(w1->start, t1->op_first_start);
	CHECK_INT(w1->end, t1->op_first_start + (t1->op_last_end - t1->op_first_start + 1) / 2);
	session_set_window_ns(&s, t0->op_first_start + 1000, t0->op_first_start + 5000000);
	session_refresh(&s);
	CHECK_INT(w1->start, t1->op_first_start + 1000);
	CHECK_INT(w1->end, t1->op_first_start + 5000000);
	size_t in_window = 0;
	for (size_t i = 0; i < t1->ops.n; i++)
		in_window += t1->ops.start[i] >= w1->start && t1->ops.start[i] < w1->end;
	CHECK_INT(session_sel_at(&s, 1)->nops, in_window);
	session_close(&s);
}

int main(void)
{
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
