#include "config.h"
#include "util/sort.h"

#include <stdint.h>
#include <string.h>

#include "util/xalloc.h"

static void insertion(int64_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		int64_t x = v[i];
		size_t j = i;
		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* Least significant byte first, eight passes over the values with the
 * sign bit flipped (so that negative values come first); a pass whose
 * byte is the same in every value is skipped. */
void sort_int64(int64_t *v, size_t n)
{
	if (n < 64) {
		insertion(v, n);
		return;
	}
	uint64_t *a = (uint64_t *)v, *b = xmalloc_huge(n, sizeof(*b));
	const uint64_t flip = (uint64_t)1 << 63;
	for (size_t i = 0; i < n; i++)
		a[i] ^= flip;
	for (int shift = 0; shift < 64; shift += 8) {
		size_t count[257] = { 0 };
		for (size_t i = 0; i < n; i++)
			count[(a[i] >> shift & 0xff) + 1]++;
		if (count[(a[0] >> shift & 0xff) + 1] == n)
			continue;
		for (int k = 0; k < 256; k++)
			count[k + 1] += count[k];
		for (size_t i = 0; i < n; i++)
			b[count[a[i] >> shift & 0xff]++] = a[i];
		uint64_t *t = a;
		a = b;
		b = t;
	}
	for (size_t i = 0; i < n; i++)
		a[i] ^= flip;
	if (a != (uint64_t *)v) {
		memcpy(v, a, n * sizeof(*v));
		b = a;
	}
	free(b);
}
