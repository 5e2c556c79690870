/* The text of a roctx range or mark: the "message" of its event's extdata
 * JSON. Plain files give it out of SQL (json_extract); the LZ4 variant
 * stores extdata compressed ("LZ4F", its length, an LZ4 frame), which is
 * decoded here first. */
#ifndef RPDTOP_ROCPD_TEXT_H
#define RPDTOP_ROCPD_TEXT_H

#include <sqlite3.h>

#include "sqlfile/sqlread.h"
#include "trace/trace.h"

struct rocpd_text {
	const struct sqlsrc *src;
	sqlite3_stmt *json; /* json_extract of a decoded blob */
	unsigned char *buf;
	size_t cap;
	int lz4; /* the LZ4 variant: the column holds extdata itself */
};

void rocpd_text_init(struct rocpd_text *x, const struct sqlsrc *src, int lz4);
void rocpd_text_free(struct rocpd_text *x);
/* Column col holds the message (text), or the compressed extdata (a blob),
 * or NULL: *out gets the interned message or TRACE_NONE. -1 on an SQLite
 * error (reported); a blob that does not decode has no message. */
int rocpd_text_message(struct rocpd_text *x, sqlite3_stmt *st, int col, struct trace *t, uint32_t *out);

/* What the query selects as the message column, for a layout: SQL text
 * for a marker event's extdata E.extdata. */
const char *rocpd_text_column(int lz4);

#endif
