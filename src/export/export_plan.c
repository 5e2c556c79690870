#include "config.h"
#include "export/export_plan.h"

#include "sqlfile/dbfile.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sqlfile/dbfile.h"
#include "sqlfile/pagescan.h"
#include "sqlfile/sqlrun.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* Columns of the rpd tables whose meaning rpdtop knows; files written
 * without foreign keys (rpdtop's own among them) rely on this list. */
static const struct {
	const char *table, *column;
	enum col_kind kind;
} known[] = {
	{ "rocpd_op", "id", K_OP_PK },
	{ "rocpd_op", "description_id", K_STR },
	{ "rocpd_op", "opType_id", K_STR },
	{ "rocpd_api", "id", K_API_PK },
	{ "rocpd_api", "apiName_id", K_STR },
	{ "rocpd_api", "category_id", K_STR },
	{ "rocpd_api", "domain_id", K_STR },
	{ "rocpd_api_ops", "api_id", K_API_REF },
	{ "rocpd_api_ops", "op_id", K_OP_REF },
	{ "rocpd_kernelapi", "api_ptr_id", K_API_REF },
	{ "rocpd_kernelapi", "kernelName_id", K_STR },
	{ "rocpd_kernelapi", "codeObject_id", K_CODE_REF },
	{ "rocpd_copyapi", "api_ptr_id", K_API_REF },
	{ "rocpd_barrierop", "op_ptr_id", K_OP_REF },
	{ "rocpd_op_inputSignals", "from_op_id", K_OP_REF },
	{ "rocpd_op_inputSignals", "to_op_id", K_OP_REF },
	{ "rocpd_kernelcodeobject", "id", K_CODE_PK },
	{ "rocpd_counter", "op_id", K_OP_REF },
	{ "rocpd_counter", "name_id", K_STR },
	{ "rocpd_stackframe", "api_ptr_id", K_API_REF },
	{ "rocpd_stackframe", "name_id", K_STR },
};

static enum col_kind known_kind(const char *table, const char *column, int *found)
{
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if (strcmp(known[i].table, table) == 0 && strcmp(known[i].column, column) == 0) {
			*found = 1;
			return known[i].kind;
		}
	}
	*found = 0;
	return K_COPY;
}

/* The kind a foreign key gives a column. A key that cannot be read fails
 * the export: taken for a plain column, its rows would all go. */
static int foreign_kind(struct exporter *x, sqlite3 *db, const char *path, const char *table,
			const char *column, enum col_kind *k)
{
	sqlite3_stmt *st;
	*k = K_COPY;
	char *sql = sqlite3_mprintf("SELECT \"table\", \"from\" FROM pragma_foreign_key_list(%Q)", table);
	int rc = sql_prepare_one(db, sql, &st, path, x->err);
	sqlite3_free(sql);
	if (rc)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *to = (const char *)sqlite3_column_text(st, 0);
		const char *from = (const char *)sqlite3_column_text(st, 1);
		if (!to || !from || strcmp(from, column) != 0)
			continue;
		if (strcmp(to, "rocpd_op") == 0)
			*k = K_OP_REF;
		else if (strcmp(to, "rocpd_api") == 0)
			*k = K_API_REF;
		else if (strcmp(to, "rocpd_string") == 0)
			*k = K_STR;
		else if (strcmp(to, "rocpd_ustring") == 0)
			*k = K_USTR;
		else if (strcmp(to, "rocpd_kernelcodeobject") == 0)
			*k = K_CODE_REF;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : export_fail(x, db, path);
}

static int plan_columns(struct exporter *x, sqlite3 *db, const char *path, struct table_plan *p, int version)
{
	sqlite3_stmt *st;
	/* Only a lone INTEGER PRIMARY KEY can be the rowid (a composite key is
	 * not), and only when it is stored as one ("PRIMARY KEY DESC" is not). */
	int alias = pagescan_rowid_alias(db, p->name);
	char *sql = sqlite3_mprintf(
		"SELECT name, pk, type, (SELECT count(*) FROM pragma_table_info(%Q) WHERE pk > 0) "
		"FROM pragma_table_info(%Q) ORDER BY cid",
		p->name, p->name);
	int rc = sql_prepare_one(db, sql, &st, path, x->err);
	sqlite3_free(sql);
	if (rc)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *col = (const char *)sqlite3_column_text(st, 0);
		const char *type = (const char *)sqlite3_column_text(st, 2);
		int found;
		enum col_kind k = known_kind(p->name, col ? col : "", &found);
		if (!found && strcmp(p->name, "rocpd_api") == 0 && col && strcmp(col, "args_id") == 0)
			k = version >= 3 ? K_USTR : K_STR;
		else if (!found && col && foreign_kind(x, db, path, p->name, col, &k))
			break;
		/* A table's own integer key, when it means nothing elsewhere. */
		int key = alias && sqlite3_column_int(st, 1) == 1 && sqlite3_column_int(st, 3) == 1 && type &&
			  strcasecmp(type, "integer") == 0;
		if (key)
			p->key = p->ncols;
		if (k == K_COPY && key)
			k = K_ROWID;
		p->kinds = xrealloc(p->kinds, (size_t)(p->ncols + 1) * sizeof(*p->kinds));
		p->kinds[p->ncols++] = k;
	}
	if (rc == SQLITE_ROW) {
		sqlite3_finalize(st);
		return -1; /* x->err says why */
	}
	if (rc != SQLITE_DONE)
		export_fail(x, db, path);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int prepare_insert(struct exporter *x, struct table_plan *p)
{
	sqlite3_str *s = sqlite3_str_new(x->out.db);
	sqlite3_str_appendf(s, "INSERT INTO main.\"%w\" VALUES (", p->name);
	for (int c = 0; c < p->ncols; c++)
		sqlite3_str_appendall(s, c ? ",?" : "?");
	sqlite3_str_appendall(s, ")");
	char *sql = sqlite3_str_finish(s);
	int rc = export_prepare(x, sql, &p->insert);
	sqlite3_free(sql);
	return rc;
}

/* Tables copied first, so that the ids others point at are known. */
static int order_of(const char *name)
{
	if (strcmp(name, "rocpd_op") == 0)
		return 0;
	if (strcmp(name, "rocpd_api") == 0)
		return 1;
	if (strcmp(name, "rocpd_kernelcodeobject") == 0)
		return 2;
	return 3;
}

static int by_order(const void *a, const void *b)
{
	return order_of(((const struct table_plan *)a)->name) -
	       order_of(((const struct table_plan *)b)->name);
}

static int schema_version(sqlite3 *db)
{
	sqlite3_stmt *st;
	int v = 2;
	if (sqlite3_prepare_v2(db, "SELECT value FROM rocpd_metadata WHERE tag = 'schema_version'", -1, &st,
			       NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

const char *export_input_path(const struct exporter *x)
{
	return x->req->t->inputs[0].path;
}

int export_fail(struct exporter *x, sqlite3 *db, const char *path)
{
	/* The output is ours alone (locked exclusively) and new: a lock met
	 * or damage found on its connection is the attached input's. */
	int code = sqlite3_errcode(db) & 0xff;
	if (db == x->out.db && !x->several && !x->guard.refused[0] &&
	    (code == SQLITE_BUSY || code == SQLITE_LOCKED || code == SQLITE_CORRUPT))
		return dbfile_error(db, code, export_input_path(x), x->err);
	if (x->guard.refused[0])
		return err_set(x->err, _("%s: %s (refused: %s)"), path, sqlite3_errmsg(db), x->guard.refused);
	return err_set(x->err, "%s: %s", path, sqlite3_errmsg(db));
}

int export_prepare(struct exporter *x, const char *sql, sqlite3_stmt **st)
{
	const char *why;
	if (sql_prepare_checked(x->out.db, sql, st, &why) == 0)
		return 0;
	if (x->guard.refused[0])
		return err_set(x->err, _("%s: %s (refused: %s)"), x->req->path, why, x->guard.refused);
	return err_set(x->err, "%s: %s", x->req->path, why);
}

int export_runf(struct exporter *x, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *sql = sqlite3_vmprintf(fmt, ap);
	va_end(ap);
	sqlite3_stmt *st;
	int rc = export_prepare(x, sql, &st);
	sqlite3_free(sql);
	if (rc)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		;
	if (rc != SQLITE_DONE)
		export_fail(x, x->out.db, x->req->path);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int export_replay(struct exporter *x, const struct schema_obj *o, const char *path)
{
	if (strcmp(o->type, "table") != 0) {
		schema_list_add(&x->late, o);
		return 0;
	}
	return sqlguard_replay(&x->guard, x->out.db, o, path, x->err);
}

int export_replay_schema(struct exporter *x, struct schema_list *tables)
{
	const char *path = export_input_path(x);
	struct schema_list schema;
	if (tables)
		memset(tables, 0, sizeof(*tables));
	if (schema_list_read(x->out.db, "src", &schema) != SQLITE_OK)
		return export_fail(x, x->out.db, path);
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < schema.n; i++) {
		rc = export_replay(x, &schema.v[i], path);
		if (rc == 0 && tables && strcmp(schema.v[i].type, "table") == 0)
			schema_list_add(tables, &schema.v[i]);
	}
	schema_list_free(&schema);
	return rc;
}

/* Views and indexes in the order the input made them, triggers after
 * them: all once every row is written, so that no trigger of the input
 * fires on the export's own writes (triggers are off on the output's
 * connection as well, and its guard refuses what one would do). A
 * trigger's statements are bound to the output's main schema by SQLite
 * itself; one made TEMP, or written to do more than create itself, is
 * refused with the export. */
int export_replay_late(struct exporter *x)
{
	const char *path = export_input_path(x);
	for (int triggers = 0; triggers < 2; triggers++) {
		for (size_t i = 0; i < x->late.n; i++) {
			const struct schema_obj *o = &x->late.v[i];
			if ((strcmp(o->type, "trigger") == 0) != triggers)
				continue;
			if (sqlguard_replay(&x->guard, x->out.db, o, path, x->err))
				return -1;
		}
	}
	return 0;
}

static int create_table(struct exporter *x, const struct schema_obj *o, sqlite3 *first, const char *path,
			int version)
{
	if (export_replay(x, o, path))
		return -1;
	/* Written as they are used, not copied. */
	if (strcmp(o->name, "rocpd_string") == 0 || strcmp(o->name, "rocpd_ustring") == 0)
		return 0;
	x->plans = xrealloc_array(x->plans, x->nplans + 1, sizeof(*x->plans));
	struct table_plan *p = &x->plans[x->nplans++];
	memset(p, 0, sizeof(*p));
	p->name = xstrdup(o->name);
	p->key = -1;
	if (strcmp(o->name, "rocpd_monitor") == 0) {
		/* Samples that overlap the exported span. */
		p->where = " WHERE start < ?1 AND end > ?2";
		p->bind_span = 1;
	}
	p->first_input_only =
		strcmp(o->name, "rocpd_metadata") == 0 || strcmp(o->name, "rocpd_kernelcodeobject") == 0;
	return plan_columns(x, first, path, p, version) || prepare_insert(x, p);
}

int export_plan(struct exporter *x, sqlite3 *first, const char *path)
{
	int version = schema_version(first);
	struct schema_list schema;
	if (schema_list_read(first, "main", &schema) != SQLITE_OK)
		return err_set(x->err, "%s: %s", path, sqlite3_errmsg(first));
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < schema.n; i++) {
		const struct schema_obj *o = &schema.v[i];
		rc = strcmp(o->type, "table") == 0 ? create_table(x, o, first, path, version)
						   : export_replay(x, o, path);
	}
	schema_list_free(&schema);
	qsort(x->plans, x->nplans, sizeof(*x->plans), by_order);
	if (rc == 0 && sqlite3_prepare_v2(x->out.db, "INSERT INTO rocpd_string (id, string) VALUES (?1, ?2)",
					  -1, &x->insert_string, NULL) != SQLITE_OK)
		rc = err_set(x->err, _("%s: not an rpd trace (no rocpd_string table)"), path);
	if (rc == 0 && version >= 3 &&
	    sqlite3_prepare_v2(x->out.db, "INSERT INTO rocpd_ustring (id, string) VALUES (?1, ?2)", -1,
			       &x->insert_ustring, NULL) != SQLITE_OK)
		rc = export_fail(x, x->out.db, x->req->path);
	return rc;
}

void export_plan_finalize(struct exporter *x)
{
	for (size_t i = 0; i < x->nplans; i++) {
		sqlite3_finalize(x->plans[i].insert);
		x->plans[i].insert = NULL;
	}
	sqlite3_finalize(x->insert_string);
	sqlite3_finalize(x->insert_ustring);
	sqlite3_finalize(x->insert_code);
	x->insert_string = x->insert_ustring = x->insert_code = NULL;
}

void export_plan_free(struct exporter *x)
{
	for (size_t i = 0; i < x->nplans; i++) {
		sqlite3_finalize(x->plans[i].insert);
		free(x->plans[i].name);
		free(x->plans[i].kinds);
	}
	free(x->plans);
	schema_list_free(&x->late);
	sqlite3_finalize(x->insert_string);
	sqlite3_finalize(x->insert_ustring);
	sqlite3_finalize(x->insert_code);
	x->plans = NULL;
	x->nplans = 0;
	x->insert_string = x->insert_ustring = x->insert_code = NULL;
}

int export_string(struct exporter *x, int ustring, const char *s, size_t len, int64_t *out)
{
	struct strtab *tab = ustring ? &x->ustrings : &x->strings;
	uint32_t before = tab->count;
	uint32_t id = strtab_intern_len(tab, s, len);
	*out = (int64_t)id + 1;
	/* "" is interned from the start: write it when first used, like the rest. */
	int fresh = id >= before ||
		    (id == 0 && !(ustring ? x->ustrings_empty_written : x->strings_empty_written));
	if (!fresh)
		return 0;
	if (id == 0) {
		if (ustring)
			x->ustrings_empty_written = 1;
		else
			x->strings_empty_written = 1;
	}
	sqlite3_stmt *st = ustring ? x->insert_ustring : x->insert_string;
	sqlite3_bind_int64(st, 1, *out);
	sqlite3_bind_text(st, 2, s, (int)len, SQLITE_TRANSIENT);
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : err_set(x->err, "%s: %s", x->req->path, sqlite3_errmsg(x->out.db));
}

int export_code_object(struct exporter *x, struct idmap *map, int64_t id, int64_t *out)
{
	/* The inputs' code objects were copied with the first input; an id
	 * no row has (the real traces reference 0 in an empty table) gets a
	 * row of zeros so that the export's foreign keys all hold. */
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(x->out.db, "SELECT 1 FROM main.rocpd_kernelcodeobject WHERE id = ?1", -1, &st,
			       NULL) != SQLITE_OK)
		return export_fail(x, x->out.db, x->req->path);
	sqlite3_bind_int64(st, 1, id);
	int found = sqlite3_step(st);
	sqlite3_finalize(st);
	if (found != SQLITE_ROW && found != SQLITE_DONE)
		return export_fail(x, x->out.db, x->req->path);
	if (found == SQLITE_DONE) {
		if (!x->insert_code && sqlite3_prepare_v2(x->out.db,
							  "INSERT INTO main.rocpd_kernelcodeobject (id, "
							  "vgpr, sgpr, fbar) VALUES (?1, 0, 0, 0)",
							  -1, &x->insert_code, NULL) != SQLITE_OK)
			return export_fail(x, x->out.db, x->req->path);
		sqlite3_bind_int64(x->insert_code, 1, id);
		int rc = sqlite3_step(x->insert_code);
		sqlite3_reset(x->insert_code);
		if (rc != SQLITE_DONE)
			return export_fail(x, x->out.db, x->req->path);
		x->repaired++;
	}
	idmap_put(map, (uint64_t)id, (uint32_t)id);
	*out = id;
	return 0;
}
