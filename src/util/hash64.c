#include "config.h"
#include "util/hash64.h"

#include <string.h>

#define P1 11400714785074694791ull
#define P2 14029467366897019727ull
#define P3 1609587929392839161ull
#define P4 9650029242287828579ull
#define P5 2870177450012600261ull

static inline uint64_t rotl(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

static inline uint64_t read64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t read32(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint64_t round64(uint64_t acc, uint64_t in)
{
	return rotl(acc + in * P2, 31) * P1;
}

static inline uint64_t merge64(uint64_t acc, uint64_t v)
{
	return (acc ^ round64(0, v)) * P1 + P4;
}

uint64_t hash64(const void *data, size_t n, uint64_t seed)
{
	/* No bytes may come as NULL (an absent column): no pointer moves off it. */
	static const unsigned char none[1];
	const unsigned char *p = n ? data : none, *end = p + n;
	uint64_t h;
	if (n >= 32) {
		uint64_t v1 = seed + P1 + P2, v2 = seed + P2, v3 = seed, v4 = seed - P1;
		for (const unsigned char *limit = end - 32; p <= limit; p += 32) {
			v1 = round64(v1, read64(p));
			v2 = round64(v2, read64(p + 8));
			v3 = round64(v3, read64(p + 16));
			v4 = round64(v4, read64(p + 24));
		}
		h = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18);
		h = merge64(merge64(merge64(merge64(h, v1), v2), v3), v4);
	} else {
		h = seed + P5;
	}
	h += (uint64_t)n;
	for (; p + 8 <= end; p += 8)
		h = rotl(h ^ round64(0, read64(p)), 27) * P1 + P4;
	if (p + 4 <= end) {
		h = rotl(h ^ (uint64_t)read32(p) * P1, 23) * P2 + P3;
		p += 4;
	}
	for (; p < end; p++)
		h = rotl(h ^ *p * P5, 11) * P1;
	h ^= h >> 33;
	h *= P2;
	h ^= h >> 29;
	h *= P3;
	h ^= h >> 32;
	return h;
}
