#include "config.h"
#include "util/bytes.h"

#include <string.h>

#include "util/xalloc.h"

static unsigned char *room(struct bytes_out *b, size_t n)
{
	b->p = xgrow(b->p, &b->cap, b->n + n, 1);
	unsigned char *at = b->p + b->n;
	b->n += n;
	return at;
}

void bytes_put_u8(struct bytes_out *b, uint8_t v)
{
	*room(b, 1) = v;
}

void bytes_put_u32(struct bytes_out *b, uint32_t v)
{
	unsigned char *p = room(b, 4);
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

void bytes_put_u64(struct bytes_out *b, uint64_t v)
{
	unsigned char *p = room(b, 8);
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

void bytes_put_i64(struct bytes_out *b, int64_t v)
{
	bytes_put_u64(b, (uint64_t)v);
}

void bytes_put_i128(struct bytes_out *b, __int128 v)
{
	bytes_put_u64(b, (uint64_t)(unsigned __int128)v);
	bytes_put_u64(b, (uint64_t)((unsigned __int128)v >> 64));
}

void bytes_put_str(struct bytes_out *b, const char *s)
{
	if (!s) {
		bytes_put_u64(b, UINT64_MAX);
		return;
	}
	size_t n = strlen(s);
	bytes_put_u64(b, n);
	memcpy(room(b, n), s, n);
}

static const unsigned char *take(struct bytes_in *b, size_t n)
{
	if (b->bad || b->n - b->at < n) {
		b->bad = 1;
		return NULL;
	}
	const unsigned char *p = b->p + b->at;
	b->at += n;
	return p;
}

uint8_t bytes_get_u8(struct bytes_in *b)
{
	const unsigned char *p = take(b, 1);
	return p ? p[0] : 0;
}

uint32_t bytes_get_u32(struct bytes_in *b)
{
	const unsigned char *p = take(b, 4);
	uint32_t v = 0;
	for (int i = 0; p && i < 4; i++)
		v |= (uint32_t)p[i] << (8 * i);
	return v;
}

uint64_t bytes_get_u64(struct bytes_in *b)
{
	const unsigned char *p = take(b, 8);
	uint64_t v = 0;
	for (int i = 0; p && i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

int64_t bytes_get_i64(struct bytes_in *b)
{
	return (int64_t)bytes_get_u64(b);
}

__int128 bytes_get_i128(struct bytes_in *b)
{
	uint64_t lo = bytes_get_u64(b), hi = bytes_get_u64(b);
	return (__int128)((unsigned __int128)hi << 64 | lo);
}

char *bytes_get_str(struct bytes_in *b)
{
	uint64_t n = bytes_get_u64(b);
	if (b->bad || n == UINT64_MAX)
		return NULL;
	const unsigned char *p = take(b, n);
	if (!p || memchr(p, '\0', n)) {
		b->bad = 1;
		return NULL;
	}
	char *s = xmalloc(n + 1);
	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

uint64_t bytes_get_count(struct bytes_in *b, size_t size)
{
	uint64_t n = bytes_get_u64(b);
	if (!b->bad && size && n > (b->n - b->at) / size)
		b->bad = 1;
	return b->bad ? 0 : n;
}
