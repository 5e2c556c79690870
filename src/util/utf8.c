#include "config.h"
#include "util/utf8.h"

#include <stdio.h>
#include <string.h>

size_t utf8_seq_len(const unsigned char *s, size_t n)
{
	if (n == 0)
		return 0;
	if (s[0] < 0x80)
		return 1;
	size_t len;
	unsigned min;
	if ((s[0] & 0xe0) == 0xc0) {
		len = 2;
		min = 0x80;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3;
		min = 0x800;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4;
		min = 0x10000;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	unsigned cp = s[0] & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and values past U+10FFFF are malformed. */
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

static int is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

void utf8_write_escaped(const char *s, void (*put)(const char *, size_t, void *), void *ctx)
{
	const unsigned char *p = (const unsigned char *)s, *run = p;
	size_t n = strlen(s);
	/* Characters that go as they are leave in one piece: a sink writing
	 * to a file pays once per piece. */
	while (n) {
		/* Printable ASCII, nearly every name, is passed over at once. */
		if (*p >= 0x20 && *p < 0x7f) {
			p++;
			n--;
			continue;
		}
		size_t len = utf8_seq_len(p, n);
		/* C1 controls (U+0080..U+009F) act as escapes on some terminals. */
		int c1 = len == 2 && p[0] == 0xc2 && p[1] < 0xa0;
		if (len == 0 || (len == 1 && is_control(p[0])) || c1) {
			char hex[8];
			if (p > run)
				put((const char *)run, (size_t)(p - run), ctx);
			snprintf(hex, sizeof(hex), "\\x%02x", p[0]);
			put(hex, 4, ctx);
			len = 1;
			run = p + 1;
		}
		p += len;
		n -= len;
	}
	if (p > run)
		put((const char *)run, (size_t)(p - run), ctx);
}

/* One column per character: a piece is whole characters (or an escape,
 * four of them), so its characters are the bytes that start one. */
static void count_width(const char *piece, size_t len, void *ctx)
{
	size_t *w = ctx;
	for (size_t i = 0; i < len; i++)
		*w += ((unsigned char)piece[i] & 0xc0) != 0x80;
}

size_t utf8_escaped_width(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t w = 0;
	/* Printable ASCII, a column a byte, is counted at once. */
	while (*p >= 0x20 && *p < 0x7f) {
		p++;
		w++;
	}
	if (*p)
		utf8_write_escaped((const char *)p, count_width, &w);
	return w;
}
