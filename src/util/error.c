#include "config.h"
#include "util/error.h"

#include <stdio.h>
#include <string.h>

/* A message is one line, and safe on a terminal: names read from a file
 * (a table called "a\nb", an escape sequence) are shown as \xNN. */
static void escape_controls(char *msg, size_t size)
{
	char out[sizeof(((struct rpd_error *)0)->msg)];
	size_t o = 0;
	for (const unsigned char *p = (const unsigned char *)msg; *p && o + 1 < sizeof(out); p++) {
		if (*p >= 0x20 && *p != 0x7f) {
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
