/* Results that travel between processes as bytes: a little-endian
 * writer that grows its buffer, and a reader that checks every length so
 * that a short or damaged buffer is an error, never a read past its end. */
#ifndef RPDTOP_UTIL_BYTES_H
#define RPDTOP_UTIL_BYTES_H

#include <stddef.h>
#include <stdint.h>

struct bytes_out {
	unsigned char *p;
	size_t n, cap;
};

struct bytes_in {
	const unsigned char *p;
	size_t n, at;
	int bad; /* a read went past the end or met a malformed value */
};

void bytes_put_u8(struct bytes_out *b, uint8_t v);
void bytes_put_u32(struct bytes_out *b, uint32_t v);
void bytes_put_u64(struct bytes_out *b, uint64_t v);
void bytes_put_i64(struct bytes_out *b, int64_t v);
/* Sums kept exact in 128 bits: two 64-bit halves, the low first. */
void bytes_put_i128(struct bytes_out *b, __int128 v);
/* A string by its content: its length, then its bytes (NULL: length ~0). */
void bytes_put_str(struct bytes_out *b, const char *s);

static inline void bytes_in_init(struct bytes_in *b, const unsigned char *p, size_t n)
{
	b->p = p;
	b->n = n;
	b->at = 0;
	b->bad = 0;
}

/* Reads return 0 once the reader is bad. */
uint8_t bytes_get_u8(struct bytes_in *b);
uint32_t bytes_get_u32(struct bytes_in *b);
uint64_t bytes_get_u64(struct bytes_in *b);
int64_t bytes_get_i64(struct bytes_in *b);
__int128 bytes_get_i128(struct bytes_in *b);
/* A string written by bytes_put_str, malloc'd (NULL for NULL or when bad). */
char *bytes_get_str(struct bytes_in *b);
/* A count of items of at least size bytes each that the rest can hold
 * (a larger count makes the reader bad and returns 0). */
uint64_t bytes_get_count(struct bytes_in *b, size_t size);

#endif
