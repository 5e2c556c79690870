/* Errors travel as values up to the one place that prints them. */
#ifndef RPDTOP_ERROR_H
#define RPDTOP_ERROR_H

#include <stdarg.h>

struct rpd_error {
	char msg[1024];
};

/* Record a message (printf-style); returns -1 so callers can `return err_set(...)`. */
int err_set(struct rpd_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int err_vset(struct rpd_error *err, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/* Print a message on standard error as one line, its control characters
 * escaped (a file name or a pattern may hold them). */
void err_report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
