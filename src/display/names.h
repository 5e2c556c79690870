/* How a kernel name is shown: demangled or not, with or without its
 * template and argument lists. Shared by every pane and report. */
#ifndef RPDTOP_NAMES_H
#define RPDTOP_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"

enum name_style {
	NAME_DEMANGLE = 1, /* _Z... names through the C++ runtime's demangler */
	NAME_STRIP = 2,    /* C++ names: drop return type, <...> and (...) */
	NAME_TENSILE = 4,  /* Tensile names: operation, macro tile, fields that differ */
};

/* The name as shown in style; a new string the caller frees; Tensile
 * names are shortened among the peers given (tensile_short). */
char *name_display_among(const char *raw, unsigned style, const char *const *peers, size_t npeers);
/* The same without peers: a Tensile name keeps its operation and tile. */
char *name_display(const char *raw, unsigned style);

/* Demangled raw, or NULL when raw is not a mangled C++ name. */
char *name_demangle(const char *raw);

/* Whether s is a C++ name: mangled (one word starting with _Z), or read
 * like a demangled one: it has "::", or a '<' or '(' right after a letter,
 * digit or '_'. Only C++ names are demangled and stripped; any other name
 * (a roctx text, a copy's name, Tensile's C names) is shown whole. */
int name_is_cxx(const char *s);

/* raw without its return type, template arguments and argument list when
 * it is a C++ name; otherwise raw as it is. */
char *name_strip(const char *raw);

/* For each of n names, the byte at which it parts from the name most like
 * it (the longest prefix it shares with another, ending at a character's
 * start; its length when another name is the same or goes on from it).
 * What a name cut short must still show to be told apart. */
void name_parting(const char *const *names, size_t n, size_t *at);

/* Display names computed once per string and style. */
struct name_cache {
	unsigned style;
	char **by_id;
	size_t n;
	uint32_t *tensile; /* ids of the trace's Tensile op names, read once */
	size_t ntensile;
	int tensile_read;
};

void name_cache_init(struct name_cache *c, unsigned style);
void name_cache_free(struct name_cache *c);
void name_cache_set_style(struct name_cache *c, unsigned style);
const char *name_cache_get(struct name_cache *c, const struct trace *t, uint32_t id);

#endif
