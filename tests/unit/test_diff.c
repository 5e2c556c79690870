/* The diff of two runs at its edges: a change of exactly the tolerance is
 * the same, a growth of exactly the gate does not trip it, a name of
 * exactly 1 % of the time is not gated, a name added is gated by its share
 * of the new run; rows by |delta|, then name; the warnings' thresholds. */
#include "config.h"

#include "analysis/diff.h"
#include "check.h"

/* A run of names (sorted by name, as diff_run_build gives them). */
static struct diff_run run(struct diff_name *names, size_t n)
{
	struct diff_run r = { .names = names, .n = n };
	for (size_t i = 0; i < n; i++) {
		r.ops += names[i].calls;
		r.total += names[i].total;
	}
	return r;
}

static const struct diff_row *row(const struct diff *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->rows[i].name, name) == 0)
			return &d->rows[i];
	return NULL;
}

static void test_status(void)
{
	struct diff_name b[] = { { "a", 1, 1000, 10 },
				 { "b", 1, 1000, 10 },
				 { "c", 1, 1000, 10 },
				 { "d", 1, 1000, 10 },
				 { "gone", 2, 50, 25 } };
	struct diff_name n[] = { { "a", 1, 1020, 10 },
				 { "b", 1, 1021, 10 },
				 { "c", 1, 979, 10 },
				 { "d", 1, 980, 10 },
				 { "new", 3, 40, 13 } };
	struct diff_run rb = run(b, 5), rn = run(n, 5);
	struct diff d;
	diff_runs(&rb, &rn, 2.0, -1, &d);
	CHECK_INT(d.n, 6);
	CHECK_INT(d.common, 4);
	CHECK_INT(row(&d, "a")->status, DIFF_SAME); /* exactly 2 % */
	CHECK_INT(row(&d, "b")->status, DIFF_SLOWER);
	CHECK_INT(row(&d, "c")->status, DIFF_FASTER);
	CHECK_INT(row(&d, "d")->status, DIFF_SAME);
	CHECK_INT(row(&d, "gone")->status, DIFF_REMOVED);
	CHECK_INT(row(&d, "new")->status, DIFF_ADDED);
	CHECK(!row(&d, "new")->has_percent);
	CHECK_INT(row(&d, "gone")->delta_percent, -100);
	CHECK_INT(d.ntripped, 0); /* no gate */
	/* |delta| descending, then by name: gone (50), new (40), b (21), c (21), a (20), d (20). */
	const char *order[] = { "gone", "new", "b", "c", "a", "d" };
	for (size_t i = 0; i < 6; i++)
		CHECK_STR(d.rows[i].name, order[i]);
	CHECK_STR(d.total.name, "*total*");
	CHECK_INT(d.total.base_calls, 6);
	CHECK_INT(d.total.new_calls, 7);
	CHECK_INT(d.total.delta, -10);
	diff_free(&d);
}

static void test_gate(void)
{
	/* Totals 10000 and 10500: exactly 5 % more. */
	struct diff_name b[] = {
		{ "big", 1, 9800, 1 }, { "one", 1, 100, 1 }, { "small", 1, 99, 1 }, { "x", 1, 1, 1 }
	};
	struct diff_name n[] = { { "big", 1, 10290, 1 }, /* +5 %: not more */
				 { "one", 1, 105, 1 },   /* +5 %, exactly 1 % of either run */
				 { "small", 1, 104, 1 }, /* +5.05 %, under 1 % of both */
				 { "x", 1, 1, 1 } };
	struct diff_run rb = run(b, 4), rn = run(n, 4);
	struct diff d;
	CHECK_INT(rb.total, 10000);
	CHECK_INT(rn.total, 10500);
	diff_runs(&rb, &rn, 2.0, 5.0, &d);
	CHECK_INT(d.ntripped, 0);
	CHECK(!d.total.gated);
	diff_free(&d);
	diff_runs(&rb, &rn, 2.0, 4.99, &d);
	CHECK(d.total.gated);
	CHECK(row(&d, "big")->gated);
	CHECK(!row(&d, "one")->gated);   /* 1 % is not more than 1 % */
	CHECK(!row(&d, "small")->gated); /* under 1 % */
	CHECK_INT(d.ntripped, 2);
	diff_free(&d);

	/* A name added: more than 1 % of the new run trips the gate. */
	struct diff_name n2[] = { { "big", 1, 9800, 1 },
				  { "fresh", 1, 150, 1 },
				  { "one", 1, 100, 1 },
				  { "small", 1, 99, 1 },
				  { "x", 1, 1, 1 } };
	struct diff_run rn2 = run(n2, 5);
	diff_runs(&rb, &rn2, 2.0, 5.0, &d);
	CHECK(row(&d, "fresh")->gated);
	CHECK(!d.total.gated); /* +1.5 % */
	CHECK_INT(d.ntripped, 1);
	diff_free(&d);
	n2[1].total = 100; /* 100 of 10100: under 1 % */
	rn2 = run(n2, 5);
	diff_runs(&rb, &rn2, 2.0, 5.0, &d);
	CHECK(!row(&d, "fresh")->gated);
	diff_free(&d);
}

static void test_warnings(void)
{
	struct diff_name b[] = { { "a", 10, 10, 1 } };
	struct diff_name n[] = { { "a", 20, 10, 1 } };
	struct diff_name other[] = { { "z", 21, 10, 1 } };
	struct diff_run rb = run(b, 1), rn = run(n, 1), ro = run(other, 1);
	struct diff d;
	diff_runs(&rb, &rn, 2.0, -1, &d);
	CHECK_INT(diff_warnings(&d, 2, 2), 0); /* twice the ops is not more */
	CHECK_INT(diff_warnings(&d, 2, 4), DIFF_WARN_GPUS);
	diff_free(&d);
	diff_runs(&rb, &ro, 2.0, -1, &d);
	CHECK_INT(diff_warnings(&d, 1, 1), DIFF_WARN_NO_COMMON | DIFF_WARN_OPS);
	diff_free(&d);
	struct diff_run empty = { 0 };
	diff_runs(&empty, &empty, 2.0, 5.0, &d);
	CHECK_INT(diff_warnings(&d, 1, 1), 0); /* nothing to compare is not "nothing in common" */
	CHECK_INT(d.n, 0);
	CHECK_INT(d.total.status, DIFF_SAME);
	CHECK(!d.total.gated);
	diff_free(&d);
}

int main(void)
{
	test_status();
	test_gate();
	test_warnings();
	return check_done();
}
