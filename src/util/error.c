#include "config.h"
#include "util/error.h"

#include <stdio.h>

int err_vset(struct rpd_error *err, const char *fmt, va_list ap)
{
	if (err)
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
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
