#include "config.h"
#include "analysis/durstat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/satmath.h"
#include "util/sort.h"
#include "util/xalloc.h"

#define EXACT_BELOW (1u << (DURSTAT_BITS + 1))
#define FORMAT_EXACT 1
#define FORMAT_SKETCH 2

void durstat_init(struct durstat *s)
{
	memset(s, 0, sizeof(*s));
}

void durstat_free(struct durstat *s)
{
	free(s->v);
	free(s->pos);
	free(s->neg);
	memset(s, 0, sizeof(*s));
}

static uint64_t magnitude(int64_t d)
{
	return d < 0 ? 0 - (uint64_t)d : (uint64_t)d;
}

/* The bucket of a magnitude: itself below 2^(BITS+1), else its exponent
 * and the BITS bits after its leading one. */
static size_t bucket_of(uint64_t u)
{
	if (u < EXACT_BELOW)
		return (size_t)u;
	unsigned e = 63u - (unsigned)__builtin_clzll(u);
	return EXACT_BELOW + (size_t)(e - DURSTAT_BITS - 1) * (1u << DURSTAT_BITS) +
	       (size_t)((u >> (e - DURSTAT_BITS)) & ((1u << DURSTAT_BITS) - 1));
}

/* The midpoint of a bucket's magnitudes. */
static uint64_t bucket_mid(size_t b)
{
	if (b < EXACT_BELOW)
		return b;
	size_t k = b - EXACT_BELOW;
	unsigned e = (unsigned)(k >> DURSTAT_BITS) + DURSTAT_BITS + 1;
	uint64_t lo = ((uint64_t)(1u << DURSTAT_BITS) + (k & ((1u << DURSTAT_BITS) - 1)))
		      << (e - DURSTAT_BITS);
	return lo + ((uint64_t)1 << (e - DURSTAT_BITS - 1));
}

static void sketch_add(struct durstat *s, int64_t d, uint64_t count)
{
	uint64_t **side = d < 0 ? &s->neg : &s->pos;
	if (!*side)
		*side = xcalloc(DURSTAT_BUCKETS, sizeof(**side));
	(*side)[bucket_of(magnitude(d))] += count;
}

/* Past the limit the exact durations move into the sketch. */
static void to_sketch(struct durstat *s)
{
	if (s->pos)
		return;
	s->pos = xcalloc(DURSTAT_BUCKETS, sizeof(*s->pos));
	for (size_t i = 0; i < s->nv; i++)
		sketch_add(s, s->v[i], 1);
	free(s->v);
	s->v = NULL;
	s->nv = s->vcap = 0;
}

/* Σd² in 192 bits: a square is below 2^126, n below 2^64. */
static void add_square(uint64_t *sq, int64_t d, uint64_t times)
{
	unsigned __int128 m = magnitude(d), q = m * m;
	uint64_t part[4] = { 0 };
	/* q * times as 256 bits, then added limb by limb. */
	unsigned __int128 lo = (unsigned __int128)(uint64_t)q * times;
	unsigned __int128 hi = (unsigned __int128)(uint64_t)(q >> 64) * times;
	part[0] = (uint64_t)lo;
	unsigned __int128 mid = (lo >> 64) + (uint64_t)hi;
	part[1] = (uint64_t)mid;
	part[2] = (uint64_t)(mid >> 64) + (uint64_t)(hi >> 64);
	unsigned __int128 carry = 0;
	for (int i = 0; i < 3; i++) {
		carry += (unsigned __int128)sq[i] + part[i];
		sq[i] = (uint64_t)carry;
		carry >>= 64;
	}
}

static void add_sums(struct durstat *s, const uint64_t *sq)
{
	unsigned __int128 carry = 0;
	for (int i = 0; i < 3; i++) {
		carry += (unsigned __int128)s->sq[i] + sq[i];
		s->sq[i] = (uint64_t)carry;
		carry >>= 64;
	}
}

static void add_extremes(struct durstat *s, uint64_t n, int64_t min, int64_t max)
{
	if (!s->n || min < s->min)
		s->min = min;
	if (!s->n || max > s->max)
		s->max = max;
	s->n += n;
}

void durstat_add(struct durstat *s, int64_t d)
{
	add_extremes(s, 1, d, d);
	s->sum += d;
	add_square(s->sq, d, 1);
	s->sorted = 0;
	if (!s->pos && s->n > DURSTAT_EXACT_MAX)
		to_sketch(s);
	if (s->pos) {
		sketch_add(s, d, 1);
		return;
	}
	s->v = xgrow(s->v, &s->vcap, s->nv + 1, sizeof(*s->v));
	s->v[s->nv++] = d;
}

void durstat_merge(struct durstat *dst, const struct durstat *src)
{
	if (!src->n)
		return;
	add_extremes(dst, src->n, src->min, src->max);
	dst->sum += src->sum;
	add_sums(dst, src->sq);
	dst->sorted = 0;
	if (!dst->pos && !src->pos && dst->n <= DURSTAT_EXACT_MAX) {
		dst->v = xgrow(dst->v, &dst->vcap, dst->nv + src->nv, sizeof(*dst->v));
		memcpy(dst->v + dst->nv, src->v, src->nv * sizeof(*src->v));
		dst->nv += src->nv;
		return;
	}
	to_sketch(dst);
	if (!src->pos) {
		for (size_t i = 0; i < src->nv; i++)
			sketch_add(dst, src->v[i], 1);
		return;
	}
	for (size_t b = 0; b < DURSTAT_BUCKETS; b++)
		dst->pos[b] += src->pos[b];
	if (src->neg) {
		if (!dst->neg)
			dst->neg = xcalloc(DURSTAT_BUCKETS, sizeof(*dst->neg));
		for (size_t b = 0; b < DURSTAT_BUCKETS; b++)
			dst->neg[b] += src->neg[b];
	}
}

void durstat_finish(struct durstat *s)
{
	if (!s->sorted && s->nv)
		sort_int64(s->v, s->nv);
	s->sorted = 1;
}

static int64_t clamp(const struct durstat *s, int64_t v)
{
	return v < s->min ? s->min : v > s->max ? s->max : v;
}

static int64_t sketch_value(uint64_t mid, int negative)
{
	if (negative)
		return mid >= (uint64_t)1 << 63 ? INT64_MIN : -(int64_t)mid;
	return mid > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)mid;
}

int64_t percentile_nearest_rank(const int64_t *v, size_t n, unsigned pct)
{
	/* The rank in integers: ceil(0.9 * 10) must be 9, not 10. */
	size_t rank = (pct * n + 99) / 100;
	return v[rank ? rank - 1 : 0];
}

int64_t durstat_percentile(const struct durstat *s, unsigned pct)
{
	if (!s->n)
		return 0;
	if (!s->pos)
		return percentile_nearest_rank(s->v, s->nv, pct);
	/* The rank in integers, as percentile_nearest_rank takes it. */
	unsigned __int128 rank = ((unsigned __int128)pct * s->n + 99) / 100, seen = 0;
	/* The first and last ranks are the extremes, which are exact. */
	if (rank <= 1)
		return s->min;
	if (rank >= s->n)
		return s->max;
	for (size_t b = DURSTAT_BUCKETS; s->neg && b-- > 0;)
		if ((seen += s->neg[b]) >= rank)
			return clamp(s, sketch_value(bucket_mid(b), 1));
	for (size_t b = 0; b < DURSTAT_BUCKETS; b++)
		if ((seen += s->pos[b]) >= rank)
			return clamp(s, sketch_value(bucket_mid(b), 0));
	return s->max;
}

/* 256-bit unsigned numbers, lowest limb first. */
static void mul_256(const uint64_t *a, size_t na, const uint64_t *b, size_t nb, uint64_t *out)
{
	memset(out, 0, 4 * sizeof(*out));
	for (size_t i = 0; i < na; i++) {
		unsigned __int128 carry = 0;
		for (size_t j = 0; j < nb && i + j < 4; j++) {
			carry += (unsigned __int128)a[i] * b[j] + out[i + j];
			out[i + j] = (uint64_t)carry;
			carry >>= 64;
		}
		if (i + nb < 4)
			out[i + nb] = (uint64_t)carry;
	}
}

long double durstat_variance(const struct durstat *s)
{
	if (s->n == 0)
		return 0.0L;
	/* n * Σd² - (Σd)², exact in 256 bits, over n²: never negative. */
	unsigned __int128 m = s->sum < 0 ? 0 - (unsigned __int128)s->sum : (unsigned __int128)s->sum;
	uint64_t ms[2] = { (uint64_t)m, (uint64_t)(m >> 64) }, n[1] = { s->n };
	uint64_t a[4], b[4], d[4];
	mul_256(s->sq, 3, n, 1, a);
	mul_256(ms, 2, ms, 2, b);
	unsigned __int128 borrow = 0;
	for (int i = 0; i < 4; i++) {
		unsigned __int128 x = (unsigned __int128)a[i] - b[i] - borrow;
		d[i] = (uint64_t)x;
		borrow = (x >> 64) ? 1 : 0;
	}
	long double num;
	if (!d[3] && !d[2] && !(d[1] >> 63))
		num = (long double)(__int128)((unsigned __int128)d[1] << 64 | d[0]);
	else
		num = ldexpl((long double)d[3], 192) + ldexpl((long double)d[2], 128) +
		      ldexpl((long double)d[1], 64) + (long double)d[0];
	return num / ((long double)s->n * (long double)s->n);
}

int64_t durstat_std(const struct durstat *s)
{
	long double sd = sqrtl(durstat_variance(s));
	/* Durations of the range's ends apart: past what a duration can be. */
	return sd >= 0x1p63L - 0.5L ? INT64_MAX : (int64_t)llroundl(sd);
}

int64_t durstat_avg(const struct durstat *s)
{
	return s->n ? (int64_t)(s->sum / (__int128)s->n) : 0;
}

int64_t durstat_sum(const struct durstat *s)
{
	return sat_from128(s->sum);
}

int64_t durstat_excess(const struct durstat *s)
{
	/* Σ(d - min) is below n * 2^64 < 2^128: exact in unsigned wrap-around. */
	unsigned __int128 x = (unsigned __int128)s->sum - (unsigned __int128)s->n * (unsigned __int128)s->min;
	return x > (unsigned __int128)INT64_MAX ? INT64_MAX : (int64_t)x;
}

void durstat_encode(const struct durstat *s, struct bytes_out *b)
{
	bytes_put_u8(b, s->pos ? FORMAT_SKETCH : FORMAT_EXACT);
	bytes_put_u64(b, s->n);
	bytes_put_i64(b, s->min);
	bytes_put_i64(b, s->max);
	bytes_put_i128(b, s->sum);
	for (int i = 0; i < 3; i++)
		bytes_put_u64(b, s->sq[i]);
	if (!s->pos) {
		bytes_put_u64(b, s->nv);
		for (size_t i = 0; i < s->nv; i++)
			bytes_put_i64(b, s->v[i]);
		return;
	}
	/* Buckets in use only: (bucket, sign in the top bit) and count. */
	for (int side = 0; side < 2; side++) {
		const uint64_t *c = side ? s->neg : s->pos;
		uint32_t used = 0;
		for (size_t k = 0; c && k < DURSTAT_BUCKETS; k++)
			used += c[k] != 0;
		bytes_put_u32(b, used);
		for (size_t k = 0; c && k < DURSTAT_BUCKETS; k++) {
			if (!c[k])
				continue;
			bytes_put_u32(b, (uint32_t)k);
			bytes_put_u64(b, c[k]);
		}
	}
}

int durstat_decode(struct durstat *s, struct bytes_in *b)
{
	durstat_init(s);
	uint8_t format = bytes_get_u8(b);
	s->n = bytes_get_u64(b);
	s->min = bytes_get_i64(b);
	s->max = bytes_get_i64(b);
	s->sum = bytes_get_i128(b);
	for (int i = 0; i < 3; i++)
		s->sq[i] = bytes_get_u64(b);
	if (format == FORMAT_EXACT) {
		uint64_t nv = bytes_get_count(b, 8);
		if (b->bad || nv != s->n || nv > DURSTAT_EXACT_MAX)
			return b->bad = 1, -1;
		s->v = xmalloc_array(nv ? nv : 1, sizeof(*s->v));
		s->nv = s->vcap = nv;
		for (size_t i = 0; i < nv; i++)
			s->v[i] = bytes_get_i64(b);
		return b->bad ? -1 : 0;
	}
	if (format != FORMAT_SKETCH)
		return b->bad = 1, -1;
	s->pos = xcalloc(DURSTAT_BUCKETS, sizeof(*s->pos));
	uint64_t total = 0;
	for (int side = 0; side < 2 && !b->bad; side++) {
		uint32_t used = bytes_get_u32(b);
		for (uint32_t i = 0; i < used && !b->bad; i++) {
			uint32_t k = bytes_get_u32(b);
			uint64_t count = bytes_get_u64(b);
			if (k >= DURSTAT_BUCKETS) {
				b->bad = 1;
				break;
			}
			if (side && !s->neg)
				s->neg = xcalloc(DURSTAT_BUCKETS, sizeof(*s->neg));
			(side ? s->neg : s->pos)[k] += count;
			total += count;
		}
	}
	if (total != s->n)
		b->bad = 1;
	return b->bad ? -1 : 0;
}

int durstat_merge_bytes(struct durstat *into, struct bytes_in *b)
{
	struct durstat st;
	int bad = durstat_decode(&st, b);
	if (!bad)
		durstat_merge(into, &st);
	durstat_free(&st);
	return bad;
}
