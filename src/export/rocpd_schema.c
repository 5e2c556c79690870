#include "config.h"
#include "export/rocpd_schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* The tables of one process, with the columns, constraints and meanings
 * rocprofv3 (schema "3") gives them, so that its tools, its views and
 * queries written for its files work on ours. {uuid} is the table suffix,
 * {guid} the process's guid: rows take it from the column's default, as
 * rocprofv3's do. JSON defaults are written "{}" as there (SQLite keeps
 * the text of a default, and tools that compare table signatures see it). */
#define ID "id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "
#define GUID "guid TEXT DEFAULT \"{guid}\" NOT NULL, "
#define JSON(col) col " JSONB DEFAULT \"{}\" NOT NULL"
#define REF(col, table) ", FOREIGN KEY (" col ") REFERENCES \"" table "{uuid}\" (id) ON UPDATE CASCADE"
#define NODE_PROCESS REF("nid", "rocpd_info_node") REF("pid", "rocpd_info_process")

static const char *const table_sql[] = {
	"CREATE TABLE \"rocpd_metadata{uuid}\" (" ID "tag TEXT NOT NULL, value TEXT NOT NULL)",
	"CREATE TABLE \"rocpd_string{uuid}\" (" ID GUID "string TEXT NOT NULL UNIQUE ON CONFLICT ABORT)",
	"CREATE TABLE \"rocpd_info_node{uuid}\" (" ID GUID "hash BIGINT NOT NULL UNIQUE, "
	"machine_id TEXT NOT NULL UNIQUE, system_name TEXT, hostname TEXT, release TEXT, version TEXT, "
	"hardware_name TEXT, domain_name TEXT)",
	"CREATE TABLE \"rocpd_info_process{uuid}\" (" ID GUID "nid INTEGER NOT NULL, ppid INTEGER, "
	"pid INTEGER NOT NULL, init BIGINT, fini BIGINT, start BIGINT, end BIGINT, command TEXT, " JSON(
		"environment") ", " JSON("extdata") REF("nid", "rocpd_info_node") ")",
	"CREATE TABLE \"rocpd_info_thread{uuid}\" (" ID GUID "nid INTEGER NOT NULL, ppid INTEGER, "
	"pid INTEGER NOT NULL, tid INTEGER NOT NULL, name TEXT, start BIGINT, end BIGINT, " JSON("extdata")
		NODE_PROCESS ")",
	"CREATE TABLE \"rocpd_info_agent{uuid}\" (" ID GUID "nid INTEGER NOT NULL, pid INTEGER NOT NULL, "
	"type TEXT CHECK (type IN ('CPU', 'GPU')), absolute_index INTEGER, logical_index INTEGER, "
	"type_index INTEGER, uuid INTEGER, name TEXT, model_name TEXT, vendor_name TEXT, product_name TEXT, "
	"user_name TEXT, " JSON("extdata") NODE_PROCESS ")",
	"CREATE TABLE \"rocpd_info_queue{uuid}\" (" ID GUID "nid INTEGER NOT NULL, pid INTEGER NOT NULL, "
	"name TEXT, " JSON("extdata") NODE_PROCESS ")",
	"CREATE TABLE \"rocpd_info_stream{uuid}\" (" ID GUID "nid INTEGER NOT NULL, pid INTEGER NOT NULL, "
	"name TEXT, " JSON("extdata") NODE_PROCESS ")",
	"CREATE TABLE \"rocpd_info_pmc{uuid}\" (" ID GUID "nid INTEGER NOT NULL, pid INTEGER NOT NULL, "
	"agent_id INTEGER, target_arch TEXT CHECK (target_arch IN ('CPU', 'GPU')), event_code INT, "
	"instance_id INTEGER, name TEXT NOT NULL, symbol TEXT NOT NULL, description TEXT, "
	"long_description TEXT DEFAULT \"\", component TEXT, units TEXT DEFAULT \"\", "
	"value_type TEXT CHECK (value_type IN ('ABS', 'ACCUM', 'RELATIVE')), block TEXT, expression TEXT, "
	"is_constant INTEGER, is_derived INTEGER, " JSON("extdata")
		NODE_PROCESS REF("agent_id", "rocpd_info_agent") ")",
	"CREATE TABLE \"rocpd_info_code_object{uuid}\" (" ID GUID "nid INTEGER NOT NULL, "
	"pid INTEGER NOT NULL, agent_id INTEGER, uri TEXT, load_base BIGINT, load_size BIGINT, "
	"load_delta BIGINT, storage_type TEXT CHECK (storage_type IN ('FILE', 'MEMORY')), " JSON("extdata")
		NODE_PROCESS REF("agent_id", "rocpd_info_agent") ")",
	"CREATE TABLE \"rocpd_info_kernel_symbol{uuid}\" (" ID GUID "nid INTEGER NOT NULL, "
	"pid INTEGER NOT NULL, code_object_id INTEGER NOT NULL, kernel_name TEXT, display_name TEXT, "
	"kernel_object INTEGER, kernarg_segment_size INTEGER, kernarg_segment_alignment INTEGER, "
	"group_segment_size INTEGER, private_segment_size INTEGER, sgpr_count INTEGER, "
	"arch_vgpr_count INTEGER, accum_vgpr_count INTEGER, " JSON("extdata")
		NODE_PROCESS REF("code_object_id", "rocpd_info_code_object") ")",
	"CREATE TABLE \"rocpd_track{uuid}\" (" ID GUID "nid INTEGER NOT NULL, pid INTEGER, tid INTEGER, "
	"name_id INTEGER, " JSON("extdata") NODE_PROCESS REF("tid", "rocpd_info_thread")
		REF("name_id", "rocpd_string") ")",
	"CREATE TABLE \"rocpd_event{uuid}\" (" ID GUID "category_id INTEGER, stack_id INTEGER, "
	"parent_stack_id INTEGER, correlation_id INTEGER, " JSON("call_stack") ", " JSON(
		"line_info") ", " JSON("extdata") REF("category_id", "rocpd_string") ")",
	"CREATE TABLE \"rocpd_arg{uuid}\" (" ID GUID "event_id INTEGER NOT NULL, position INTEGER NOT NULL, "
	"type TEXT NOT NULL, name TEXT NOT NULL, value TEXT, " JSON("extdata")
		REF("event_id", "rocpd_event") ")",
	"CREATE TABLE \"rocpd_pmc_event{uuid}\" (" ID GUID "event_id INTEGER, pmc_id INTEGER NOT NULL, "
	"value REAL DEFAULT 0.0, extdata JSONB DEFAULT \"{}\"" REF("pmc_id", "rocpd_info_pmc")
		REF("event_id", "rocpd_event") ")",
	"CREATE TABLE \"rocpd_region{uuid}\" (" ID GUID "nid INTEGER NOT NULL, pid INTEGER NOT NULL, "
	"tid INTEGER NOT NULL, start BIGINT NOT NULL, end BIGINT NOT NULL, name_id INTEGER NOT NULL, "
	"event_id INTEGER, " JSON("extdata") NODE_PROCESS REF("tid", "rocpd_info_thread")
		REF("name_id", "rocpd_string") REF("event_id", "rocpd_event") ")",
	"CREATE TABLE \"rocpd_sample{uuid}\" (" ID GUID "track_id INTEGER NOT NULL, "
	"timestamp BIGINT NOT NULL, event_id INTEGER, " JSON("extdata") REF("track_id", "rocpd_track")
		REF("event_id", "rocpd_event") ")",
	"CREATE TABLE \"rocpd_kernel_dispatch{uuid}\" (" ID GUID
	"nid INTEGER NOT NULL, pid INTEGER NOT NULL, "
	"tid INTEGER, agent_id INTEGER NOT NULL, kernel_id INTEGER NOT NULL, dispatch_id INTEGER NOT NULL, "
	"queue_id INTEGER NOT NULL, stream_id INTEGER NOT NULL, start BIGINT NOT NULL, end BIGINT NOT NULL, "
	"private_segment_size INTEGER, group_segment_size INTEGER, workgroup_size_x INTEGER NOT NULL, "
	"workgroup_size_y INTEGER NOT NULL, workgroup_size_z INTEGER NOT NULL, "
	"grid_size_x INTEGER NOT NULL, grid_size_y INTEGER NOT NULL, grid_size_z INTEGER NOT NULL, "
	"region_name_id INTEGER, event_id INTEGER, " JSON("extdata")
		NODE_PROCESS REF("tid", "rocpd_info_thread") REF("agent_id", "rocpd_info_agent")
			REF("kernel_id", "rocpd_info_kernel_symbol") REF("queue_id", "rocpd_info_queue")
				REF("stream_id", "rocpd_info_stream") REF("region_name_id", "rocpd_string")
					REF("event_id", "rocpd_event") ")",
	"CREATE TABLE \"rocpd_memory_copy{uuid}\" (" ID GUID "nid INTEGER NOT NULL, pid INTEGER NOT NULL, "
	"tid INTEGER, start BIGINT NOT NULL, end BIGINT NOT NULL, name_id INTEGER NOT NULL, "
	"dst_agent_id INTEGER, dst_address INTEGER, src_agent_id INTEGER, src_address INTEGER, "
	"size INTEGER NOT NULL, queue_id INTEGER, stream_id INTEGER, region_name_id INTEGER, "
	"event_id INTEGER, " JSON("extdata") NODE_PROCESS REF("tid", "rocpd_info_thread")
		REF("name_id", "rocpd_string") REF("dst_agent_id", "rocpd_info_agent")
			REF("src_agent_id", "rocpd_info_agent") REF("stream_id", "rocpd_info_stream")
				REF("queue_id", "rocpd_info_queue") REF("region_name_id", "rocpd_string")
					REF("event_id", "rocpd_event") ")",
	"CREATE TABLE \"rocpd_memory_allocate{uuid}\" (" ID GUID "nid INTEGER NOT NULL, "
	"pid INTEGER NOT NULL, tid INTEGER, agent_id INTEGER, "
	"type TEXT CHECK (type IN ('ALLOC', 'FREE', 'REALLOC', 'RECLAIM')), "
	"level TEXT CHECK (level IN ('REAL', 'VIRTUAL', 'SCRATCH')), start BIGINT NOT NULL, "
	"end BIGINT NOT NULL, address INTEGER, size INTEGER NOT NULL, queue_id INTEGER, stream_id INTEGER, "
	"event_id INTEGER, " JSON("extdata") NODE_PROCESS REF("tid", "rocpd_info_thread")
		REF("agent_id", "rocpd_info_agent") REF("stream_id", "rocpd_info_stream")
			REF("queue_id", "rocpd_info_queue") REF("event_id", "rocpd_event") ")",
};

const char *const rocpd_table_names[] = {
	"rocpd_metadata",
	"rocpd_string",
	"rocpd_info_node",
	"rocpd_info_process",
	"rocpd_info_thread",
	"rocpd_info_agent",
	"rocpd_info_queue",
	"rocpd_info_stream",
	"rocpd_info_pmc",
	"rocpd_info_code_object",
	"rocpd_info_kernel_symbol",
	"rocpd_track",
	"rocpd_event",
	"rocpd_arg",
	"rocpd_pmc_event",
	"rocpd_region",
	"rocpd_sample",
	"rocpd_kernel_dispatch",
	"rocpd_memory_copy",
	"rocpd_memory_allocate",
};
const size_t rocpd_ntables = sizeof(rocpd_table_names) / sizeof(rocpd_table_names[0]);
_Static_assert(sizeof(table_sql) / sizeof(table_sql[0]) ==
		       sizeof(rocpd_table_names) / sizeof(rocpd_table_names[0]),
	       "one name per table");

/* The views rocpd's tools and users query, over the unsuffixed rocpd_*
 * views: every join pairs guids as well as ids, so that in a file of
 * several processes each row meets its own process's rows. Columns are
 * named and mean what rocprofv3's views name and mean. */
static const char *const view_sql[] = {
	"CREATE VIEW processes AS SELECT N.id AS nid, N.machine_id, N.system_name, N.hostname, "
	"N.release AS system_release, N.version AS system_version, P.guid, P.ppid, P.pid, P.init, "
	"P.start, P.end, P.fini, P.command FROM rocpd_info_process P "
	"JOIN rocpd_info_node N ON N.guid = P.guid AND N.id = P.nid",

	"CREATE VIEW threads AS SELECT N.id AS nid, N.machine_id, N.system_name, N.hostname, "
	"N.release AS system_release, N.version AS system_version, P.guid, P.ppid, P.pid, T.tid, "
	"T.start, T.end, T.name FROM rocpd_info_thread T "
	"JOIN rocpd_info_process P ON P.guid = T.guid AND P.id = T.pid "
	"JOIN rocpd_info_node N ON N.guid = T.guid AND N.id = T.nid",

	/* A region is a call with a duration; its category is its event's. */
	"CREATE VIEW regions AS SELECT R.id, R.guid, C.string AS category, S.string AS name, R.nid, "
	"P.pid, T.tid, R.start, R.end, R.end - R.start AS duration, R.event_id, E.stack_id, "
	"E.parent_stack_id, E.correlation_id AS corr_id, E.extdata, E.call_stack, E.line_info "
	"FROM rocpd_region R JOIN rocpd_event E ON E.guid = R.guid AND E.id = R.event_id "
	"JOIN rocpd_string S ON S.guid = R.guid AND S.id = R.name_id "
	"JOIN rocpd_info_process P ON P.guid = R.guid AND P.id = R.pid "
	"JOIN rocpd_info_thread T ON T.guid = R.guid AND T.id = R.tid "
	"LEFT JOIN rocpd_string C ON C.guid = E.guid AND C.id = E.category_id",

	"CREATE VIEW region_args AS SELECT R.id, R.guid, R.nid, P.pid, A.type, A.name, A.value "
	"FROM rocpd_region R JOIN rocpd_event E ON E.guid = R.guid AND E.id = R.event_id "
	"JOIN rocpd_arg A ON A.guid = R.guid AND A.event_id = E.id "
	"JOIN rocpd_info_process P ON P.guid = R.guid AND P.id = R.pid",

	/* A sample is a call without a duration: it is named by its track
	 * (the category), the call's own name is not kept. */
	"CREATE VIEW samples AS SELECT SA.id, SA.guid, C.string AS category, N.string AS name, TR.nid, "
	"P.pid, T.tid, SA.timestamp, SA.event_id, E.stack_id, E.parent_stack_id, "
	"E.correlation_id AS corr_id, E.extdata, E.call_stack, E.line_info FROM rocpd_sample SA "
	"JOIN rocpd_track TR ON TR.guid = SA.guid AND TR.id = SA.track_id "
	"JOIN rocpd_event E ON E.guid = SA.guid AND E.id = SA.event_id "
	"JOIN rocpd_info_process P ON P.guid = TR.guid AND P.id = TR.pid "
	"JOIN rocpd_info_thread T ON T.guid = TR.guid AND T.id = TR.tid "
	"LEFT JOIN rocpd_string C ON C.guid = E.guid AND C.id = E.category_id "
	"LEFT JOIN rocpd_string N ON N.guid = TR.guid AND N.id = TR.name_id",

	/* Samples shaped as regions, so that both go into one list. */
	"CREATE VIEW sample_regions AS SELECT id, guid, category, name, nid, pid, tid, timestamp AS start, "
	"timestamp AS end, 0 AS duration, event_id, stack_id, parent_stack_id, corr_id, extdata, "
	"call_stack, line_info FROM samples",

	"CREATE VIEW regions_and_samples AS SELECT * FROM regions UNION ALL SELECT * FROM sample_regions",

	/* Kernels by their display (demangled) name; region is the text a
	 * renamed kernel takes ("" when not renamed). */
	"CREATE VIEW kernels AS SELECT K.id, K.guid, T.tid, C.string AS category, R.string AS region, "
	"S.display_name AS name, K.nid, P.pid, A.absolute_index AS agent_abs_index, "
	"A.logical_index AS agent_log_index, A.type_index AS agent_type_index, A.type AS agent_type, "
	"S.code_object_id, K.kernel_id, K.dispatch_id, K.stream_id, K.queue_id, Q.name AS queue, "
	"ST.name AS stream, K.start, K.end, K.end - K.start AS duration, K.grid_size_x AS grid_x, "
	"K.grid_size_y AS grid_y, K.grid_size_z AS grid_z, K.workgroup_size_x AS workgroup_x, "
	"K.workgroup_size_y AS workgroup_y, K.workgroup_size_z AS workgroup_z, "
	"K.group_segment_size AS lds_size, K.private_segment_size AS scratch_size, "
	"S.group_segment_size AS static_lds_size, S.private_segment_size AS static_scratch_size, "
	"E.stack_id, E.parent_stack_id, E.correlation_id AS corr_id FROM rocpd_kernel_dispatch K "
	"JOIN rocpd_info_agent A ON A.guid = K.guid AND A.id = K.agent_id "
	"JOIN rocpd_event E ON E.guid = K.guid AND E.id = K.event_id "
	"JOIN rocpd_string R ON R.guid = K.guid AND R.id = K.region_name_id "
	"JOIN rocpd_info_kernel_symbol S ON S.guid = K.guid AND S.id = K.kernel_id "
	"JOIN rocpd_info_process P ON P.guid = K.guid AND P.id = K.pid "
	"JOIN rocpd_info_thread T ON T.guid = K.guid AND T.id = K.tid "
	"LEFT JOIN rocpd_info_queue Q ON Q.guid = K.guid AND Q.id = K.queue_id "
	"LEFT JOIN rocpd_info_stream ST ON ST.guid = K.guid AND ST.id = K.stream_id "
	"LEFT JOIN rocpd_string C ON C.guid = E.guid AND C.id = E.category_id",

	/* Copies by operation name (MEMORY_COPY_HOST_TO_DEVICE, ...). */
	"CREATE VIEW memory_copies AS SELECT M.id, M.guid, C.string AS category, M.nid, P.pid, T.tid, "
	"M.start, M.end, M.end - M.start AS duration, S.string AS name, R.string AS region_name, "
	"M.stream_id, M.queue_id, ST.name AS stream_name, Q.name AS queue_name, M.size, "
	"D.name AS dst_device, D.absolute_index AS dst_agent_abs_index, "
	"D.logical_index AS dst_agent_log_index, D.type_index AS dst_agent_type_index, "
	"D.type AS dst_agent_type, M.dst_address, F.name AS src_device, "
	"F.absolute_index AS src_agent_abs_index, F.logical_index AS src_agent_log_index, "
	"F.type_index AS src_agent_type_index, F.type AS src_agent_type, M.src_address, E.stack_id, "
	"E.parent_stack_id, E.correlation_id AS corr_id FROM rocpd_memory_copy M "
	"JOIN rocpd_string S ON S.guid = M.guid AND S.id = M.name_id "
	"JOIN rocpd_info_agent D ON D.guid = M.guid AND D.id = M.dst_agent_id "
	"JOIN rocpd_info_agent F ON F.guid = M.guid AND F.id = M.src_agent_id "
	"JOIN rocpd_event E ON E.guid = M.guid AND E.id = M.event_id "
	"JOIN rocpd_info_process P ON P.guid = M.guid AND P.id = M.pid "
	"JOIN rocpd_info_thread T ON T.guid = M.guid AND T.id = M.tid "
	"LEFT JOIN rocpd_string R ON R.guid = M.guid AND R.id = M.region_name_id "
	"LEFT JOIN rocpd_info_queue Q ON Q.guid = M.guid AND Q.id = M.queue_id "
	"LEFT JOIN rocpd_info_stream ST ON ST.guid = M.guid AND ST.id = M.stream_id "
	"LEFT JOIN rocpd_string C ON C.guid = E.guid AND C.id = E.category_id",

	/* Summaries: times in microseconds, shares in percent of the whole. */
	"CREATE VIEW top_kernels AS SELECT S.display_name AS name, count(*) AS total_calls, "
	"sum(K.end - K.start) / 1000.0 AS total_duration, "
	"(sum(K.end - K.start) / count(*)) / 1000.0 AS average, "
	"sum(K.end - K.start) * 100.0 / (SELECT sum(end - start) FROM rocpd_kernel_dispatch) AS percentage "
	"FROM rocpd_kernel_dispatch K "
	"JOIN rocpd_info_kernel_symbol S ON S.guid = K.guid AND S.id = K.kernel_id "
	"GROUP BY S.display_name ORDER BY total_duration DESC",

	/* An agent's busy share: the time of its dispatches and of the copies
	 * into it, summed (overlaps count twice), over the span of all GPU
	 * work in the file. */
	"CREATE VIEW busy AS SELECT W.agent_id, A.type, W.GpuTime, S.WallTime, "
	"W.GpuTime * 1.0 / S.WallTime AS Busy FROM (SELECT agent_id, guid, sum(end - start) AS GpuTime "
	"FROM (SELECT agent_id, guid, start, end FROM rocpd_kernel_dispatch UNION ALL "
	"SELECT dst_agent_id, guid, start, end FROM rocpd_memory_copy) GROUP BY agent_id, guid) W "
	"JOIN (SELECT max(end) - min(start) AS WallTime FROM (SELECT start, end FROM "
	"rocpd_kernel_dispatch UNION ALL SELECT start, end FROM rocpd_memory_copy)) S "
	"JOIN rocpd_info_agent A ON A.guid = W.guid AND A.id = W.agent_id",

	/* Everything with a duration by name: kernels, copies and regions. */
	"CREATE VIEW top AS SELECT name, count(*) AS total_calls, sum(duration) / 1000.0 AS total_duration, "
	"(sum(duration) / count(*)) / 1000.0 AS average, sum(duration) * 100.0 / T.total AS percentage "
	"FROM (SELECT S.display_name AS name, K.end - K.start AS duration FROM rocpd_kernel_dispatch K "
	"JOIN rocpd_info_kernel_symbol S ON S.guid = K.guid AND S.id = K.kernel_id UNION ALL "
	"SELECT N.string, M.end - M.start FROM rocpd_memory_copy M "
	"JOIN rocpd_string N ON N.guid = M.guid AND N.id = M.name_id UNION ALL "
	"SELECT N.string, R.end - R.start FROM rocpd_region R "
	"JOIN rocpd_string N ON N.guid = R.guid AND N.id = R.name_id) "
	"JOIN (SELECT sum(end - start) AS total FROM (SELECT start, end FROM rocpd_kernel_dispatch "
	"UNION ALL SELECT start, end FROM rocpd_memory_copy UNION ALL SELECT start, end FROM "
	"rocpd_region)) T GROUP BY name ORDER BY total_duration DESC",
};

/* Growing SQL text, statements separated by ";\n". */
struct sqlbuf {
	char *s;
	size_t len, cap;
};

static void put(struct sqlbuf *b, const char *s, size_t n)
{
	b->s = xgrow(b->s, &b->cap, b->len + n + 1, 1);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void puts_(struct sqlbuf *b, const char *s)
{
	put(b, s, strlen(s));
}

/* tmpl with {uuid} and {guid} replaced, appended to b. */
static void put_template(struct sqlbuf *b, const char *tmpl, const char *suffix, const char *guid)
{
	static const char uuid_token[] = "{uuid}", guid_token[] = "{guid}";
	for (const char *p = tmpl; *p;) {
		const char *brace = strchr(p, '{');
		if (!brace) {
			puts_(b, p);
			break;
		}
		put(b, p, (size_t)(brace - p));
		if (strncmp(brace, uuid_token, sizeof(uuid_token) - 1) == 0) {
			puts_(b, suffix);
			p = brace + sizeof(uuid_token) - 1;
		} else if (guid && strncmp(brace, guid_token, sizeof(guid_token) - 1) == 0) {
			puts_(b, guid);
			p = brace + sizeof(guid_token) - 1;
		} else {
			put(b, brace, 1);
			p = brace + 1;
		}
	}
}

char *rocpd_with_suffix(const char *tmpl, const char *suffix)
{
	struct sqlbuf b = { 0 };
	put_template(&b, tmpl, suffix, NULL);
	return b.s ? b.s : xstrdup("");
}

int rocpd_name_ok(const char *s)
{
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') || *s == '_' || *s == '-'))
			return 0;
	return 1;
}

char *rocpd_schema_tables(const char *suffix, const char *guid)
{
	struct sqlbuf b = { 0 };
	for (size_t i = 0; i < rocpd_ntables; i++) {
		put_template(&b, table_sql[i], suffix, guid);
		puts_(&b, ";\n");
	}
	return b.s;
}

char *rocpd_schema_views(const char *const *suffixes, size_t n)
{
	struct sqlbuf b = { 0 };
	for (size_t i = 0; i < rocpd_ntables; i++) {
		puts_(&b, "CREATE VIEW ");
		puts_(&b, rocpd_table_names[i]);
		puts_(&b, " AS ");
		for (size_t k = 0; k < n; k++) {
			puts_(&b, k ? " UNION ALL SELECT * FROM \"" : "SELECT * FROM \"");
			puts_(&b, rocpd_table_names[i]);
			puts_(&b, suffixes[k]);
			puts_(&b, "\"");
		}
		puts_(&b, ";\n");
	}
	for (size_t i = 0; i < sizeof(view_sql) / sizeof(view_sql[0]); i++) {
		puts_(&b, view_sql[i]);
		puts_(&b, ";\n");
	}
	return b.s;
}
