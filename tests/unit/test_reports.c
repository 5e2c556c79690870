/* The report registry: every entry has a name of its own, its columns, a
 * way to make its table, and says how it merges node group by node group
 * (or that it does not: never left unsaid); the names in words are the
 * registry's, in its order. */
#include "config.h"
#include "present/report.h"
#include "present/table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void check_entry(size_t i, const struct report_def *r)
{
	CHECK(r->name && *r->name);
	CHECK(report_find(r->name) == r);
	CHECK_INT(report_index(r), i);
	CHECK(r->cols && r->ncols > 0);
	CHECK(report_col(r, r->cols[0].key) == &r->cols[0]);
	CHECK(report_col(r, "no such column") == NULL);
	/* build, or start with finish and drop: one or the other. */
	CHECK(!r->build != !r->start);
	CHECK(!r->start == !r->finish && !r->start == !r->drop);
	CHECK(r->merge != NULL);
	if (r->merge && r->merge != &report_whole_load) {
		const struct report_merge *m = r->merge;
		CHECK(m->part_new && m->part_add && m->part_encode && m->part_merge && m->part_table &&
		      m->part_free);
	}
	/* The bytes of a partial result name their report in one byte. */
	CHECK(i < 256);
}

static void test_entries(void)
{
	CHECK(report_count() >= 14);
	for (size_t i = 0; i < report_count(); i++) {
		check_entry(i, report_at(i));
		for (size_t k = 0; k < i; k++)
			CHECK(strcmp(report_at(k)->name, report_at(i)->name) != 0);
	}
	CHECK(report_at(report_count()) == NULL);
	CHECK(report_find("flame") == NULL);
	CHECK(report_find("top") == &report_top);
}

static void test_list(void)
{
	char list[1024], want[1024] = "";
	size_t n = report_count();
	for (size_t i = 0; i < n; i++) {
		strcat(want, report_at(i)->name);
		strcat(want, i + 2 < n ? ", " : i + 2 == n ? " or " : "");
	}
	report_list(list, sizeof(list), 0);
	CHECK_STR(list, want);
	/* With each one's help: every name, in order, at its place. */
	report_list(list, sizeof(list), 1);
	const char *at = list;
	for (size_t i = 0; i < n && at; i++) {
		at = strstr(at, report_at(i)->name);
		CHECK(at != NULL);
	}
	CHECK(strstr(list, "top (GPU ops by name), ktop (kernels by name)") == list);
	/* Cut short, never past the buffer. */
	report_list(list, 10, 1);
	CHECK_INT(strlen(list), 9);
}

/* What a writer puts out for one value, as a string. */
static const char *written(void (*put)(const char *, FILE *), const char *s)
{
	static char out[256];
	FILE *f = fmemopen(out, sizeof(out), "w");
	CHECK(f != NULL);
	if (f) {
		put(s, f);
		fclose(f);
	}
	return out;
}

static void put_int(const char *s, FILE *f)
{
	table_put_int64(strtoll(s, NULL, 10), f);
}

/* The writers of many cells: integers as printf writes them, JSON strings
 * escaped (a run of plain ASCII at a time, the rest by character). */
static void test_writers(void)
{
	CHECK_STR(written(put_int, "0"), "0");
	CHECK_STR(written(put_int, "-1"), "-1");
	CHECK_STR(written(put_int, "1234567890"), "1234567890");
	CHECK_STR(written(put_int, "9223372036854775807"), "9223372036854775807");
	CHECK_STR(written(put_int, "-9223372036854775808"), "-9223372036854775808");
	char small[4];
	CHECK_STR(table_format_int64(12345, small, sizeof(small)), "123"); /* cut as snprintf cuts */
	CHECK_STR(table_format_int64(-7, small, sizeof(small)), "-7");
	CHECK_STR(table_format_int64(999, small, sizeof(small)), "999");
	CHECK_STR(written(table_write_json_string, ""), "\"\"");
	CHECK_STR(written(table_write_json_string, "plain name<T>(int)"), "\"plain name<T>(int)\"");
	CHECK_STR(written(table_write_json_string, "a\"b\\c"), "\"a\\\"b\\\\c\"");
	CHECK_STR(written(table_write_json_string, "tab\there\x7f"), "\"tab\\u0009here\\u007f\"");
	CHECK_STR(written(table_write_json_string, "gr\xc3\xbc\xc3\x9f \xc2\x9b \xff!"),
		  "\"gr\xc3\xbc\xc3\x9f \\u009b \\ufffd!\"");
}

int main(void)
{
	test_entries();
	test_list();
	test_writers();
	return check_done();
}
