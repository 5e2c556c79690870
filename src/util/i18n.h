/* Gettext wrappers: every user-visible string goes through _() or N_(). */
#ifndef RPDTOP_I18N_H
#define RPDTOP_I18N_H

#if ENABLE_NLS
#include <libintl.h>
#define _(s) gettext(s)
#define P_(one, many, n) ngettext(one, many, n)
#else
#define _(s) (s)
#define P_(one, many, n) ((n) == 1 ? (one) : (many))
#endif
#define N_(s) (s)

#endif
