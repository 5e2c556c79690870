#include "config.h"
#include "export/rocpd_schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* Columns as rocprofiler-sdk writes them (its rocpd_tables.sql), so that
 * its tools and views work on files written here. {uuid} is the suffix. */
static const char *const table_sql[] = {
	"CREATE TABLE rocpd_metadata{uuid} (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "
	"tag TEXT NOT NULL, value TEXT NOT NULL)",
	"CREATE TABLE rocpd_string{uuid} (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "
	"guid TEXT NOT NULL, string TEXT NOT NULL UNIQUE ON CONFLICT ABORT)",
	"CREATE TABLE rocpd_info_node{uuid} (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "
	"guid TEXT NOT NULL, hash BIGINT NOT NULL UNIQUE, machine_id TEXT NOT NULL UNIQUE, "
	"system_name TEXT, hostname TEXT, release TEXT, version TEXT, hardware_name TEXT, "
	"domain_name TEXT)",
	"CREATE TABLE rocpd_info_process{uuid} (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "
	"guid TEXT NOT NULL, nid INTEGER NOT NULL, ppid INTEGER, pid INTEGER NOT NULL, "
	"init BIGINT, fini BIGINT, start BIGINT, end BIGINT, command TEXT, "
	"environment JSONB DEFAULT '{}' NOT NULL, extdata JSONB DEFAULT '{}' NOT NULL)",
	"CREATE TABLE rocpd_info_thread{uuid} (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "
	"guid TEXT NOT NULL, nid INTEGER NOT NULL, ppid INTEGER, pid INTEGER NOT NULL, "
	"tid INTEGER NOT NULL, name TEXT, start BIGINT, end BIGINT, "
	"extdata JSONB DEFAULT '{}' NOT NULL)",
	"CREATE TABLE rocpd_info_agent{uuid} (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "
	"guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER NOT NULL, "
	"type TEXT CHECK (type IN ('CPU', 'GPU')), absolute_index INTEGER, logical_index INTEGER, "
	"type_index INTEGER, uuid INTEGER, name TEXT, model_name TEXT, vendor_name TEXT, "
	"product_name TEXT, user_name TEXT, extdata JSONB DEFAULT '{}' NOT NULL)",
	"CREATE TABLE rocpd_info_queue{uuid} (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "
	"guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER NOT NULL, name TEXT, "
	"extdata JSONB DEFAULT '{}' NOT NULL)",
	"CREATE TABLE rocpd_info_stream{uuid} (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "
	"guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER NOT NULL, name TEXT, "
	"extdata JSONB DEFAULT '{}' NOT NULL)",
	"CREATE TABLE rocpd_info_pmc{uuid} (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "
	"guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER NOT NULL, agent_id INTEGER, "
	"target_arch TEXT, event_code INT, instance_id INTEGER, name TEXT NOT NULL, "
	"symbol TEXT NOT NULL, description TEXT, long_description TEXT DEFAULT '', component TEXT, "
	"units TEXT DEFAULT '', value_type TEXT, block TEXT, expression TEXT, is_constant INTEGER, "
	"is_derived INTEGER, extdata JSONB DEFAULT '{}' NOT NULL)",
	"CREATE TABLE rocpd_info_code_object{uuid} (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "
	"guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER NOT NULL, agent_id INTEGER, "
	"uri TEXT, load_base BIGINT, load_size BIGINT, load_delta BIGINT, storage_type TEXT, "
	"extdata JSONB DEFAULT '{}' NOT NULL)",
	"CREATE TABLE rocpd_info_kernel_symbol{uuid} (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "
	"guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER NOT NULL, "
	"code_object_id INTEGER NOT NULL, kernel_name TEXT, display_name TEXT, "
	"kernel_object INTEGER, kernarg_segment_size INTEGER, kernarg_segment_alignment INTEGER, "
	"group_segment_size INTEGER, private_segment_size INTEGER, sgpr_count INTEGER, "
	"arch_vgpr_count INTEGER, accum_vgpr_count INTEGER, extdata JSONB DEFAULT '{}' NOT NULL)",
	"CREATE TABLE rocpd_track{uuid} (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "
	"guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER, tid INTEGER, name_id INTEGER, "
	"extdata JSONB DEFAULT '{}' NOT NULL)",
	"CREATE TABLE rocpd_event{uuid} (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "
	"guid TEXT NOT NULL, category_id INTEGER, stack_id INTEGER, parent_stack_id INTEGER, "
	"correlation_id INTEGER, call_stack JSONB DEFAULT '{}' NOT NULL, "
	"line_info JSONB DEFAULT '{}' NOT NULL, extdata JSONB DEFAULT '{}' NOT NULL)",
	"CREATE TABLE rocpd_arg{uuid} (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "
	"guid TEXT NOT NULL, event_id INTEGER NOT NULL, position INTEGER NOT NULL, "
	"type TEXT NOT NULL, name TEXT NOT NULL, value TEXT, extdata JSONB DEFAULT '{}' NOT NULL)",
	"CREATE TABLE rocpd_pmc_event{uuid} (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "
	"guid TEXT NOT NULL, event_id INTEGER, pmc_id INTEGER NOT NULL, value REAL DEFAULT 0.0, "
	"extdata JSONB DEFAULT '{}')",
	"CREATE TABLE rocpd_region{uuid} (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "
	"guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER NOT NULL, tid INTEGER NOT NULL, "
	"start BIGINT NOT NULL, end BIGINT NOT NULL, name_id INTEGER NOT NULL, event_id INTEGER, "
	"extdata JSONB DEFAULT '{}' NOT NULL)",
	"CREATE TABLE rocpd_sample{uuid} (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "
	"guid TEXT NOT NULL, track_id INTEGER NOT NULL, timestamp BIGINT NOT NULL, "
	"event_id INTEGER, extdata JSONB DEFAULT '{}' NOT NULL)",
	"CREATE TABLE rocpd_kernel_dispatch{uuid} (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "
	"guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER NOT NULL, tid INTEGER, "
	"agent_id INTEGER NOT NULL, kernel_id INTEGER NOT NULL, dispatch_id INTEGER NOT NULL, "
	"queue_id INTEGER NOT NULL, stream_id INTEGER NOT NULL, start BIGINT NOT NULL, "
	"end BIGINT NOT NULL, private_segment_size INTEGER, group_segment_size INTEGER, "
	"workgroup_size_x INTEGER NOT NULL, workgroup_size_y INTEGER NOT NULL, "
	"workgroup_size_z INTEGER NOT NULL, grid_size_x INTEGER NOT NULL, "
	"grid_size_y INTEGER NOT NULL, grid_size_z INTEGER NOT NULL, region_name_id INTEGER, "
	"event_id INTEGER, extdata JSONB DEFAULT '{}' NOT NULL)",
	"CREATE TABLE rocpd_memory_copy{uuid} (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "
	"guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER NOT NULL, tid INTEGER, "
	"start BIGINT NOT NULL, end BIGINT NOT NULL, name_id INTEGER NOT NULL, "
	"dst_agent_id INTEGER, dst_address INTEGER, src_agent_id INTEGER, src_address INTEGER, "
	"size INTEGER NOT NULL, queue_id INTEGER, stream_id INTEGER, region_name_id INTEGER, "
	"event_id INTEGER, extdata JSONB DEFAULT '{}' NOT NULL)",
	"CREATE TABLE rocpd_memory_allocate{uuid} (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "
	"guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER NOT NULL, tid INTEGER, "
	"agent_id INTEGER, type TEXT, level TEXT, start BIGINT NOT NULL, end BIGINT NOT NULL, "
	"address INTEGER, size INTEGER NOT NULL, queue_id INTEGER, stream_id INTEGER, "
	"event_id INTEGER, extdata JSONB DEFAULT '{}' NOT NULL)",
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

static char *join(const char *(*piece)(size_t i, const char *suffix, char *buf, size_t size),
		  const char *suffix)
{
	size_t cap = 65536, len = 0;
	char *out = xmalloc(cap), buf[4096];
	for (size_t i = 0; i < rocpd_ntables; i++) {
		const char *p = piece(i, suffix, buf, sizeof(buf));
		size_t n = strlen(p);
		out = xgrow(out, &cap, len + n + 3, 1);
		memcpy(out + len, p, n);
		len += n;
		out[len++] = ';';
		out[len++] = '\n';
	}
	out[len] = '\0';
	return out;
}

char *rocpd_with_suffix(const char *tmpl, const char *suffix)
{
	static const char token[] = "{uuid}";
	size_t n = strlen(tmpl) + 1, k = strlen(suffix), o = 0;
	for (const char *p = strstr(tmpl, token); p; p = strstr(p + 1, token))
		n += k;
	char *out = xmalloc(n);
	for (const char *p = tmpl; *p;) {
		if (strncmp(p, token, sizeof(token) - 1) == 0) {
			memcpy(out + o, suffix, k);
			o += k;
			p += sizeof(token) - 1;
		} else {
			out[o++] = *p++;
		}
	}
	out[o] = '\0';
	return out;
}

static const char *table_piece(size_t i, const char *suffix, char *buf, size_t size)
{
	char *sql = rocpd_with_suffix(table_sql[i], suffix);
	snprintf(buf, size, "%s", sql);
	free(sql);
	return buf;
}

static const char *view_piece(size_t i, const char *suffix, char *buf, size_t size)
{
	snprintf(buf, size, "CREATE VIEW %s AS SELECT * FROM %s%s", rocpd_table_names[i],
		 rocpd_table_names[i], suffix);
	return buf;
}

char *rocpd_schema_tables(const char *suffix)
{
	return join(table_piece, suffix);
}

char *rocpd_schema_views(const char *suffix)
{
	return join(view_piece, suffix);
}
