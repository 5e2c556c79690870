#include "config.h"
#include "load/instream.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/i18n.h"
#include "util/xalloc.h"

static int is_gzip(const unsigned char *p, size_t n)
{
	return n >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

/* Read what the file has, up to n bytes: less only at its end. */
static ssize_t read_full(int fd, unsigned char *p, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, p + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

static int read_error(struct instream *s, struct rpd_error *err)
{
	return err_set(err, "%s: %s", s->path, strerror(errno));
}

/* More compressed bytes after those not inflated yet. */
static int fill(struct instream *s, struct rpd_error *err)
{
	if (s->eof)
		return 0;
	if (s->z.avail_in > 0 && s->z.next_in != s->buf)
		memmove(s->buf, s->z.next_in, s->z.avail_in);
	s->z.next_in = s->buf;
	ssize_t r = read_full(s->fd, s->buf + s->z.avail_in, INSTREAM_CHUNK - s->z.avail_in);
	if (r < 0)
		return read_error(s, err);
	if ((size_t)r < INSTREAM_CHUNK - s->z.avail_in)
		s->eof = 1;
	s->z.avail_in += (uInt)r;
	return 0;
}

int instream_open(struct instream *s, const char *path, struct rpd_error *err)
{
	memset(s, 0, sizeof(*s));
	s->path = path;
	s->fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;
	if (s->fd < 0)
		return err_set(err, "%s: %s", path, strerror(errno));
	if (fstat(s->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(s->fd);
		return err_set(err, _("%s: not a regular file"), path);
	}
	/* A regular file never blocks; reads wait for nothing. */
	fcntl(s->fd, F_SETFL, fcntl(s->fd, F_GETFL) & ~O_NONBLOCK);
	s->st = st;
	s->file_size = (uint64_t)st.st_size;
	s->buf = xmalloc(INSTREAM_CHUNK);
	s->z.next_in = s->buf;
	if (fill(s, err)) {
		instream_close(s);
		return -1;
	}
	s->gz = is_gzip(s->buf, s->z.avail_in);
	s->cap = s->file_size > (UINT64_MAX - 1) / INSTREAM_RATIO ? UINT64_MAX - 1
								  : s->file_size * INSTREAM_RATIO;
	if (s->cap < INSTREAM_FLOOR)
		s->cap = INSTREAM_FLOOR;
	/* 16 + the window's bits: a gzip header and trailer (its CRC and
	 * length checked). */
	if (s->gz && inflateInit2(&s->z, 16 + MAX_WBITS) != Z_OK) {
		instream_close(s);
		return err_set(err, _("%s: cannot start inflating"), path);
	}
	return 0;
}

void instream_close(struct instream *s)
{
	if (s->gz)
		inflateEnd(&s->z);
	if (s->fd >= 0)
		close(s->fd);
	free(s->buf);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

/* The bytes read at open, then the rest of the file. */
static ssize_t read_plain(struct instream *s, unsigned char *out, size_t n, struct rpd_error *err)
{
	if (s->z.avail_in > 0) {
		size_t k = s->z.avail_in < n ? s->z.avail_in : n;
		memcpy(out, s->z.next_in, k);
		s->z.next_in += k;
		s->z.avail_in -= (uInt)k;
		return (ssize_t)k;
	}
	if (s->eof)
		return 0;
	ssize_t r = read_full(s->fd, out, n);
	if (r < 0)
		return read_error(s, err);
	if ((size_t)r < n)
		s->eof = 1;
	return r;
}

static int too_big(struct instream *s, struct rpd_error *err)
{
	return err_set(err,
		       _("%s: inflates to more than %llu bytes (%d times its compressed size, at least "
			 "%llu MiB): refused as a likely gzip bomb"),
		       s->path, (unsigned long long)s->cap, INSTREAM_RATIO,
		       (unsigned long long)(INSTREAM_FLOOR >> 20));
}

static ssize_t read_gz(struct instream *s, unsigned char *out, size_t n, struct rpd_error *err)
{
	for (;;) {
		if (s->z.avail_in < 2 && !s->eof && fill(s, err))
			return -1;
		if (s->member_done) {
			if (s->z.avail_in == 0)
				return 0;
			/* Concatenated gzip files are one stream (as gzip -d reads them). */
			if (!is_gzip(s->z.next_in, s->z.avail_in))
				return err_set(err, _("%s: data after the end of the gzip stream"), s->path);
			if (inflateReset(&s->z) != Z_OK)
				return err_set(err, _("%s: corrupt gzip data"), s->path);
			s->member_done = 0;
		}
		if (s->z.avail_in == 0)
			return err_set(err, _("%s: truncated gzip data"), s->path);
		uint64_t room = s->cap - s->out_total + 1;
		size_t want = room < n ? (size_t)room : n;
		s->z.next_out = out;
		s->z.avail_out = (uInt)(want > UINT32_MAX ? UINT32_MAX : want);
		uInt before = s->z.avail_out, in_before = s->z.avail_in;
		int rc = inflate(&s->z, Z_NO_FLUSH);
		size_t got = before - s->z.avail_out;
		s->out_total += got;
		if (s->out_total > s->cap)
			return too_big(s, err);
		if (rc == Z_STREAM_END)
			s->member_done = 1;
		else if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT)
			return err_set(err, _("%s: corrupt gzip data (%s)"), s->path,
				       s->z.msg ? s->z.msg : "?");
		else if (rc == Z_MEM_ERROR)
			return err_set(err, _("%s: out of memory inflating"), s->path);
		else if (rc != Z_OK && rc != Z_BUF_ERROR)
			return err_set(err, _("%s: corrupt gzip data"), s->path);
		if (got > 0)
			return (ssize_t)got;
		/* Nothing came of the bytes there: more are needed. */
		if (!s->member_done && s->z.avail_in == in_before && s->eof)
			return err_set(err, _("%s: truncated gzip data"), s->path);
		if (!s->member_done && s->z.avail_in == in_before && fill(s, err))
			return -1;
	}
}

ssize_t instream_read(struct instream *s, void *buf, size_t n, struct rpd_error *err)
{
	if (n == 0)
		return 0;
	return s->gz ? read_gz(s, buf, n, err) : read_plain(s, buf, n, err);
}

int instream_find(const char *path, const char *const *texts, size_t ntexts, size_t budget)
{
	struct instream s;
	struct rpd_error err;
	size_t longest = 0;
	for (size_t k = 0; k < ntexts; k++)
		if (strlen(texts[k]) > longest)
			longest = strlen(texts[k]);
	if (longest == 0 || longest > INSTREAM_CHUNK || instream_open(&s, path, &err))
		return 0;
	/* A window of one chunk plus what may straddle its end. */
	char *buf = xmalloc(INSTREAM_CHUNK + longest + 1);
	size_t kept = 0, seen = 0;
	int found = 0;
	while (!found && seen < budget) {
		ssize_t r = instream_read(&s, buf + kept, INSTREAM_CHUNK, &err);
		if (r <= 0)
			break;
		size_t n = kept + (size_t)r;
		buf[n] = '\0';
		for (size_t k = 0; !found && k < ntexts; k++)
			if (memmem(buf, n, texts[k], strlen(texts[k])))
				found = (int)k + 1;
		kept = n < longest - 1 ? n : longest - 1;
		memmove(buf, buf + n - kept, kept);
		seen += (size_t)r;
	}
	free(buf);
	instream_close(&s);
	return found;
}
