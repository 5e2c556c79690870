/* A file read as a stream of bytes, in chunks: as it is, or inflated when
 * it is gzip-compressed (told by its first bytes, never by its name).
 * Memory stays the same whatever the file's size: one buffer of
 * compressed bytes and zlib's window.
 *
 * A gzip file may inflate to at most INSTREAM_RATIO times its own size,
 * and always to INSTREAM_FLOOR bytes: text compresses some 10 to 30
 * times, a gzip bomb (a small file of a huge run of one byte) some 1000
 * times; reading stops with an error at the cap. */
#ifndef RPDTOP_INSTREAM_H
#define RPDTOP_INSTREAM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <zlib.h>

#include "util/error.h"

#define INSTREAM_RATIO 100
#define INSTREAM_FLOOR ((uint64_t)64 << 20)
#define INSTREAM_CHUNK ((size_t)1 << 16)

struct instream {
	const char *path;
	int fd;
	int gz;             /* gzip members, inflated */
	int member_done;    /* the last member ended: more input starts another */
	z_stream z;         /* gz */
	unsigned char *buf; /* gz: compressed bytes read, not yet inflated */
	uint64_t file_size, out_total, cap;
	int eof;        /* no more bytes from the file */
	struct stat st; /* the file as opened */
};

/* Open path (a regular file) for reading. 0, or -1 with *err naming it. */
int instream_open(struct instream *s, const char *path, struct rpd_error *err);
/* Up to n bytes of the content into buf: how many, 0 at its end, or -1
 * with *err naming the file (truncated or corrupt gzip data, the cap). */
ssize_t instream_read(struct instream *s, void *buf, size_t n, struct rpd_error *err);
void instream_close(struct instream *s);

/* Does one of the texts appear within the first budget bytes of path's
 * content (inflated)? The index of the first found plus 1, else 0 (also
 * when the file cannot be read: its reading would say why). */
int instream_find(const char *path, const char *const *texts, size_t ntexts, size_t budget);

#endif
