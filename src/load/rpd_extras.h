/* What an rpd file records besides ops and calls, read with the API rows:
 * the GPUs' monitor samples (rocpd_monitor: clocks) as counters, and the
 * bytes and addresses of copies (rocpd_copyapi, joined to the copy op
 * through the links read from rocpd_api_ops). A file without these tables, or with tables
 * not as expected, has none: never an error. */
#ifndef RPDTOP_RPD_EXTRAS_H
#define RPDTOP_RPD_EXTRAS_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"

void rpd_read_monitor(struct trace *t, sqlite3 *db, uint32_t input);
/* The copies of the API rows from api_base on, through the links read
 * from link_first on. */
void rpd_read_copies(struct trace *t, sqlite3 *db, size_t api_base, size_t link_first);

#endif
