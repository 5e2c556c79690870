#include "config.h"
#include "load/rpd_extras.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "load/rpd_reader.h"
#include "sqlfile/sqlread.h"
#include "util/xalloc.h"

struct extras {
	struct trace *t;
	uint32_t input;
};

/* The unit of a monitor type rpd's tracer records (rocm-smi's clocks in
 * MHz, power in W); others are shown without one. */
static const char *monitor_unit(const char *type)
{
	static const char *const clocks[] = { "sclk", "mclk", "fclk", "socclk", "dcefclk" };
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if (strcmp(type, clocks[i]) == 0)
			return "MHz";
	return strcmp(type, "power") == 0 ? "W" : NULL;
}

/* A value as stored: rpd keeps it as text ("1615"); text that is not a
 * whole number is no sample. */
static int column_number(sqlite3_stmt *st, int col, double *v)
{
	int type = sqlite3_column_type(st, col);
	if (type == SQLITE_INTEGER || type == SQLITE_FLOAT) {
		*v = sqlite3_column_double(st, col);
		return isfinite(*v);
	}
	const char *s = (const char *)sqlite3_column_text(st, col);
	char *end = NULL;
	if (!s || !*s)
		return 0;
	*v = strtod(s, &end);
	while (end && (*end == ' ' || *end == '\t'))
		end++;
	return end && end != s && *end == '\0' && isfinite(*v);
}

/* deviceId, monitorType, start, end, value */
static int monitor_row(void *ctx, sqlite3_stmt *st)
{
	struct extras *x = ctx;
	const char *type = (const char *)sqlite3_column_text(st, 1);
	double v;
	if (!type || !*type || !column_number(st, 4, &v))
		return 0;
	const char *unit = monitor_unit(type);
	uint32_t name = strtab_intern(&x->t->strings, type);
	uint32_t s = trace_counter_series(x->t, x->input, sqlite3_column_int64(st, 0), name,
					  unit ? strtab_intern(&x->t->strings, unit) : TRACE_NONE,
					  COUNTER_MONITOR);
	trace_add_counter(x->t, s, sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3), v);
	return 0;
}

void rpd_read_monitor(struct trace *t, sqlite3 *db, uint32_t input)
{
	struct extras x = { t, input };
	size_t n = t->counters.n, nseries = t->counters.nseries;
	char *sql = sqlite3_mprintf("SELECT deviceId, monitorType, start, end, value FROM %Q "
				    "WHERE lower(deviceType) = 'gpu' ORDER BY id",
				    "rocpd_monitor");
	if (sql_each_optional(db, sql, monitor_row, &x)) {
		/* A table not as expected: none of its rows. */
		t->counters.n = n;
		t->counters.nseries = nseries;
	}
}

/* An address as recorded; a null one ("0x0") says nothing. */
static uint32_t text_id(struct trace *t, sqlite3_stmt *st, int col)
{
	const char *s = (const char *)sqlite3_column_text(st, col);
	if (!s || !*s || strcmp(s, "0x0") == 0 || strcmp(s, "0") == 0)
		return TRACE_NONE;
	return strtab_intern(&t->strings, s);
}

/* The copy op a call launched, by the call's row: from the links read
 * just before (a join with rocpd_api_ops in SQL scanned every link of the
 * file and searched rocpd_copyapi for each: seconds at 10M ops). */
struct copy_map {
	struct trace *t;
	size_t api_base, api_end;
	uint32_t *op_of; /* per API row of this input, TRACE_NONE: none */
};

/* api_ptr_id, size, src, dst */
static int copy_row(void *ctx, sqlite3_stmt *st)
{
	struct copy_map *m = ctx;
	uint32_t api = trace_api_find(m->t, m->api_base, m->api_end, sqlite3_column_int64(st, 0));
	uint32_t op = api == TRACE_NONE ? TRACE_NONE : m->op_of[api - m->api_base];
	if (op != TRACE_NONE && sqlite3_column_type(st, 1) == SQLITE_INTEGER)
		trace_add_copy(m->t, op, sqlite3_column_int64(st, 1), text_id(m->t, st, 2),
			       text_id(m->t, st, 3));
	return 0;
}

void rpd_read_copies(struct trace *t, sqlite3 *db, size_t api_base, size_t link_first)
{
	struct copy_map m = { t, api_base, t->apis.n, NULL };
	if (m.api_end <= api_base || link_first >= t->links.n)
		return;
	m.op_of = xmalloc_array(m.api_end - api_base, sizeof(*m.op_of));
	memset(m.op_of, 0xff, (m.api_end - api_base) * sizeof(*m.op_of));
	/* A call that launched several ops: its first. */
	for (size_t i = t->links.n; i-- > link_first;)
		if (t->links.api[i] >= api_base && t->links.api[i] < m.api_end)
			m.op_of[t->links.api[i] - api_base] = t->links.op[i];
	size_t n = t->copies.n;
	char *sql = sqlite3_mprintf("SELECT api_ptr_id, size, src, dst FROM %Q", "rocpd_copyapi");
	if (sql_each_optional(db, sql, copy_row, &m))
		t->copies.n = n;
	free(m.op_of);
}
