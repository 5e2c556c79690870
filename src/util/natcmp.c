#include "config.h"
#include "util/natcmp.h"

#include <string.h>

static int digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Compare the digit runs at *a and *b by value and move past them; the
 * run with more leading zeros is after an equal value with fewer. */
static int numbers(const char **a, const char **b)
{
	const char *x = *a, *y = *b;
	size_t zx = 0, zy = 0;
	while (x[zx] == '0')
		zx++;
	while (y[zy] == '0')
		zy++;
	size_t nx = zx, ny = zy;
	while (digit(x[nx]))
		nx++;
	while (digit(y[ny]))
		ny++;
	*a = x + nx;
	*b = y + ny;
	/* Without their leading zeros, the longer is the larger. */
	if (nx - zx != ny - zy)
		return nx - zx < ny - zy ? -1 : 1;
	int c = memcmp(x + zx, y + zy, nx - zx);
	if (c)
		return c;
	return (zx > zy) - (zx < zy);
}

int natcmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (digit(*a) && digit(*b)) {
			int c = numbers(&a, &b);
			if (c)
				return c;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return (*a != 0) - (*b != 0);
}
