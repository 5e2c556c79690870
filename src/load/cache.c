#include "config.h"
#include "load/cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "load/cache_format.h"
#include "load/rpd.h"
#include "trace/api_order.h"
#include "util/hash64.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* The bytes of an input hashed into its stamp: SQLite's header (with its
 * change counter) and the rest of the first page. */
#define FIRST_PAGE 4096
/* Temporary files older than this were left by a process that died. */
#define STALE_TMP_SECONDS (24 * 3600)

static int enabled = 1;
static uint64_t cap = CACHE_DEFAULT_CAP;

void cache_configure(int on, uint64_t bytes)
{
	enabled = on;
	cap = bytes;
}

struct cache_entry {
	char *dir;    /* the cache directory */
	char *name;   /* the file's name in it, without its level */
	char *key;    /* the inputs and their stamps */
	char **paths; /* the inputs, stamped again before writing */
	size_t n;
	int same_node;
	int level; /* enum cache_level: what the load read */
};

struct text {
	char *p;
	size_t n, cap;
};

static void add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	t->p = xgrow(t->p, &t->cap, t->n + (size_t)len + 1, 1);
	va_start(ap, fmt);
	vsnprintf(t->p + t->n, (size_t)len + 1, fmt, ap);
	va_end(ap);
	t->n += (size_t)len;
}

/* $RPDTOP_CACHE_DIR (empty: no cache), $XDG_CACHE_HOME/rpdtop (an
 * absolute one), ~/.cache/rpdtop; NULL for none. */
static char *cache_dir(void)
{
	const char *own = getenv("RPDTOP_CACHE_DIR");
	if (own)
		return *own ? xstrdup(own) : NULL;
	struct text t = { 0 };
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	if (xdg && xdg[0] == '/')
		add(&t, "%s/rpdtop", xdg);
	else if (home && home[0] == '/')
		add(&t, "%s/.cache/rpdtop", home);
	return t.p;
}

/* A file's size, time and place, "-" when it is not there. */
static void add_stat(struct text *t, const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		add(t, " -");
		return;
	}
	add(t, " %lld %lld.%09ld %llu %llu", (long long)st.st_size, (long long)st.st_mtim.tv_sec,
	    (long)st.st_mtim.tv_nsec, (unsigned long long)st.st_ino, (unsigned long long)st.st_dev);
}

/* An input's stamp: itself, the hash of its first page, and the journal
 * or log beside it (a commit in a log leaves the file as it was). */
static int add_stamp(struct text *t, const char *path)
{
	unsigned char page[FIRST_PAGE];
	struct stat st;
	/* Only a regular file stays as it was read (a FIFO would even block
	 * the open): anything else is read as before, without the cache. */
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -1;
	ssize_t got = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? pread(fd, page, sizeof(page), 0) : -1;
	close(fd);
	if (got < 0)
		return -1;
	add_stat(t, path);
	add(t, " %016llx", (unsigned long long)hash64(page, (size_t)got, 0));
	const char *beside[] = { "-wal", "-journal" };
	for (size_t i = 0; i < 2; i++) {
		struct text other = { 0 };
		add(&other, "%s%s", path, beside[i]);
		add_stat(t, other.p);
		free(other.p);
	}
	return 0;
}

/* The inputs as named and as found (the name of the file: its hash), and
 * with stamps (the key a file must hold). -1 when an input cannot be
 * stamped. */
static int make_key(char *const *paths, size_t n, int same_node, char **name, char **key)
{
	struct text id = { 0 }, k = { 0 };
	add(&id, "rpdtop cache %d\nsame node %d\n", CACHE_VERSION, same_node);
	for (size_t i = 0; i < n; i++) {
		char *real = realpath(paths[i], NULL);
		add(&id, "%zu %s\n%zu %s\n", strlen(paths[i]), paths[i], real ? strlen(real) : 0,
		    real ? real : "");
		free(real);
	}
	add(&k, "%s", id.p);
	for (size_t i = 0; i < n; i++) {
		add(&k, "stamp %zu", i);
		if (add_stamp(&k, paths[i])) {
			free(id.p);
			free(k.p);
			return -1;
		}
		add(&k, "\n");
	}
	struct text nm = { 0 };
	add(&nm, "%016llx", (unsigned long long)hash64(id.p, id.n, 0));
	free(id.p);
	*name = nm.p;
	*key = k.p;
	return 0;
}

static int level_of(unsigned what)
{
	if (what & LOAD_APIS)
		return (what & LOAD_LAUNCHES) ? CACHE_LAUNCHES : CACHE_ALL;
	return (what & LOAD_NO_OP_IDS) ? CACHE_NO_IDS : CACHE_OPS;
}

/* The files that serve a load of level, best first: its own, then those
 * with more, whose extra columns are left out. Calls of launches alone
 * are not all calls, nor the reverse. */
static size_t serving(int level, int want_all, int *out)
{
	static const int none[] = { CACHE_NO_IDS, CACHE_OPS, CACHE_ALL, CACHE_LAUNCHES };
	static const int ops[] = { CACHE_OPS, CACHE_ALL, CACHE_LAUNCHES };
	if (want_all) {
		out[0] = CACHE_ALL;
		return 1;
	}
	if (level == CACHE_NO_IDS) {
		memcpy(out, none, sizeof(none));
		return 4;
	}
	if (level == CACHE_OPS) {
		memcpy(out, ops, sizeof(ops));
		return 3;
	}
	out[0] = level;
	return 1;
}

static char *file_path(const char *dir, const char *name, int level)
{
	struct text t = { 0 };
	add(&t, "%s/%s-%d.rpdc", dir, name, level);
	return t.p;
}

void cache_entry_free(struct cache_entry *e)
{
	if (!e)
		return;
	free(e->dir);
	free(e->name);
	free(e->key);
	for (size_t i = 0; i < e->n; i++)
		free(e->paths[i]);
	free(e->paths);
	free(e);
}

/* mkdir -p, private to the user. */
static int make_dir(const char *dir)
{
	char *p = xstrdup(dir);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0700) != 0 && errno != EEXIST) {
			free(p);
			return -1;
		}
		*s = '/';
	}
	int rc = mkdir(p, 0700) != 0 && errno != EEXIST ? -1 : 0;
	free(p);
	return rc;
}

/* The directory the files live in: dir itself when the user owns it
 * and nobody else may write to it; else (a team's scratch space, a
 * directory like /tmp) the user's own rpdtop-UID in it, made 0700 and
 * taken only as a directory of the user's that nobody else can enter,
 * never through a link. NULL when neither is so. make: make rpdtop-UID
 * when it is needed (dir itself is the caller's to make). */
static char *own_dir(const char *dir, int make)
{
	struct stat st;
	uid_t me = geteuid();
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return NULL;
	if (st.st_uid == me && !(st.st_mode & (S_IWGRP | S_IWOTH)))
		return xstrdup(dir);
	struct text sub = { 0 };
	add(&sub, "%s/rpdtop-%lu", dir, (unsigned long)me);
	if (make && mkdir(sub.p, 0700) != 0 && errno != EEXIST) {
		free(sub.p);
		return NULL;
	}
	if (lstat(sub.p, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != me || (st.st_mode & 077)) {
		free(sub.p);
		return NULL;
	}
	return sub.p;
}

/* A regular file of the user's, opened without following a link or
 * waiting on a FIFO; -1 otherwise. */
static int open_own(int dirfd, const char *name, struct stat *st)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -1;
	if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode) || st->st_uid != geteuid()) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Did rpdtop write the file? Its first bytes say so. */
static int ours(int fd)
{
	char head[sizeof(CACHE_MAGIC) - 1];
	return pread(fd, head, sizeof(head), 0) == (ssize_t)sizeof(head) &&
	       memcmp(head, CACHE_MAGIC, sizeof(head)) == 0;
}

/* A hit: t from the file at path, when it is what it claims to be. Its
 * time is set to now: eviction takes the files used longest ago. */
static int try_file(struct trace *t, const char *path, int level, int want, const char *key)
{
	struct stat st;
	int fd = open_own(AT_FDCWD, path, &st);
	if (fd < 0)
		return 0;
	int hit = cache_format_read(fd, (size_t)st.st_size, t, level, want, key) == 0;
	if (hit)
		futimens(fd, NULL);
	close(fd);
	return hit;
}

int cache_load(struct trace *t, char *const *paths, size_t n, unsigned what, int same_node, int want_all,
	       struct cache_entry **entry)
{
	*entry = NULL;
	char *dir = enabled && (what & LOAD_OPS) && n > 0 ? cache_dir() : NULL;
	char *name, *key;
	if (!dir || make_key(paths, n, same_node, &name, &key)) {
		free(dir);
		return 0;
	}
	int level = level_of(what), levels[CACHE_LEVELS];
	size_t nlevels = serving(level, want_all, levels);
	char *own = own_dir(dir, 0);
	for (size_t i = 0; own && i < nlevels; i++) {
		char *path = file_path(own, name, levels[i]);
		/* The viewer takes every API row the file has: it reads them next. */
		int hit = try_file(t, path, levels[i], want_all ? CACHE_ALL : level, key);
		free(path);
		if (hit) {
			free(own);
			free(dir);
			free(name);
			free(key);
			return 1;
		}
	}
	free(own);
	struct cache_entry *e = xcalloc(1, sizeof(*e));
	*e = (struct cache_entry){
		.dir = dir, .name = name, .key = key, .n = n, .same_node = same_node, .level = level
	};
	e->paths = xmalloc_array(n, sizeof(*e->paths));
	for (size_t i = 0; i < n; i++)
		e->paths[i] = xstrdup(paths[i]);
	*entry = e;
	return 0;
}

struct cached {
	char *name;
	uint64_t size;
	struct timespec used;
};

static int by_use(const void *a, const void *b)
{
	const struct cached *x = a, *y = b;
	if (x->used.tv_sec != y->used.tv_sec)
		return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
	return (x->used.tv_nsec > y->used.tv_nsec) - (x->used.tv_nsec < y->used.tv_nsec);
}

static int ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);
	return n >= m && strcmp(s + n - m, end) == 0;
}

/* The oldest files go until the directory holds at most cap bytes;
 * temporary files of processes long gone go too. */
static void evict(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct cached *files = NULL;
	size_t n = 0, room = 0;
	uint64_t total = 0;
	time_t now = time(NULL);
	for (struct dirent *de; (de = readdir(d));) {
		struct stat st;
		int tmp = strncmp(de->d_name, ".tmp.", 5) == 0;
		if (!ends_with(de->d_name, ".rpdc"))
			continue;
		/* Only the user's files that rpdtop wrote (a file being written
		 * may not have its first bytes yet). */
		int fd = open_own(dirfd(d), de->d_name, &st), mine = fd >= 0 && (tmp || ours(fd));
		if (fd >= 0)
			close(fd);
		if (!mine)
			continue;
		if (tmp) {
			if (now - st.st_mtim.tv_sec > STALE_TMP_SECONDS)
				unlinkat(dirfd(d), de->d_name, 0);
			continue;
		}
		files = xgrow(files, &room, n + 1, sizeof(*files));
		files[n++] = (struct cached){ xstrdup(de->d_name), (uint64_t)st.st_size, st.st_mtim };
		total += (uint64_t)st.st_size;
	}
	qsort(files, n, sizeof(*files), by_use);
	for (size_t i = 0; i < n && total > cap; i++)
		if (unlinkat(dirfd(d), files[i].name, 0) == 0)
			total -= files[i].size;
	for (size_t i = 0; i < n; i++)
		free(files[i].name);
	free(files);
	closedir(d);
}

static int save_level(const struct cache_entry *e, const struct trace *t)
{
	/* API rows read after the ops (the viewer's) are every API row. */
	if (t->apis_read && e->level < CACHE_LAUNCHES)
		return CACHE_ALL;
	return e->level;
}

int cache_save(const struct cache_entry *e, const struct trace *t, const uint32_t *call_order,
	       const atomic_int *stop, struct rpd_error *err)
{
	char *name, *key;
	if (!e || cap == 0)
		return 0;
	/* An input that changed while it was read is not cached as it is now. */
	if (make_key(e->paths, e->n, e->same_node, &name, &key))
		return 0;
	int same = strcmp(key, e->key) == 0;
	free(name);
	free(key);
	if (!same)
		return 0;
	if (make_dir(e->dir))
		return err_set(err, _("cache %s: %s"), e->dir, strerror(errno));
	char *dir = own_dir(e->dir, 1);
	if (!dir)
		return err_set(err,
			       _("cache %s: others can write to it, and no directory of your own can be made "
				 "in it"),
			       e->dir);
	static atomic_uint serial;
	struct text tmp = { 0 };
	add(&tmp, "%s/.tmp.%ld.%u.rpdc", dir, (long)getpid(), atomic_fetch_add(&serial, 1));
	int level = save_level(e, t);
	char *path = file_path(dir, e->name, level);
	int rc = 0, saved = 0;
	int fd = open(tmp.p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		saved = errno;
	else if (cache_format_write(fd, t, call_order, level, e->key, stop) != 0)
		saved = errno;
	/* Closed once, whatever happened: the number may be another's next. */
	if (fd >= 0 && close(fd) != 0 && !saved)
		saved = errno;
	if (fd >= 0 && !saved && rename(tmp.p, path) != 0)
		saved = errno;
	if (saved) {
		if (fd >= 0)
			unlink(tmp.p);
		rc = saved == ECANCELED ? 0 : err_set(err, _("cache %s: %s"), dir, strerror(saved));
	}
	free(tmp.p);
	free(path);
	if (rc == 0)
		evict(dir);
	free(dir);
	return rc;
}

struct cache_job {
	pthread_t thread;
	struct cache_entry *e;
	const struct trace *t;
	const uint32_t *call_order;
	atomic_int stop;
};

static void *write_job(void *arg)
{
	struct cache_job *j = arg;
	struct rpd_error err;
	/* The file is for the next open: this one's work (the timeline's
	 * index, built meanwhile) goes first. Linux gives each thread its own
	 * nice value; elsewhere this may do nothing. */
#ifdef SYS_gettid
	(void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
#endif
	/* The calls not yet in order (read at once, not in the background)
	 * are put in order here, so that the file spares a reopen the sort. */
	struct api_order own = { 0 };
	if (!j->call_order && j->t->apis.n && !atomic_load(&j->stop)) {
		api_order_build(j->t, &own);
		j->call_order = own.rows;
	}
	/* Nobody to tell on this thread: the viewer has its screen. */
	cache_save(j->e, j->t, j->call_order, &j->stop, &err);
	api_order_free(&own);
	return NULL;
}

struct cache_job *cache_job_start(struct cache_entry *e, const struct trace *t, const uint32_t *call_order)
{
	if (!e)
		return NULL;
	struct cache_job *j = xcalloc(1, sizeof(*j));
	j->e = e;
	j->t = t;
	j->call_order = call_order;
	atomic_init(&j->stop, 0);
	if (pthread_create(&j->thread, NULL, write_job, j) != 0) {
		cache_entry_free(e);
		free(j);
		return NULL;
	}
	return j;
}

void cache_job_end(struct cache_job *j, int stop)
{
	if (!j)
		return;
	if (stop)
		atomic_store(&j->stop, 1);
	pthread_join(j->thread, NULL);
	cache_entry_free(j->e);
	free(j);
}
