/* The rocprofiler-sdk rocpd schema (version 3): per-file tables with a uuid
 * suffix and unsuffixed views over them. */
#ifndef RPDTOP_ROCPD_SCHEMA_H
#define RPDTOP_ROCPD_SCHEMA_H

#include <stddef.h>

/* SQL creating the tables with this suffix ("_<uuid>"), into a new string. */
char *rocpd_schema_tables(const char *suffix);
/* SQL creating the unsuffixed views, into a new string. */
char *rocpd_schema_views(const char *suffix);
/* tmpl with every "{uuid}" replaced by suffix, in a new string. */
char *rocpd_with_suffix(const char *tmpl, const char *suffix);
/* The table names, for views and statements. */
extern const char *const rocpd_table_names[];
extern const size_t rocpd_ntables;

#endif
