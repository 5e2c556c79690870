#include "config.h"
#include "sqlfile/dbfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
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
	int growing;       /* shorter than it promises, as a writer leaves it */
};

static int sibling_exists(const char *path, const char *suffix);
static int same_file(const struct stat *a, const struct stat *b);
static int too_many_files(const char *path, int e, struct rpd_error *err);

/* A writer (a commit, a checkpoint) writes page 1, whose header counts the
 * pages, before the pages that make the file longer: a file with a
 * journal or log beside it, or that moved since st, is being written. */
static int being_written(const char *path, const struct stat *st)
{
	struct stat now;
	return sibling_exists(path, "-wal") || sibling_exists(path, "-journal") || stat(path, &now) != 0 ||
	       !same_file(st, &now);
}

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
	if (fd < 0 && (errno == EMFILE || errno == ENFILE))
		return too_many_files(path, errno, err);
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
	if (info->expected && (uint64_t)st->st_size < info->expected) {
		/* Not cut: SQLite reads it under its locks, once the writer is done. */
		if (being_written(path, st)) {
			info->growing = 1;
			return 0;
		}
		return err_set(err, _("%s: truncated SQLite database (%lld of %llu bytes)"), path,
			       (long long)st->st_size, (unsigned long long)info->expected);
	}
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

/* File times come from a clock that moves in ticks of a few ms: a change
 * in the tick of our stat may not show. A file changed less than this ago
 * is looked at again once the tick has passed. */
#define TICK_NS 50000000LL

static int64_t ns_of(struct timespec ts)
{
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int64_t since_change(const struct stat *st)
{
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	int64_t m = ns_of(st->st_mtim), c = ns_of(st->st_ctim);
	return ns_of(now) - (m > c ? m : c);
}

static int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       ns_of(a->st_mtim) == ns_of(b->st_mtim) && ns_of(a->st_ctim) == ns_of(b->st_ctim);
}

/* Make st a stamp a later change cannot hide from: 0, or 1 when the file
 * is being changed now. */
static int settle(const char *path, const struct stat *st)
{
	int64_t since = since_change(st);
	if (since >= TICK_NS)
		return 0;
	int64_t wait = TICK_NS - (since > 0 ? since : 0);
	struct timespec ts = { wait / 1000000000LL, wait % 1000000000LL };
	nanosleep(&ts, NULL);
	struct stat again;
	return stat(path, &again) != 0 || !same_file(st, &again);
}

/* immutable=1 skips SQLite's locks and change detection: a writer that
 * comes meanwhile (a commit or a checkpoint lands between two reads) is
 * not seen. So it is used only when no writer is there (no -wal or
 * -journal beside the file, no change in the last moment), and the file's
 * stamp is checked after the reading (dbfile_unchanged), the reading done
 * again when it changed. Without locks, a reader never holds a writer
 * off: a rollback-journal writer must wait for every shared lock to go
 * before it commits, and a profiler's writer may not wait long; a WAL
 * database read under locks would leave -wal and -shm files beside it. */
static int immutable_is_safe(const char *path, const struct stat *st)
{
	if (sibling_exists(path, "-wal") || sibling_exists(path, "-journal"))
		return 0;
	return !settle(path, st);
}

static void take_stamp(const struct stat *st, int unlocked, struct dbfile_stamp *stamp)
{
	if (!stamp)
		return;
	*stamp = (struct dbfile_stamp){ .unlocked = unlocked, .st = *st };
}

int dbfile_unchanged(const char *path, const struct dbfile_stamp *stamp, struct rpd_error *err)
{
	struct stat st;
	if (!stamp->unlocked || (stat(path, &st) == 0 && same_file(&st, &stamp->st)))
		return 0;
	return err_set(err, _("%s: changed while it was read (a profiler is writing it?)"), path);
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

/* Out of descriptors is no fault of the file: say what is short. */
static int too_many_files(const char *path, int e, struct rpd_error *err)
{
	struct rlimit rl;
	if (e == EMFILE && getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		return err_set(err,
			       _("%s: too many files open at once (ulimit -n is %llu): raise it, or "
				 "read fewer inputs at once with --jobs"),
			       path, (unsigned long long)rl.rlim_cur);
	return err_set(err, _("%s: too many files open on the system"), path);
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
		if (db && (sqlite3_system_errno(db) == EMFILE || sqlite3_system_errno(db) == ENFILE))
			return too_many_files(path, sqlite3_system_errno(db), err);
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

char *dbfile_uri(const char *path, unsigned flags, struct dbfile_stamp *stamp, struct rpd_error *err)
{
	struct stat st;
	struct header_info info = { 0 };
	if (check_file(path, &st, err) || check_header(path, &st, &info, err))
		return NULL;
	int immutable = !(flags & DBFILE_LOCKED) && !info.growing && immutable_is_safe(path, &st);
	take_stamp(&st, immutable, stamp);
	return make_uri(path, immutable);
}

int dbfile_open(const char *path, sqlite3 **out, struct rpd_error *err)
{
	/* No stamp to check the reading against: under SQLite's locks, so
	 * that a writer can never tear what is read (dbfile_read for the
	 * reading that never holds a writer off). */
	return dbfile_open_stamped(path, DBFILE_LOCKED, out, NULL, err);
}

static int open_uri(const char *path, char *uri, sqlite3 **out, struct rpd_error *err)
{
	*out = NULL;
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

int dbfile_open_stamped(const char *path, unsigned flags, sqlite3 **out, struct dbfile_stamp *stamp,
			struct rpd_error *err)
{
	*out = NULL;
	return open_uri(path, dbfile_uri(path, flags, stamp, err), out, err);
}

int dbfile_open_as(const char *path, const struct dbfile_stamp *as, sqlite3 **out, struct rpd_error *err)
{
	struct stat st;
	*out = NULL;
	if (check_file(path, &st, err))
		return -1;
	return open_uri(path, make_uri(path, as->unlocked), out, err);
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
