#include "config.h"
#include "sqlfile/pagescan.h"

#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sqlfile/dbfile.h"
#include "util/busguard.h"
#include "util/threads.h"
#include "util/xalloc.h"

enum { LEAF_TABLE = 0x0d, INTERIOR_TABLE = 0x05 };
#define MAX_DEPTH 32

static atomic_ulong tables_read;

void pagescan_taken(void)
{
	atomic_fetch_add(&tables_read, 1);
}

unsigned long pagescan_tables_read(void)
{
	return atomic_load(&tables_read);
}
#define MAX_RECORD_COLS 64
#define PAGE_SLACK 16           /* bytes past a decoded page's buffer (be_load, shape_match) */
#define READ_BYTES (128 * 1024) /* at most this much read at once */

static uint32_t be16(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int read_at(const struct pagescan *ps, void *buf, int n, int64_t off)
{
	return ps->file->pMethods->xRead(ps->file, buf, n, off) == SQLITE_OK ? FAST_DONE : FAST_DECLINED;
}

static int read_page(const struct pagescan *ps, uint32_t pgno, uint8_t *buf)
{
	if (pgno < 1 || pgno > ps->npages)
		return FAST_DECLINED;
	return read_at(ps, buf, (int)ps->page_size, (int64_t)(pgno - 1) * ps->page_size);
}

/* Page 1 carries the 100-byte file header before its b-tree header. */
static int header_offset(uint32_t pgno)
{
	return pgno == 1 ? 100 : 0;
}

/* Committed pages of a write-ahead log are not in the main file yet. */
static int wal_has_frames(sqlite3 *db)
{
	const char *name = sqlite3_db_filename(db, "main");
	if (!name || !*name)
		return 1;
	size_t n = strlen(name);
	char *wal = xmalloc(n + 5);
	memcpy(wal, name, n);
	memcpy(wal + n, "-wal", 5);
	struct stat st;
	int has = stat(wal, &st) == 0 && st.st_size > 0;
	free(wal);
	return has;
}

static int read_file_header(struct pagescan *ps)
{
	uint8_t h[100];
	if (read_at(ps, h, sizeof(h), 0) || memcmp(h, "SQLite format 3", 16) != 0)
		return FAST_DECLINED;
	uint32_t size = be16(h + 16);
	size = size == 1 ? 65536 : size;
	if (size < 512 || size > 65536 || (size & (size - 1)) || h[20] > size - 480)
		return FAST_DECLINED;
	if ((h[18] == 2 || h[19] == 2) && wal_has_frames(ps->db))
		return FAST_DECLINED;
	if (h[18] > 2 || h[19] > 2)
		return FAST_DECLINED;
	ps->page_size = size;
	ps->usable = size - h[20];
	ps->encoding = be32(h + 56);
	sqlite3_int64 bytes;
	if (ps->file->pMethods->xFileSize(ps->file, &bytes) != SQLITE_OK)
		return FAST_DECLINED;
	/* The header's page count is valid only when its change counter says so. */
	uint32_t npages = be32(h + 28);
	if (npages == 0 || be32(h + 24) != be32(h + 92) || (int64_t)npages * size > bytes)
		npages = (uint32_t)(bytes / size);
	ps->npages = npages;
	return FAST_DONE;
}

/* The unix VFSes read with pread(), which threads may share; another VFS
 * (an encrypting or a test one) might keep a file offset or a buffer. */
static int reads_in_parallel(sqlite3 *db)
{
	sqlite3_vfs *vfs = NULL;
	if (sqlite3_file_control(db, "main", SQLITE_FCNTL_VFS_POINTER, &vfs) != SQLITE_OK || !vfs ||
	    !vfs->zName)
		return 0;
	return strcmp(vfs->zName, "unix") == 0 || strncmp(vfs->zName, "unix-", 5) == 0;
}

/* The file again, when the VFS reads it from a regular file of its name
 * (RPDTOP_PAGESCAN_MAP=0: never). Only counts are taken through it, and
 * the decoding that follows checks them. */
static void open_to_map(struct pagescan *ps)
{
	const char *env = getenv("RPDTOP_PAGESCAN_MAP");
	const char *name = sqlite3_db_filename(ps->db, "main");
	if (!ps->shared_reads || (env && strcmp(env, "0") == 0) || !name || !*name)
		return;
	int fd = open(name, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		const char *fail = getenv("RPDTOP_TEST_MAP_FAIL");
		ps->fd = fd;
		ps->fd_size = st.st_size;
		ps->map_fails = fail && strcmp(fail, "1") == 0;
		busguard_install();
	} else if (fd >= 0) {
		close(fd);
	}
}

int pagescan_begin(struct pagescan *ps, sqlite3 *db)
{
	memset(ps, 0, sizeof(*ps));
	ps->db = db;
	ps->fd = -1;
	/* RPDTOP_PAGESCAN=0 reads everything through SQL (tests compare both). */
	const char *env = getenv("RPDTOP_PAGESCAN");
	if (env && strcmp(env, "0") == 0)
		return FAST_DECLINED;
	if (sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &ps->file) != SQLITE_OK ||
	    !ps->file || !ps->file->pMethods)
		return FAST_DECLINED;
	ps->shared_reads = reads_in_parallel(db);
	/* A read transaction holds a shared lock until it ends: no writer
	 * commits while the pages are read. The caller's, when it has one. */
	if (sqlite3_get_autocommit(db)) {
		if (dbfile_read_begin(db) != SQLITE_OK)
			return FAST_DECLINED;
		ps->in_txn = 1;
	}
	if (read_file_header(ps)) {
		pagescan_end(ps);
		return FAST_DECLINED;
	}
	open_to_map(ps);
	return FAST_DONE;
}

void pagescan_end(struct pagescan *ps)
{
	if (ps->fd >= 0)
		close(ps->fd);
	ps->fd = -1;
	if (ps->in_txn)
		dbfile_read_end(ps->db);
	ps->in_txn = 0;
}

static int root_page(sqlite3 *db, const char *table, uint32_t *root)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db,
			       "SELECT rootpage, sql FROM sqlite_master WHERE type = 'table' AND name = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return FAST_DECLINED;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	int rc = FAST_DECLINED;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 0) > 0) {
		const char *sql = (const char *)sqlite3_column_text(st, 1);
		*root = (uint32_t)sqlite3_column_int64(st, 0);
		rc = sql && !strcasestr(sql, "WITHOUT ROWID") ? FAST_DONE : FAST_DECLINED;
	}
	sqlite3_finalize(st);
	return rc;
}

/* Record position of each wanted column, and of a lone INTEGER PRIMARY
 * KEY: it may be the rowid itself, which the first row tells. */
static int map_columns(sqlite3 *db, const char *table, const char *const *cols, int ncols,
		       struct pagescan_table *tab)
{
	char *sql = sqlite3_mprintf("PRAGMA table_xinfo(\"%w\")", table);
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return FAST_DECLINED;
	int pos = 0, npk = 0, key = -1, ok = 1;
	for (int k = 0; k < ncols; k++)
		tab->cols[k] = -2;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 1);
		const char *type = (const char *)sqlite3_column_text(st, 2);
		if (sqlite3_column_int(st, 6) != 0)
			ok = 0; /* generated or hidden columns: not plain records */
		if (sqlite3_column_int(st, 5) > 0) {
			npk++;
			if (type && strcasecmp(type, "integer") == 0)
				key = pos;
		}
		for (int k = 0; name && k < ncols; k++)
			if (strcasecmp(name, cols[k]) == 0)
				tab->cols[k] = pos;
		pos++;
	}
	sqlite3_finalize(st);
	tab->ncols = ncols;
	tab->key_col = npk == 1 ? key : -1;
	for (int k = 0; k < ncols; k++) {
		if (tab->cols[k] == -2 && strcasecmp(cols[k], "rowid") == 0)
			tab->cols[k] = PAGESCAN_ROWID;
		else if (tab->cols[k] == -2 || tab->cols[k] >= MAX_RECORD_COLS)
			ok = 0;
	}
	return ok ? FAST_DONE : FAST_DECLINED;
}

static const uint8_t *varint(const uint8_t *p, const uint8_t *end, uint64_t *v);

/* The serial type of column col in the first row of a leaf page, or -1
 * when the page holds no row (an empty table). */
static int first_serial_type(const struct pagescan *ps, const uint8_t *p, uint32_t pgno, int col,
			     int64_t *type)
{
	const uint8_t *h = p + header_offset(pgno), *end = p + ps->usable;
	*type = -1;
	if (be16(h + 3) == 0)
		return FAST_DONE;
	uint32_t off = be16(h + 8);
	uint64_t size, rowid, hsize, t = 0;
	const uint8_t *q = off < ps->usable ? p + off : NULL;
	if (q)
		q = varint(q, end, &size);
	if (q)
		q = varint(q, end, &rowid);
	const uint8_t *rec = q;
	if (q)
		q = varint(q, end, &hsize);
	for (int c = 0; q && c <= col; c++)
		q = q < rec + hsize ? varint(q, end, &t) : NULL;
	if (!q)
		return FAST_DECLINED;
	*type = (int64_t)t;
	return FAST_DONE;
}

/* Settle whether the table's integer key is the rowid, from its first
 * row: stored as NULL, it is an alias; columns naming it read the rowid. */
static int settle_key(const struct pagescan *ps, const uint8_t *p, uint32_t pgno, struct pagescan_table *tab)
{
	int64_t type;
	if (tab->key_col < 0)
		return FAST_DONE;
	if (first_serial_type(ps, p, pgno, tab->key_col, &type))
		return FAST_DECLINED;
	tab->key_is_rowid = type <= 0;
	for (int k = 0; tab->key_is_rowid && k < tab->ncols; k++)
		if (tab->cols[k] == tab->key_col)
			tab->cols[k] = PAGESCAN_ROWID;
	return FAST_DONE;
}

static int varint_key(const uint8_t *p, const uint8_t *end, int64_t *key);

static void add_leaf(struct pagescan_table *tab, uint32_t pgno, int64_t upper)
{
	tab->leaf = xgrow(tab->leaf, &tab->cap, tab->nleaves + 1, sizeof(*tab->leaf));
	tab->upper = xgrow(tab->upper, &tab->upper_cap, tab->nleaves + 1, sizeof(*tab->upper));
	tab->upper[tab->nleaves] = upper;
	tab->leaf[tab->nleaves++] = pgno;
}

struct walk {
	struct pagescan_table *tab;
	size_t visited;
	int leaf_depth; /* where the first leaf was found, or -1 */
};

/* Depth-first over the interior pages, leaves appended in key order; upper
 * bounds the keys below pgno (an interior cell's key is the largest key of
 * its left child). A b-tree keeps every leaf at the same depth, so past
 * the first leaf the others are listed unread: the scan reads them once,
 * and checks that they are leaves. */
static int walk(const struct pagescan *ps, uint32_t pgno, int64_t upper, int depth, struct walk *w)
{
	if (depth > MAX_DEPTH || ++w->visited > ps->npages || pgno < 1 || pgno > ps->npages)
		return FAST_DECLINED;
	if (depth == w->leaf_depth) {
		add_leaf(w->tab, pgno, upper);
		return FAST_DONE;
	}
	uint8_t *p = xmalloc(ps->page_size);
	int rc = read_page(ps, pgno, p);
	const uint8_t *h = p + header_offset(pgno);
	if (rc == FAST_DONE && h[0] == LEAF_TABLE && w->leaf_depth < 0) {
		w->leaf_depth = depth;
		add_leaf(w->tab, pgno, upper);
		rc = settle_key(ps, p, pgno, w->tab);
	} else if (rc == FAST_DONE && h[0] == INTERIOR_TABLE) {
		uint32_t n = be16(h + 3);
		if ((uint32_t)header_offset(pgno) + 12 + 2 * n > ps->usable)
			rc = FAST_DECLINED;
		for (uint32_t i = 0; rc == FAST_DONE && i < n; i++) {
			uint32_t off = be16(h + 12 + 2 * i);
			int64_t key;
			rc = off + 5 > ps->usable || varint_key(p + off + 4, p + ps->usable, &key)
				     ? FAST_DECLINED
				     : walk(ps, be32(p + off), key, depth + 1, w);
		}
		if (rc == FAST_DONE)
			rc = walk(ps, be32(h + 8), upper, depth + 1, w);
	} else {
		rc = FAST_DECLINED;
	}
	free(p);
	return rc;
}

int pagescan_open_table(struct pagescan *ps, const char *table, const char *const *cols, int ncols,
			struct pagescan_table *out)
{
	memset(out, 0, sizeof(*out));
	uint32_t root;
	struct walk w = { .tab = out, .leaf_depth = -1 };
	if (ncols > PAGESCAN_MAX_COLS || root_page(ps->db, table, &root) ||
	    map_columns(ps->db, table, cols, ncols, out) || walk(ps, root, INT64_MAX, 0, &w)) {
		pagescan_table_free(out);
		return FAST_DECLINED;
	}
	return FAST_DONE;
}

int pagescan_rowid_alias(sqlite3 *db, const char *table)
{
	struct pagescan ps;
	struct pagescan_table tab;
	if (pagescan_begin(&ps, db) != FAST_DONE)
		return 0;
	int alias = pagescan_open_table(&ps, table, NULL, 0, &tab) == FAST_DONE && tab.key_col >= 0 &&
		    tab.key_is_rowid;
	pagescan_table_free(&tab);
	pagescan_end(&ps);
	return alias;
}

void pagescan_table_free(struct pagescan_table *tab)
{
	free(tab->leaf);
	free(tab->upper);
	memset(tab, 0, sizeof(*tab));
}

void pagescan_clip(struct pagescan_table *tab, int64_t lo, int64_t hi)
{
	size_t n = 0;
	int64_t below = INT64_MIN; /* every key of leaf i is above this */
	for (size_t i = 0; i < tab->nleaves; i++) {
		int64_t upper = tab->upper[i];
		if (upper >= lo && below < hi) {
			tab->leaf[n] = tab->leaf[i];
			tab->upper[n++] = upper;
		}
		below = upper;
	}
	tab->nleaves = n;
}

void pagescan_keep_keys(struct pagescan_table *tab, const int64_t *keys, size_t nkeys)
{
	size_t n = 0, at = 0;
	int64_t below = INT64_MIN; /* every key of leaf i is above this */
	for (size_t i = 0; i < tab->nleaves; i++) {
		int64_t upper = tab->upper[i];
		while (at < nkeys && keys[at] <= below)
			at++;
		if (at < nkeys && keys[at] <= upper) {
			tab->leaf[n] = tab->leaf[i];
			tab->upper[n++] = upper;
		}
		below = upper;
	}
	tab->nleaves = n;
}

/* SQLite's varint: big-endian groups of 7 bits, the ninth byte whole. */
static const uint8_t *varint(const uint8_t *p, const uint8_t *end, uint64_t *v)
{
	uint64_t x = 0;
	for (int i = 0; i < 8; i++) {
		if (p >= end)
			return NULL;
		x = x << 7 | (*p & 0x7f);
		if (!(*p++ & 0x80)) {
			*v = x;
			return p;
		}
	}
	if (p >= end)
		return NULL;
	*v = x << 8 | *p++;
	return p;
}

static int varint_key(const uint8_t *p, const uint8_t *end, int64_t *key)
{
	uint64_t v;
	if (!varint(p, end, &v))
		return FAST_DECLINED;
	*key = (int64_t)v;
	return FAST_DONE;
}

/* Bytes of a value of serial type t in the record body. */
static uint64_t serial_size(uint64_t t)
{
	static const uint8_t fixed[12] = { 0, 1, 2, 3, 4, 6, 8, 8, 0, 0, 0, 0 };
	return t < 12 ? fixed[t] : (t - 12) / 2;
}

/* A big-endian signed integer of n bytes (1 to 8) at b, by whole loads:
 * most values of a trace are 1 to 6 bytes. */
static inline int64_t be_signed(const uint8_t *b, int n)
{
	uint64_t x;
	switch (n) {
	case 1:
		return (int8_t)b[0];
	case 2:
		return (int16_t)(uint16_t)be16(b);
	case 4:
		return (int32_t)be32(b);
	case 8:
		memcpy(&x, b, 8);
		return (int64_t)__builtin_bswap64(x);
	default:
		x = b[0] & 0x80 ? UINT64_MAX : 0;
		for (int i = 0; i < n; i++)
			x = x << 8 | b[i];
		return (int64_t)x;
	}
}

/* An integer of serial type t; FAST_DECLINED for anything that is not one. */
static inline int serial_int(uint64_t t, const uint8_t *b, int64_t *out)
{
	if (t == 0 || t == 8 || t == 9) {
		*out = t == 9;
		return FAST_DONE;
	}
	if (t > 6)
		return FAST_DECLINED;
	*out = be_signed(b, (int)serial_size(t));
	return FAST_DONE;
}

/* Bytes of a value of serial type t, for the types a header byte holds. */
static const uint8_t short_size[128] = {
	0,  1,  2,  3,  4,  6,  8,  8,  0,  0,  0,  0,  0,  0,  1,  1,  2,  2,  3,  3,  4,  4,
	5,  5,  6,  6,  7,  7,  8,  8,  9,  9,  10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15,
	16, 16, 17, 17, 18, 18, 19, 19, 20, 20, 21, 21, 22, 22, 23, 23, 24, 24, 25, 25, 26, 26,
	27, 27, 28, 28, 29, 29, 30, 30, 31, 31, 32, 32, 33, 33, 34, 34, 35, 35, 36, 36, 37, 37,
	38, 38, 39, 39, 40, 40, 41, 41, 42, 42, 43, 43, 44, 44, 45, 45, 46, 46, 47, 47, 48, 48,
	49, 49, 50, 50, 51, 51, 52, 52, 53, 53, 54, 54, 55, 55, 56, 56, 57, 57,
};

/* An integer of serial type 1 to 6 at b, of n bytes, by one unaligned
 * load: the page buffer has PAGE_SLACK bytes past its end, so the load
 * may run past the value (and past the page) without leaving the buffer. */
static inline int64_t be_load(const uint8_t *b, unsigned n)
{
	uint64_t x;
	memcpy(&x, b, 8);
	return (int64_t)__builtin_bswap64(x) >> (64 - 8 * n);
}

/* The common record: a one-byte header size, and one-byte serial types
 * for every column read. Then each column's type is at a fixed place and
 * each value is one load; FAST_DECLINED sends the record to decode_any,
 * which judges it again (and declines what is truly odd). */
static inline int decode_short(const struct pagescan_table *tab, int maxcol, const int8_t *slot,
			       const uint8_t *rec, uint64_t size, int64_t *v)
{
	unsigned hsize = rec[0];
	if (hsize >= 0x80 || hsize < (unsigned)maxcol + 2 || hsize > size)
		return FAST_DECLINED;
	const uint8_t *h = rec + 1, *body = rec + hsize, *end = rec + size;
	int key = tab->key_is_rowid ? tab->key_col : -1;
	for (int col = 0; col <= maxcol; col++) {
		unsigned t = h[col];
		if (t >= 0x80 || (col == key && t != 0))
			return FAST_DECLINED;
		unsigned n = short_size[t];
		if (n > (size_t)(end - body))
			return FAST_DECLINED;
		int k = slot[col];
		if (k >= 0) {
			if (t - 1 < 6)
				v[k] = be_load(body, n);
			else if (t == 8 || t == 9)
				v[k] = t == 9;
			else if (t == 0 && !(tab->null_declines >> k & 1))
				v[k] = 0;
			else
				return FAST_DECLINED;
		}
		body += n;
	}
	return FAST_DONE;
}

/* Any record: serial types of any size, read as varints. */
static int decode_any(const struct pagescan_table *tab, int maxcol, const int8_t *slot, const uint8_t *rec,
		      uint64_t size, int64_t *v)
{
	const uint8_t *end = rec + size;
	uint64_t hsize;
	const uint8_t *h = varint(rec, end, &hsize);
	if (!h || hsize > size)
		return FAST_DECLINED;
	const uint8_t *hend = rec + hsize, *body = hend;
	int key = tab->key_is_rowid ? tab->key_col : -1;
	for (int col = 0; col <= maxcol; col++) {
		uint64_t t;
		/* A record shorter than the table (an added column): use SQL. */
		if (h >= hend)
			return FAST_DECLINED;
		/* Serial types below 128 (every integer and short text) take a
		 * byte: no varint loop. */
		if (*h < 0x80)
			t = *h++;
		else if (!(h = varint(h, hend, &t)))
			return FAST_DECLINED;
		/* The first row said the key is the rowid: every row must agree. */
		if (col == key && t != 0)
			return FAST_DECLINED;
		uint64_t n = serial_size(t);
		if (n > (uint64_t)(end - body))
			return FAST_DECLINED;
		if (slot[col] >= 0 &&
		    (serial_int(t, body, &v[slot[col]]) || (t == 0 && (tab->null_declines >> slot[col] & 1))))
			return FAST_DECLINED;
		body += n;
	}
	return FAST_DONE;
}

/* The header of the last record decode_short took, up to the last column
 * read (its size byte and a type byte per column, at most SHAPE_BYTES),
 * and where each wanted value lies in such a record. Rows written one
 * after the other mostly share it: a record with the same header bytes
 * decodes to the same places, a value a load, without reading its types. */
#define SHAPE_BYTES 16

struct shape {
	int ok;
	uint64_t head[2], mask[2];
	uint64_t need; /* the record's bytes up to the last value read */
	int n;         /* wanted values, each: */
	int8_t k[PAGESCAN_MAX_COLS];
	uint16_t off[PAGESCAN_MAX_COLS]; /* from the record's start */
	uint8_t len[PAGESCAN_MAX_COLS];  /* bytes; 0: the value is konst */
	int64_t konst[PAGESCAN_MAX_COLS];
};

/* The first SHAPE_BYTES bytes of a record, masked to its header's: the
 * page buffer's PAGE_SLACK covers a record shorter than that. */
static inline int shape_match(const struct shape *sh, const uint8_t *rec, uint64_t size)
{
	uint64_t a, b;
	memcpy(&a, rec, 8);
	memcpy(&b, rec + 8, 8);
	return sh->ok && (a & sh->mask[0]) == sh->head[0] && (b & sh->mask[1]) == sh->head[1] &&
	       size >= sh->need;
}

/* Note the shape of a record decode_short took. */
static void shape_note(struct shape *sh, int maxcol, const int8_t *slot, const uint8_t *rec)
{
	unsigned bytes = (unsigned)maxcol + 2, at = rec[0];
	sh->ok = bytes <= SHAPE_BYTES;
	if (!sh->ok)
		return;
	uint8_t head[SHAPE_BYTES] = { 0 }, mask[SHAPE_BYTES] = { 0 };
	memcpy(head, rec, bytes);
	memset(mask, 0xff, bytes);
	memcpy(sh->head, head, sizeof(head));
	memcpy(sh->mask, mask, sizeof(mask));
	sh->n = 0;
	for (int col = 0; col <= maxcol; col++) {
		unsigned t = rec[1 + col], n = short_size[t];
		if (slot[col] >= 0) {
			int j = sh->n++;
			sh->k[j] = slot[col];
			sh->off[j] = (uint16_t)at;
			sh->len[j] = (uint8_t)(t - 1 < 6 ? n : 0);
			sh->konst[j] = t == 9;
		}
		at += n;
	}
	sh->need = at;
}

/* Wanted columns of one record, into v. */
static int decode_record(const struct pagescan_table *tab, int maxcol, const int8_t *slot, const uint8_t *rec,
			 uint64_t size, int64_t rowid, struct shape *sh, int64_t *v)
{
	if (shape_match(sh, rec, size)) {
		for (int j = 0; j < sh->n; j++)
			v[sh->k[j]] = sh->len[j] ? be_load(rec + sh->off[j], sh->len[j]) : sh->konst[j];
	} else if (decode_short(tab, maxcol, slot, rec, size, v) == FAST_DONE) {
		shape_note(sh, maxcol, slot, rec);
	} else if (decode_any(tab, maxcol, slot, rec, size, v)) {
		return FAST_DECLINED;
	}
	for (int k = 0; k < tab->ncols; k++)
		if (tab->cols[k] == PAGESCAN_ROWID)
			v[k] = rowid;
	return FAST_DONE;
}

struct leaf_ctx {
	const struct pagescan_table *tab;
	int maxcol;
	int8_t slot[MAX_RECORD_COLS];
	pagescan_row_fn fn;
	pagescan_cell_fn cell; /* instead of fn */
	int (*want)(void *ctx, int64_t rowid);
	void *ctx;
	size_t row, end; /* the next row's number; the first past the counted */
	struct shape shape;
};

static int decode_leaf(const struct pagescan *ps, const uint8_t *p, uint32_t pgno, struct leaf_ctx *c)
{
	const uint8_t *h = p + header_offset(pgno), *end = p + ps->usable;
	uint32_t n = be16(h + 3);
	if (h[0] != LEAF_TABLE || (uint32_t)(h - p) + 8 + 2 * n > ps->usable)
		return FAST_DECLINED;
	uint64_t local_max = ps->usable - 35;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t off = be16(h + 8 + 2 * i);
		uint64_t size, rowid;
		const uint8_t *q = off < ps->usable ? p + off : NULL;
		if (q)
			q = varint(q, end, &size);
		if (q)
			q = varint(q, end, &rowid);
		/* Rows spilling onto overflow pages are left to SQL. */
		if (!q || size > local_max || size > (uint64_t)(end - q))
			return FAST_DECLINED;
		/* The count is a hint: the caller sized its arrays by it, and a
		 * file changed since (a writer that ignored our lock, or damage)
		 * may hold more rows now. */
		if (c->row >= c->end)
			return FAST_DECLINED;
		if (c->want && !c->want(c->ctx, (int64_t)rowid)) {
			c->row++;
			continue;
		}
		int64_t v[PAGESCAN_MAX_COLS];
		if (decode_record(c->tab, c->maxcol, c->slot, q, size, (int64_t)rowid, &c->shape, v))
			return FAST_DECLINED;
		struct pagescan_cell cell = { (int64_t)rowid, q, size, v };
		if (c->cell ? c->cell(c->ctx, &cell) : c->fn(c->ctx, c->row, v))
			return FAST_DECLINED;
		c->row++;
	}
	return FAST_DONE;
}

/* A window of the file mapped while counting. */
struct map_window {
	const uint8_t *base;
	int64_t off, len;
	int failed; /* the file could not be mapped (its file system's doing) */
};

struct worker {
	const struct pagescan *ps;
	const struct pagescan_table *tab;
	size_t from, to;       /* leaves */
	struct map_window map; /* here, not on count_mapped's stack: a jump back finds it */
	struct pagescan_part *part;
	pagescan_row_fn fn; /* both NULL: only count the rows */
	pagescan_cell_fn cell;
	void *ctx;
	int rc;
};

#define MAP_BYTES ((int64_t)8 << 20) /* mapped at once while counting */

static void unmap_window(struct map_window *m)
{
	if (m->base)
		munmap((void *)m->base, (size_t)m->len);
	m->base = NULL;
}

/* n bytes at off of the file, through the window that holds them (mapped
 * now when the last did not); NULL past the file's end as it was opened. */
static const uint8_t *mapped_at(const struct pagescan *ps, struct map_window *m, int64_t off, int64_t n)
{
	if (m->base && off >= m->off && off + n <= m->off + m->len)
		return m->base + (off - m->off);
	unmap_window(m);
	int64_t start = off & ~(MAP_BYTES - 1);
	int64_t len = ps->fd_size - start < MAP_BYTES ? ps->fd_size - start : MAP_BYTES;
	if (off < 0 || len <= 0 || off + n > start + len)
		return NULL;
	void *b = ps->map_fails ? MAP_FAILED : mmap(NULL, (size_t)len, PROT_READ, MAP_SHARED, ps->fd, start);
	if (b == MAP_FAILED) {
		m->failed = 1;
		return NULL;
	}
	*m = (struct map_window){ b, start, len, 0 };
	return m->base + (off - start);
}

/* The leaves' counts from their headers in the mapped file: a fault a
 * few pages, not a system call a leaf. A file cut short meanwhile (its
 * pages past the end raise SIGBUS) is damage, as a short read is. 0 when
 * the file could not be mapped: the headers are to be read instead. */
static int count_mapped(struct worker *w)
{
	sigjmp_buf jump;
	w->part->count = 0;
	w->map = (struct map_window){ 0 };
	if (sigsetjmp(jump, 1)) {
		unmap_window(&w->map);
		w->rc = FAST_DECLINED;
		return 1;
	}
	busguard_arm(&jump);
	for (size_t i = w->from; w->rc == FAST_DONE && i < w->to; i++) {
		uint32_t pgno = w->tab->leaf[i];
		const uint8_t *h = NULL;
		if (pgno >= 1 && pgno <= w->ps->npages)
			h = mapped_at(w->ps, &w->map,
				      (int64_t)(pgno - 1) * w->ps->page_size + header_offset(pgno), 8);
		if (!h && w->map.failed)
			break;
		if (!h || h[0] != LEAF_TABLE)
			w->rc = FAST_DECLINED;
		else
			w->part->count += be16(h + 3);
	}
	busguard_arm(NULL);
	unmap_window(&w->map);
	return !w->map.failed;
}

static void count_rows(struct worker *w)
{
	uint8_t h[108];
	if (w->ps->fd >= 0 && count_mapped(w))
		return;
	w->part->count = 0;
	for (size_t i = w->from; w->rc == FAST_DONE && i < w->to; i++) {
		uint32_t pgno = w->tab->leaf[i];
		int off = header_offset(pgno);
		if (pgno < 1 || pgno > w->ps->npages ||
		    read_at(w->ps, h, off + 8, (int64_t)(pgno - 1) * w->ps->page_size) ||
		    h[off] != LEAF_TABLE)
			w->rc = FAST_DECLINED;
		else
			w->part->count += be16(h + off + 3);
	}
}

/* How many of the leaves from i on lie one after the other in the file
 * (at most most): a table written in one go keeps most of its leaves so,
 * and one read of them costs a system call instead of one per page. */
static uint32_t leaf_run(const struct pagescan *ps, const struct pagescan_table *tab, size_t i, size_t to,
			 uint32_t most)
{
	uint32_t n = 1;
	while (n < most && i + n < to && tab->leaf[i + n] == tab->leaf[i] + n &&
	       tab->leaf[i + n] <= ps->npages)
		n++;
	return n;
}

static int read_pages(const struct pagescan *ps, uint32_t pgno, uint32_t n, uint8_t *buf)
{
	if (pgno < 1 || pgno > ps->npages || n > ps->npages - pgno + 1)
		return FAST_DECLINED;
	return read_at(ps, buf, (int)(n * ps->page_size), (int64_t)(pgno - 1) * ps->page_size);
}

static void decode_rows(struct worker *w)
{
	struct leaf_ctx c = {
		.tab = w->tab,
		.fn = w->fn,
		.cell = w->cell,
		.want = w->ps->want,
		.ctx = w->ctx,
		.row = w->part->first,
		.end = w->part->first + w->part->count,
	};
	memset(c.slot, -1, sizeof(c.slot));
	for (int k = 0; k < w->tab->ncols; k++) {
		if (w->tab->cols[k] < 0)
			continue;
		c.slot[w->tab->cols[k]] = (int8_t)k;
		if (w->tab->cols[k] > c.maxcol)
			c.maxcol = w->tab->cols[k];
	}
	if (w->tab->key_is_rowid && w->tab->key_col > c.maxcol)
		c.maxcol = w->tab->key_col;
	uint32_t size = w->ps->page_size, most = READ_BYTES / size ? READ_BYTES / size : 1;
	uint8_t *buf = xmalloc((size_t)most * size + PAGE_SLACK);
	memset(buf + (size_t)most * size, 0, PAGE_SLACK);
	for (size_t i = w->from; w->rc == FAST_DONE && i < w->to;) {
		uint32_t n = leaf_run(w->ps, w->tab, i, w->to, most);
		if (read_pages(w->ps, w->tab->leaf[i], n, buf))
			w->rc = FAST_DECLINED;
		for (uint32_t k = 0; w->rc == FAST_DONE && k < n; k++)
			if (decode_leaf(w->ps, buf + (size_t)k * size, w->tab->leaf[i + k], &c))
				w->rc = FAST_DECLINED;
		i += n;
	}
	/* The leaves were counted under the same lock: a mismatch is damage,
	 * or a file that changed under a reader without locks. */
	if (c.row != c.end)
		w->rc = FAST_DECLINED;
	if (w->ps->thread_end)
		w->ps->thread_end();
	free(buf);
}

static void *run_worker(void *arg)
{
	struct worker *w = arg;
	if (w->fn || w->cell)
		decode_rows(w);
	else
		count_rows(w);
	return NULL;
}

/* Run the workers on threads (the first on this one), or one after the
 * other here when the file may not be read from several threads. */
static int run_all(struct worker *w, int n, int parallel)
{
	pthread_t th[PAGESCAN_MAX_THREADS];
	int started[PAGESCAN_MAX_THREADS] = { 0 };
	/* As many threads as the process's cap allows; this one does the rest. */
	int extra = parallel ? threads_acquire(n - 1) : 0;
	for (int k = 1; k <= extra && k < n; k++)
		started[k] = pthread_create(&th[k], NULL, run_worker, &w[k]) == 0;
	run_worker(&w[0]);
	int rc = w[0].rc;
	for (int k = 1; k < n; k++) {
		if (started[k])
			pthread_join(th[k], NULL);
		else
			run_worker(&w[k]);
		rc |= w[k].rc;
	}
	threads_release(extra);
	return rc ? FAST_DECLINED : FAST_DONE;
}

static void split(const struct pagescan *ps, const struct pagescan_table *tab, int n,
		  struct pagescan_part *parts, struct worker *w)
{
	for (int k = 0; k < n; k++)
		w[k] = (struct worker){ .ps = ps,
					.tab = tab,
					.part = &parts[k],
					.from = tab->nleaves * (size_t)k / (size_t)n,
					.to = tab->nleaves * (size_t)(k + 1) / (size_t)n };
}

static int clamp_threads(int n)
{
	return n < 1 ? 1 : n > PAGESCAN_MAX_THREADS ? PAGESCAN_MAX_THREADS : n;
}

/* RPDTOP_TEST_SCAN_PAUSE=MS: a pause between counting and decoding, so
 * that a test's writer lands between them. */
static void test_pause(void)
{
	const char *v = getenv("RPDTOP_TEST_SCAN_PAUSE");
	long ms = v ? strtol(v, NULL, 10) : 0;
	if (ms > 0 && ms <= 60000) {
		struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };
		nanosleep(&ts, NULL);
	}
}

int pagescan_count(const struct pagescan *ps, const struct pagescan_table *tab, int nthreads,
		   struct pagescan_part *parts, size_t *rows)
{
	struct worker w[PAGESCAN_MAX_THREADS];
	nthreads = clamp_threads(nthreads);
	split(ps, tab, nthreads, parts, w);
	if (run_all(w, nthreads, ps->shared_reads))
		return FAST_DECLINED;
	*rows = 0;
	for (int k = 0; k < nthreads; k++) {
		parts[k].first = *rows;
		*rows += parts[k].count;
	}
	test_pause();
	return FAST_DONE;
}

static int decode_with(const struct pagescan *ps, const struct pagescan_table *tab, int nthreads,
		       struct pagescan_part *parts, pagescan_row_fn fn, pagescan_cell_fn cell,
		       void *const *ctx)
{
	struct worker w[PAGESCAN_MAX_THREADS];
	nthreads = clamp_threads(nthreads);
	split(ps, tab, nthreads, parts, w);
	for (int k = 0; k < nthreads; k++) {
		w[k].fn = fn;
		w[k].cell = cell;
		w[k].ctx = ctx[k];
	}
	return run_all(w, nthreads, ps->shared_reads);
}

int pagescan_decode(const struct pagescan *ps, const struct pagescan_table *tab, int nthreads,
		    struct pagescan_part *parts, pagescan_row_fn fn, void *const *ctx)
{
	return decode_with(ps, tab, nthreads, parts, fn, NULL, ctx);
}

int pagescan_decode_cells(const struct pagescan *ps, const struct pagescan_table *tab, int nthreads,
			  struct pagescan_part *parts, pagescan_cell_fn fn, void *const *ctx)
{
	return decode_with(ps, tab, nthreads, parts, NULL, fn, ctx);
}

/* Rows through SQL, for tables the pages cannot give. */
static int sql_rows(sqlite3 *db, const char *table, const char *const *cols, int ncols, pagescan_row_fn fn,
		    void *ctx)
{
	char *list = sqlite3_mprintf("%s", "");
	for (int k = 0; k < ncols; k++) {
		char *next = sqlite3_mprintf("%s%s\"%w\"", list, k ? ", " : "", cols[k]);
		sqlite3_free(list);
		list = next;
	}
	char *sql = sqlite3_mprintf("SELECT %s FROM \"%w\"", list, table);
	sqlite3_free(list);
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return rc;
	size_t row = 0;
	int64_t v[PAGESCAN_MAX_COLS];
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int k = 0; k < ncols; k++)
			v[k] = sqlite3_column_int64(st, k);
		if (fn(ctx, row++, v)) {
			rc = SQLITE_ABORT;
			break;
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* A row refused by the caller stops the scan; it is not retried in SQL. */
struct checked {
	pagescan_row_fn fn;
	void *ctx;
	int stopped;
	size_t given; /* rows fn has seen */
};

static int checked_row(void *arg, size_t row, const int64_t *v)
{
	struct checked *c = arg;
	c->given++;
	if (c->fn(c->ctx, row, v)) {
		c->stopped = 1;
		return 1;
	}
	return 0;
}

/* The rows from the table's pages on this thread: FAST_DONE, or
 * FAST_DECLINED with c->stopped when fn stopped it (not to be retried). */
static int from_pages(sqlite3 *db, const char *table, const char *const *cols, int ncols, struct checked *c)
{
	struct pagescan ps;
	struct pagescan_table tab;
	struct pagescan_part part;
	size_t rows;
	if (pagescan_begin(&ps, db) != FAST_DONE)
		return FAST_DECLINED;
	int rc = pagescan_open_table(&ps, table, cols, ncols, &tab);
	if (rc == FAST_DONE) {
		rc = pagescan_count(&ps, &tab, 1, &part, &rows);
		if (rc == FAST_DONE)
			rc = pagescan_decode(&ps, &tab, 1, &part, checked_row, (void *const[]){ c });
		pagescan_table_free(&tab);
	}
	pagescan_end(&ps);
	return rc;
}

int pagescan_or_sql(sqlite3 *db, const char *table, const char *const *cols, int ncols, pagescan_row_fn fn,
		    pagescan_reset_fn reset, void *ctx)
{
	int own = sqlite3_get_autocommit(db);
	int rc = own ? dbfile_read_begin(db) : SQLITE_OK;
	if (rc != SQLITE_OK)
		return rc;
	struct checked c = { fn, ctx, 0, 0 };
	if (from_pages(db, table, cols, ncols, &c) == FAST_DONE) {
		pagescan_taken();
		rc = SQLITE_OK;
	} else if (c.stopped) {
		rc = SQLITE_ABORT;
	} else {
		if (c.given)
			reset(ctx);
		rc = sql_rows(db, table, cols, ncols, fn, ctx);
	}
	if (own)
		dbfile_read_end(db);
	return rc;
}
