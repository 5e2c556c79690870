#include "config.h"
#include "util/error.h"

#include <stdio.h>
#include <string.h>

/* A C1 control (U+0080..U+009F) in UTF-8: some terminals act on it. */
static int c1_at(const unsigned char *p)
{
	return p[0] == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0;
}

/* A message is one line, and safe on a terminal: names read from a file
 * (a table called "a\nb", an escape sequence) are shown as \xNN. */
static void escape_controls(char *msg, size_t size)
{
	char out[sizeof(((struct rpd_error *)0)->msg)];
	size_t o = 0;
	int c1 = 0; /* the second byte of a C1 control is escaped too */
	for (const unsigned char *p = (const unsigned char *)msg; *p && o + 1 < sizeof(out); p++) {
		int escape = c1 || *p < 0x20 || *p == 0x7f || c1_at(p);
		c1 = c1_at(p);
		if (!escape) {
			out[o++] = (char)*p;
		} else if (o + 5 < sizeof(out)) {
			snprintf(out + o, 5, "\\x%02x", *p);
			o += 4;
		} else {
			break;
		}
	}
	out[o] = '\0';
	snprintf(msg, size, "%s", out);
}

int err_vset(struct rpd_error *err, const char *fmt, va_list ap)
{
	if (err) {
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		escape_controls(err->msg, sizeof(err->msg));
	}
	return -1;
}

int err_set(struct rpd_error *err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err_vset(err, fmt, ap);
	va_end(ap);
	return -1;
}

void err_report(const char *fmt, ...)
{
	struct rpd_error e;
	va_list ap;
	va_start(ap, fmt);
	err_vset(&e, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s\n", e.msg);
}
