#include "config.h"
#include "load/rocpd_text.h"

#include <stdlib.h>
#include <string.h>

#include "util/lz4.h"
#include "util/xalloc.h"

/* A message is a line of text: extdata larger than this is not one. */
#define MAX_JSON ((size_t)1 << 20)

void rocpd_text_init(struct rocpd_text *x, const struct sqlsrc *src, int lz4)
{
	memset(x, 0, sizeof(*x));
	x->src = src;
	x->lz4 = lz4;
}

void rocpd_text_free(struct rocpd_text *x)
{
	sqlite3_finalize(x->json);
	free(x->buf);
	memset(x, 0, sizeof(*x));
}

const char *rocpd_text_column(int lz4)
{
	/* Malformed JSON must not end the query: it has no message. */
	return lz4 ? "E.extdata"
		   : "CASE WHEN json_valid(E.extdata) THEN json_extract(E.extdata, '$.message') END";
}

static uint32_t intern(struct trace *t, const char *s, size_t n)
{
	return strtab_intern_len(&t->strings, s, n);
}

/* "LZ4F", the decoded length (little-endian), then the frame. */
static int decode(struct rocpd_text *x, const unsigned char *blob, size_t n, size_t *len)
{
	if (n < 8 || memcmp(blob, "LZ4F", 4) != 0)
		return -1;
	size_t want = (size_t)blob[4] | (size_t)blob[5] << 8 | (size_t)blob[6] << 16 | (size_t)blob[7] << 24;
	if (want > MAX_JSON)
		return -1;
	if (want + 1 > x->cap) {
		x->cap = want + 1;
		x->buf = xrealloc(x->buf, x->cap);
	}
	if (lz4_frame_decode(blob + 8, n - 8, x->buf, want, len) || *len != want)
		return -1;
	return 0;
}

/* The message of extdata JSON held in x->buf[0..len). */
static int from_json(struct rocpd_text *x, size_t len, struct trace *t, uint32_t *out)
{
	if (!x->json &&
	    sqlite3_prepare_v2(x->src->db, "SELECT json_extract(?1, '$.message') WHERE json_valid(?1)", -1,
			       &x->json, NULL) != SQLITE_OK)
		return sql_fail(x->src, sqlite3_errcode(x->src->db));
	sqlite3_reset(x->json);
	sqlite3_bind_text(x->json, 1, (const char *)x->buf, (int)len, SQLITE_STATIC);
	int rc = sqlite3_step(x->json);
	if (rc == SQLITE_ROW && sqlite3_column_type(x->json, 0) == SQLITE_TEXT)
		*out = intern(t, (const char *)sqlite3_column_text(x->json, 0),
			      (size_t)sqlite3_column_bytes(x->json, 0));
	sqlite3_reset(x->json);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : sql_fail(x->src, rc);
}

static int from_blob(struct rocpd_text *x, const unsigned char *blob, size_t n, struct trace *t,
		     uint32_t *out)
{
	size_t len;
	return decode(x, blob, n, &len) ? 0 : from_json(x, len, t, out);
}

/* The LZ4 variant may still hold a column uncompressed: JSON text. */
static int from_text(struct rocpd_text *x, const unsigned char *s, size_t n, struct trace *t, uint32_t *out)
{
	if (n > MAX_JSON)
		return 0;
	if (n + 1 > x->cap) {
		x->cap = n + 1;
		x->buf = xrealloc(x->buf, x->cap);
	}
	memcpy(x->buf, s, n);
	return from_json(x, n, t, out);
}

int rocpd_text_message(struct rocpd_text *x, sqlite3_stmt *st, int col, struct trace *t, uint32_t *out)
{
	*out = TRACE_NONE;
	switch (sqlite3_column_type(st, col)) {
	case SQLITE_TEXT:
		if (x->lz4)
			return from_text(x, sqlite3_column_text(st, col),
					 (size_t)sqlite3_column_bytes(st, col), t, out);
		*out = intern(t, (const char *)sqlite3_column_text(st, col),
			      (size_t)sqlite3_column_bytes(st, col));
		return 0;
	case SQLITE_BLOB:
		return from_blob(x, sqlite3_column_blob(st, col), (size_t)sqlite3_column_bytes(st, col), t,
				 out);
	default:
		return 0;
	}
}
