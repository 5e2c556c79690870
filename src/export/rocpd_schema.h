/* The rocprofiler-sdk rocpd schema (version 3): each process's tables with
 * its uuid as a suffix, the unsuffixed views over them, and the data and
 * summary views rocpd's tools query. */
#ifndef RPDTOP_ROCPD_SCHEMA_H
#define RPDTOP_ROCPD_SCHEMA_H

#include <stddef.h>

/* SQL creating one process's tables with this suffix ("_<uuid>") and guid
 * (their rows' default), into a new string. */
char *rocpd_schema_tables(const char *suffix, const char *guid);
/* SQL creating the unsuffixed views over the n processes' tables (all of
 * them, UNION ALL, when there are several, as rocpd merge does) and the
 * data and summary views, into a new string. */
char *rocpd_schema_views(const char *const *suffixes, size_t n);
/* tmpl with every "{uuid}" replaced by suffix, in a new string. */
char *rocpd_with_suffix(const char *tmpl, const char *suffix);
/* Is s fit to go into SQL text as a suffix or guid (hex digits, '_', '-')? */
int rocpd_name_ok(const char *s);
/* The table names, for views and statements. */
extern const char *const rocpd_table_names[];
extern const size_t rocpd_ntables;

#endif
