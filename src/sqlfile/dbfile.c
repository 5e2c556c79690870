#include "config.h"
#include "sqlfile/dbfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sqlfile/btree_build.h"
#include "sqlfile/sqlguard.h"
#include "sqlfile/sqlrun.h"
#include "util/i18n.h"
#include "util/xalloc.h"

#define HEADER_SIZE 100
#define BUSY_TIMEOUT_MS 2000

struct header_info {
	int wal;           /* file format version bytes say WAL */
	uint64_t expected; /* bytes the header promises, 0 when unknown */
};

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Check the 100-byte SQLite header ourselves: SQLite treats an empty file as
 * an empty database and reports a cut file only when it reaches the cut. */
static int check_header(const char *path, const struct stat *st, struct header_info *info,
			struct rpd_error *err)
{
	unsigned char h[HEADER_SIZE];
	int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == EACCES)
		return err_set(err, _("%s: permission denied"), path);
	if (fd < 0)
		return err_set(err, "%s: %s", path, strerror(errno));
	ssize_t got = read(fd, h, sizeof(h));
	int saved = errno;
	close(fd);
	if (got < 0)
		return err_set(err, "%s: %s", path, strerror(saved));
	if (st->st_size == 0)
		return err_set(err, _("%s: empty file, not an SQLite database"), path);
	if (got < HEADER_SIZE || memcmp(h, "SQLite format 3", 16) != 0)
		return err_set(err, _("%s: not an SQLite database"), path);

	uint32_t page_size = (uint32_t)h[16] << 8 | h[17];
	if (page_size == 1)
		page_size = 65536;
	uint32_t pages = be32(h + 28);
	info->wal = h[18] == 2 || h[19] == 2;
	/* The page count is only trustworthy when written by the same change. */
	info->expected = be32(h + 24) == be32(h + 92) ? (uint64_t)page_size * pages : 0;
	if (info->expected && (uint64_t)st->st_size < info->expected)
		return err_set(err, _("%s: truncated SQLite database (%lld of %llu bytes)"), path,
			       (long long)st->st_size, (unsigned long long)info->expected);
	return 0;
}

static int sibling_exists(const char *path, const char *suffix)
{
	size_t n = strlen(path) + strlen(suffix) + 1;
	char *p = xmalloc(n);
	snprintf(p, n, "%s%s", path, suffix);
	int exists = access(p, F_OK) == 0;
	free(p);
	return exists;
}

/* immutable=1 skips locking and change detection, so it is only used when
 * nothing can be writing. Two cases qualify:
 * - a WAL database without a -wal file: no writer has it open, and a plain
 *   read-only open would create -wal and -shm files beside the input;
 * - a file nobody may write, with no journal or WAL beside it. */
static int immutable_is_safe(const char *path, const struct stat *st, int wal)
{
	if (sibling_exists(path, "-wal"))
		return 0;
	if (wal)
		return 1;
	if (st->st_mode & (S_IWUSR | S_IWGRP | S_IWOTH))
		return 0;
	return !sibling_exists(path, "-journal");
}

/* A file: URI; characters with a meaning in URIs are percent-encoded. */
static char *make_uri(const char *path, int immutable)
{
	size_t n = strlen(path);
	char *uri = xmalloc(n * 3 + 64);
	char *o = uri + sprintf(uri, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (*p == '%' || *p == '?' || *p == '#' || *p < 0x20 || *p >= 0x7f)
			o += sprintf(o, "%%%02X", *p);
		else
			*o++ = (char)*p;
	}
	strcpy(o, immutable ? "?mode=ro&immutable=1" : "?mode=ro");
	return uri;
}

int dbfile_error(sqlite3 *db, int rc, const char *path, struct rpd_error *err)
{
	switch (rc & 0xff) {
	case SQLITE_NOTADB:
		return err_set(err, _("%s: not an SQLite database"), path);
	case SQLITE_CORRUPT:
		return err_set(err, _("%s: corrupt or truncated database (%s)"), path, sqlite3_errmsg(db));
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return err_set(err, _("%s: database is locked by another process"), path);
	case SQLITE_CANTOPEN:
		return err_set(err, _("%s: cannot open the database read-only (%s)"), path,
			       db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
	case SQLITE_NOMEM:
		return err_set(err, _("%s: out of memory"), path);
	default:
		return err_set(err, "%s: %s", path, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
	}
}

static int check_file(const char *path, struct stat *st, struct rpd_error *err)
{
	if (stat(path, st) != 0) {
		if (errno == ENOENT)
			return err_set(err, _("%s: no such file"), path);
		if (errno == EACCES)
			return err_set(err, _("%s: permission denied"), path);
		return err_set(err, "%s: %s", path, strerror(errno));
	}
	if (S_ISDIR(st->st_mode))
		return err_set(err, _("%s: is a directory"), path);
	/* A FIFO or device would block or never end: refuse before opening. */
	if (!S_ISREG(st->st_mode))
		return err_set(err, _("%s: not a regular file"), path);
	if (access(path, R_OK) != 0)
		return err_set(err, _("%s: permission denied"), path);
	return 0;
}

char *dbfile_uri(const char *path, struct rpd_error *err)
{
	struct stat st;
	struct header_info info = { 0 };
	if (check_file(path, &st, err) || check_header(path, &st, &info, err))
		return NULL;
	return make_uri(path, immutable_is_safe(path, &st, info.wal));
}

int dbfile_open(const char *path, sqlite3 **out, struct rpd_error *err)
{
	*out = NULL;
	char *uri = dbfile_uri(path, err);
	if (!uri)
		return -1;
	sqlite3 *db = NULL;
	int rc =
		sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, NULL);
	free(uri);
	if (rc == SQLITE_OK) {
		sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);
		sqlite3_extended_result_codes(db, 1);
		/* Before the schema is read: its views and triggers are the file's
		 * word, not ours. */
		rc = sqlguard_harden(db);
	}
	/* Reading the schema is when SQLite notices a bad file. */
	if (rc == SQLITE_OK)
		rc = sql_run_script(db, "SELECT count(*) FROM sqlite_master");
	if (rc != SQLITE_OK) {
		dbfile_error(db, rc, path, err);
		sqlite3_close(db);
		return -1;
	}
	*out = db;
	return 0;
}

/* Run one statement of our own to its end. */
static int run(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		;
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int dbfile_read_begin(sqlite3 *db)
{
	int rc = run(db, "BEGIN");
	/* BEGIN defers the lock to the first read: read now. */
	if (rc == SQLITE_OK && (rc = run(db, "SELECT count(*) FROM sqlite_master")) != SQLITE_OK)
		run(db, "ROLLBACK");
	return rc;
}

void dbfile_read_end(sqlite3 *db)
{
	if (!sqlite3_get_autocommit(db))
		run(db, "COMMIT");
}

void sqlfile_test_knobs(void)
{
	const char *v = getenv("RPDTOP_TEST_PENDING_BYTE");
	if (!v || !*v)
		return;
	unsigned long offset = strtoul(v, NULL, 0);
	if (offset == 0 || offset > 0x40000000ul)
		return;
	sqlite3_test_control(SQLITE_TESTCTRL_PENDING_BYTE, (unsigned int)offset);
	btree_set_pending_byte((uint32_t)offset);
}
