/* The frame and block formats are those of the LZ4 project's documents
 * (lz4_Frame_format.md, lz4_Block_format.md). Checksums are not verified:
 * the data come from a database whose own integrity SQLite checks. */
#include "config.h"
#include "util/lz4.h"

#define FRAME_MAGIC 0x184D2204u
#define SKIPPABLE_MASK 0xFFFFFFF0u
#define SKIPPABLE_MAGIC 0x184D2A50u

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A length continued by bytes of 255 (and one less than 255 to end). */
static int more_length(const uint8_t **p, const uint8_t *end, size_t *len)
{
	uint8_t b;
	do {
		if (*p >= end)
			return -1;
		b = *(*p)++;
		if (*len > SIZE_MAX - b)
			return -1;
		*len += b;
	} while (b == 255);
	return 0;
}

/* One block's sequences, appended at out[*at]; matches may reach back
 * into earlier blocks (their output precedes). */
static int decode_block(const uint8_t *p, const uint8_t *end, uint8_t *out, size_t cap, size_t *at)
{
	while (p < end) {
		uint8_t token = *p++;
		size_t lit = token >> 4;
		if (lit == 15 && more_length(&p, end, &lit))
			return -1;
		if (lit > (size_t)(end - p) || lit > cap - *at)
			return -1;
		for (size_t i = 0; i < lit; i++)
			out[*at + i] = p[i];
		*at += lit;
		p += lit;
		if (p == end)
			return 0; /* the last sequence has literals only */
		if (end - p < 2)
			return -1;
		size_t offset = (size_t)p[0] | (size_t)p[1] << 8;
		p += 2;
		size_t match = token & 15;
		if (match == 15 && more_length(&p, end, &match))
			return -1;
		match += 4;
		if (offset == 0 || offset > *at || match > cap - *at)
			return -1;
		/* Byte by byte: a match may overlap what it copies. */
		for (size_t i = 0; i < match; i++)
			out[*at + i] = out[*at - offset + i];
		*at += match;
	}
	return 0;
}

int lz4_frame_decode(const uint8_t *in, size_t n, uint8_t *out, size_t cap, size_t *len)
{
	const uint8_t *p = in, *end = in + n;
	*len = 0;
	while (end - p >= 4 && (le32(p) & SKIPPABLE_MASK) == SKIPPABLE_MAGIC) {
		if (end - p < 8 || le32(p + 4) > (size_t)(end - p - 8))
			return -1;
		p += 8 + le32(p + 4);
	}
	if (end - p < 7 || le32(p) != FRAME_MAGIC)
		return -1;
	uint8_t flg = p[4];
	if ((flg >> 6) != 1)
		return -1;
	int block_sum = flg & 0x10, content_size = flg & 0x08, content_sum = flg & 0x04, dict = flg & 0x01;
	size_t header = 7 + (content_size ? 8 : 0) + (dict ? 4 : 0);
	if ((size_t)(end - p) < header || dict)
		return -1; /* frames that need a dictionary are not ours */
	p += header;
	for (;;) {
		if (end - p < 4)
			return -1;
		uint32_t size = le32(p);
		p += 4;
		if (size == 0)
			break;
		uint32_t bytes = size & 0x7FFFFFFFu;
		if (bytes > (size_t)(end - p) || (block_sum && (size_t)(end - p) - bytes < 4))
			return -1;
		if (size & 0x80000000u) {
			if (bytes > cap - *len)
				return -1;
			for (uint32_t i = 0; i < bytes; i++)
				out[*len + i] = p[i];
			*len += bytes;
		} else if (decode_block(p, p + bytes, out, cap, len)) {
			return -1;
		}
		p += bytes + (block_sum ? 4 : 0);
	}
	return content_sum && end - p < 4 ? -1 : 0;
}
