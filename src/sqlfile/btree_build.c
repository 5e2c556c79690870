#include "config.h"
#include "sqlfile/btree_build.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/xalloc.h"

enum { LEAF_TABLE = 0x0d, INTERIOR_TABLE = 0x05, BUF_PAGES = 64, COPY_PAGES = 256 };
/* The page holding byte 2^30 is SQLite's lock page: never used for data.
 * Tests move it (sqlfile_test_knobs) to cross it with small files. */
static uint32_t pending_byte = 0x40000000u;

void btree_set_pending_byte(uint32_t offset)
{
	pending_byte = offset;
}

static void put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* SQLite's varint: 7 bits a byte, high bit "more", the ninth byte whole. */
static int varint_len(uint64_t v)
{
	int n = 1;
	if (v >> 56)
		return 9;
	while (v >>= 7)
		n++;
	return n;
}

static int put_varint(uint8_t *p, uint64_t v)
{
	int n = varint_len(v);
	if (n == 9) {
		p[8] = (uint8_t)v;
		v >>= 8;
		for (int i = 7; i >= 0; i--, v >>= 7)
			p[i] = (uint8_t)(v & 0x7f) | 0x80;
		return 9;
	}
	for (int i = n - 1; i >= 0; i--, v >>= 7)
		p[i] = (uint8_t)(v & 0x7f) | (i < n - 1 ? 0x80 : 0);
	return n;
}

/* All of n bytes at off, read or written; 0 or an errno. */
static int transfer(int fd, uint8_t *p, size_t n, off_t off, int writing)
{
	while (n > 0) {
		ssize_t k = writing ? pwrite(fd, p, n, off) : pread(fd, p, n, off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? errno : EIO;
		p += k;
		n -= (size_t)k;
		off += k;
	}
	return 0;
}

static int write_all(int fd, const void *buf, size_t n, off_t off)
{
	return transfer(fd, (uint8_t *)buf, n, off, 1);
}

static int read_all(int fd, void *buf, size_t n, off_t off)
{
	return transfer(fd, buf, n, off, 0);
}

int leaf_writer_init(struct leaf_writer *w, const char *dir, uint32_t page_size)
{
	memset(w, 0, sizeof(*w));
	size_t n = strlen(dir) + 32;
	char *name = xmalloc(n);
	snprintf(name, n, "%s/.rpdtop-leaves.XXXXXX", dir);
	w->fd = mkstemp(name);
	if (w->fd >= 0)
		unlink(name);
	free(name);
	if (w->fd < 0)
		return -1;
	w->page_size = page_size;
	w->buf_pages = BUF_PAGES;
	w->buf = xmalloc(w->buf_pages * page_size);
	return 0;
}

void leaf_writer_free(struct leaf_writer *w)
{
	if (w->buf)
		close(w->fd);
	free(w->buf);
	free(w->maxkey);
	memset(w, 0, sizeof(*w));
}

static uint8_t *open_page(const struct leaf_writer *w)
{
	return w->buf + (w->nbuf - 1) * w->page_size;
}

static int flush(struct leaf_writer *w)
{
	if (w->nbuf == 0 || w->err)
		return w->err ? -1 : 0;
	w->err = write_all(w->fd, w->buf, w->nbuf * w->page_size, (off_t)(w->flushed * w->page_size));
	w->flushed += w->nbuf;
	w->nbuf = 0;
	return w->err ? -1 : 0;
}

static void close_leaf(struct leaf_writer *w)
{
	uint8_t *p = open_page(w);
	put16(p + 3, (uint32_t)w->ncells);
	put16(p + 5, w->content == 65536 ? 0 : w->content);
	w->maxkey = xgrow(w->maxkey, &w->cap, w->nkeys + 1, sizeof(*w->maxkey));
	w->maxkey[w->nkeys++] = w->last;
	w->ncells = 0;
}

static int new_leaf(struct leaf_writer *w)
{
	if (w->nbuf == w->buf_pages && flush(w))
		return -1;
	w->nbuf++;
	uint8_t *p = open_page(w);
	memset(p, 0, w->page_size);
	p[0] = LEAF_TABLE;
	w->content = w->page_size;
	return 0;
}

void leaf_writer_begin(struct leaf_writer *w)
{
	w->run_first = w->flushed + w->nbuf;
	w->ncells = 0;
	w->nkeys = 0;
}

int leaf_writer_add(struct leaf_writer *w, int64_t rowid, const uint8_t *record, size_t size)
{
	/* SQLite keeps a record on its leaf up to usable size - 35 bytes. */
	if (size > w->page_size - 35)
		return 1;
	size_t cell = (size_t)varint_len(size) + (size_t)varint_len((uint64_t)rowid) + size;
	if (w->ncells > 0 && ((w->max_cells && w->ncells >= w->max_cells) ||
			      8 + 2 * (size_t)(w->ncells + 1) + cell > w->content)) {
		close_leaf(w);
	}
	if (w->ncells == 0 && new_leaf(w))
		return -1;
	uint8_t *p = open_page(w);
	w->content -= (uint32_t)cell;
	uint8_t *c = p + w->content;
	c += put_varint(c, size);
	c += put_varint(c, (uint64_t)rowid);
	memcpy(c, record, size);
	put16(p + 8 + 2 * w->ncells, w->content);
	w->ncells++;
	w->last = rowid;
	return 0;
}

int leaf_writer_end(struct leaf_writer *w, struct leaf_run *run)
{
	if (w->ncells > 0)
		close_leaf(w);
	*run = (struct leaf_run){ .w = w, .first = w->run_first, .n = w->nkeys, .maxkey = w->maxkey };
	w->maxkey = NULL;
	w->nkeys = w->cap = 0;
	int rc = flush(w);
	/* The run is the caller's: a drop before the next begin keeps it. */
	w->run_first = w->flushed + w->nbuf;
	return rc;
}

void leaf_writer_drop(struct leaf_writer *w)
{
	if (w->run_first >= w->flushed) {
		w->nbuf = (size_t)(w->run_first - w->flushed);
	} else {
		w->nbuf = 0;
		w->flushed = w->run_first;
	}
	w->ncells = 0;
	w->nkeys = 0;
}

void leaf_run_free(struct leaf_run *run)
{
	free(run->maxkey);
	memset(run, 0, sizeof(*run));
}

int btree_file_open(struct btree_file *f, const char *path)
{
	memset(f, 0, sizeof(*f));
	uint8_t h[100];
	struct stat st;
	f->fd = open(path, O_RDWR | O_CLOEXEC);
	if (f->fd < 0)
		return -1;
	int e = read_all(f->fd, h, sizeof(h), 0);
	if (e == 0 && fstat(f->fd, &st) != 0)
		e = errno;
	uint32_t size = (uint32_t)h[16] << 8 | h[17];
	size = size == 1 ? 65536 : size;
	/* Reserved bytes or auto-vacuum's pointer maps: not written here. */
	if (e == 0 && (memcmp(h, "SQLite format 3", 16) != 0 || size < 512 || (size & (size - 1)) ||
		       h[20] != 0 || get32(h + 52) != 0 || st.st_size % size != 0))
		e = EINVAL;
	if (e) {
		close(f->fd);
		f->fd = -1;
		errno = e;
		return -1;
	}
	f->page_size = size;
	f->npages = (uint32_t)(st.st_size / size);
	return 0;
}

static uint32_t new_page(struct btree_file *f)
{
	uint32_t n = ++f->npages;
	if (n == pending_byte / f->page_size + 1)
		n = ++f->npages;
	return n;
}

static int put_page(struct btree_file *f, uint32_t pgno, const uint8_t *p)
{
	if (!f->err)
		f->err = write_all(f->fd, p, f->page_size, (off_t)(pgno - 1) * f->page_size);
	return f->err ? -1 : 0;
}

/* Pages of the level being built on: their numbers and largest keys. */
struct level {
	uint32_t *pgno;
	int64_t *key;
	size_t n;
};

/* Copy the runs' leaves after the file's last page. */
static int place_leaves(struct btree_file *f, const struct leaf_run *runs, size_t nruns, struct level *lv)
{
	uint8_t *buf = xmalloc((size_t)COPY_PAGES * f->page_size);
	for (size_t r = 0; r < nruns && !f->err; r++) {
		const struct leaf_run *run = &runs[r];
		for (size_t i = 0; i < run->n && !f->err; i += COPY_PAGES) {
			size_t m = run->n - i < COPY_PAGES ? run->n - i : COPY_PAGES;
			f->err = read_all(run->w->fd, buf, m * f->page_size,
					  (off_t)((run->first + i) * f->page_size));
			/* Written page by page only where the lock page splits them. */
			size_t from = 0;
			uint32_t first = 0;
			for (size_t j = 0; j < m && !f->err; j++) {
				uint32_t pg = new_page(f);
				if (j == 0)
					first = pg;
				else if (pg != first + (uint32_t)(j - from)) {
					f->err = write_all(f->fd, buf + from * f->page_size,
							   (j - from) * f->page_size,
							   (off_t)(first - 1) * f->page_size);
					from = j;
					first = pg;
				}
				lv->pgno[lv->n] = pg;
				lv->key[lv->n++] = run->maxkey[i + j];
			}
			if (!f->err)
				f->err =
					write_all(f->fd, buf + from * f->page_size, (m - from) * f->page_size,
						  (off_t)(first - 1) * f->page_size);
		}
	}
	free(buf);
	return f->err ? -1 : 0;
}

/* How many children each interior page of the next level takes: as many
 * as fit, and never one alone (a page needs a cell besides its right
 * child), so the last page borrows from the one before. */
static size_t group(const struct btree_file *f, const struct level *lv, size_t *sizes)
{
	size_t cap = f->page_size - 12, ngroups = 0;
	size_t most = f->max_children >= 3 ? (size_t)f->max_children : SIZE_MAX;
	for (size_t i = 0; i < lv->n;) {
		size_t m = 1, used = 0;
		while (i + m < lv->n && m < most) {
			size_t cell = 2 + 4 + (size_t)varint_len((uint64_t)lv->key[i + m - 1]);
			if (used + cell > cap)
				break;
			used += cell;
			m++;
		}
		sizes[ngroups++] = m;
		i += m;
	}
	if (ngroups > 1 && sizes[ngroups - 1] == 1) {
		sizes[ngroups - 2]--;
		sizes[ngroups - 1]++;
	}
	return ngroups;
}

static void interior_page(const struct btree_file *f, const struct level *lv, size_t from, size_t m,
			  uint8_t *p)
{
	memset(p, 0, f->page_size);
	p[0] = INTERIOR_TABLE;
	uint32_t content = f->page_size;
	for (size_t j = 0; j + 1 < m; j++) {
		uint8_t cell[13];
		put32(cell, lv->pgno[from + j]);
		size_t len = 4 + (size_t)put_varint(cell + 4, (uint64_t)lv->key[from + j]);
		content -= (uint32_t)len;
		memcpy(p + content, cell, len);
		put16(p + 12 + 2 * j, content);
	}
	put16(p + 3, (uint32_t)(m - 1));
	put16(p + 5, content == 65536 ? 0 : content);
	put32(p + 8, lv->pgno[from + m - 1]);
}

/* Interior levels until one page is left: that one goes at root. */
static int build_up(struct btree_file *f, uint32_t root, struct level *lv)
{
	uint8_t *p = xmalloc(f->page_size);
	size_t *sizes = xmalloc_array(lv->n, sizeof(*sizes));
	while (!f->err) {
		size_t ngroups = group(f, lv, sizes), from = 0;
		for (size_t g = 0; g < ngroups && !f->err; g++) {
			interior_page(f, lv, from, sizes[g], p);
			uint32_t pg = ngroups == 1 ? root : new_page(f);
			put_page(f, pg, p);
			/* The level shrinks in place: entry g is written after entries
			 * up to from + sizes[g] - 1 >= g were read. */
			int64_t key = lv->key[from + sizes[g] - 1];
			lv->pgno[g] = pg;
			lv->key[g] = key;
			from += sizes[g];
		}
		lv->n = ngroups;
		if (ngroups == 1)
			break;
	}
	free(sizes);
	free(p);
	return f->err ? -1 : 0;
}

int btree_place(struct btree_file *f, uint32_t root, const struct leaf_run *runs, size_t nruns)
{
	size_t total = 0;
	for (size_t r = 0; r < nruns; r++)
		total += runs[r].n;
	if (total == 0)
		return 0;
	if (total == 1) {
		/* A single leaf is the root itself. */
		uint8_t *p = xmalloc(f->page_size);
		for (size_t r = 0; r < nruns; r++)
			if (runs[r].n == 1)
				f->err = read_all(runs[r].w->fd, p, f->page_size,
						  (off_t)(runs[r].first * f->page_size));
		put_page(f, root, p);
		free(p);
		return f->err ? -1 : 0;
	}
	struct level lv = { xmalloc_array(total, sizeof(*lv.pgno)), xmalloc_array(total, sizeof(*lv.key)),
			    0 };
	int rc = place_leaves(f, runs, nruns, &lv);
	if (rc == 0)
		rc = build_up(f, root, &lv);
	free(lv.pgno);
	free(lv.key);
	return rc;
}

int btree_file_close(struct btree_file *f)
{
	uint8_t h[100];
	if (!f->err)
		f->err = read_all(f->fd, h, sizeof(h), 0);
	if (!f->err) {
		/* The page count is trusted when the change counter matches the
		 * "version valid for" number: both move on together. */
		uint32_t counter = get32(h + 24) + 1;
		put32(h + 24, counter);
		put32(h + 28, f->npages);
		put32(h + 92, counter);
		f->err = write_all(f->fd, h, sizeof(h), 0);
	}
	if (close(f->fd) != 0 && !f->err)
		f->err = errno;
	f->fd = -1;
	if (f->err) {
		errno = f->err;
		return -1;
	}
	return 0;
}
