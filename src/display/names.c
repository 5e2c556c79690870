#include "config.h"
#include "display/names.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "display/tensile.h"
#include "util/sort.h"
#include "util/xalloc.h"

#if HAVE_LIBIBERTY
#include <libiberty/demangle.h>

char *name_demangle(const char *raw)
{
	if (strncmp(raw, "_Z", 2) != 0)
		return NULL;
	return cplus_demangle(raw, DMGL_PARAMS | DMGL_ANSI | DMGL_TYPES);
}
#else
/* The C++ runtime's demangler (libstdc++ / libc++abi), callable from C. */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

char *name_demangle(const char *raw)
{
	if (strncmp(raw, "_Z", 2) != 0)
		return NULL;
	int status = 0;
	char *out = __cxa_demangle(raw, NULL, NULL, &status);
	if (status != 0) {
		free(out);
		return NULL;
	}
	return out;
}
#endif

static int opens(char c)
{
	return c == '(' || c == '{' || c == '[';
}

static int closes(char c)
{
	return c == ')' || c == '}' || c == ']';
}

#define MAX_NESTING 64

/* Remove every <...>, nested ones included. A '>' inside parentheses
 * within the brackets ("enable_if<(8>0)>") does not close them, and
 * "operator<" and "->" keep their characters. */
static char *drop_templates(const char *s)
{
	size_t n = strlen(s), o = 0;
	char *out = xmalloc(n + 1);
	int depth = 0, parens[MAX_NESTING] = { 0 };
	for (size_t i = 0; i < n; i++) {
		int op = i >= 8 && strncmp(s + i - 8, "operator", 8) == 0;
		if (s[i] == '<' && !op && depth + 1 < MAX_NESTING) {
			parens[++depth] = 0;
		} else if (depth > 0 && s[i] == '(') {
			parens[depth]++;
		} else if (depth > 0 && s[i] == ')' && parens[depth] > 0) {
			parens[depth]--;
		} else if (depth > 0 && s[i] == '>' && parens[depth] == 0 && s[i - 1] != '-') {
			depth--;
		} else if (depth == 0) {
			out[o++] = s[i];
		}
	}
	/* Unbalanced brackets: not a C++ signature after all. */
	if (depth != 0) {
		free(out);
		return xstrdup(s);
	}
	out[o] = '\0';
	return out;
}

/* Cut the argument list: the first top-level '(' that does not open a
 * "::(anonymous namespace)" style component. */
static void cut_arguments(char *s)
{
	int depth = 0;
	for (size_t i = 0; s[i]; i++) {
		if (opens(s[i])) {
			if (depth == 0 && i > 0 && s[i - 1] != ':' && s[i] == '(') {
				s[i] = '\0';
				return;
			}
			depth++;
		} else if (closes(s[i]) && depth > 0) {
			depth--;
		}
	}
}

/* The qualified name is what follows the last top-level space (the return
 * type comes before it). */
static const char *skip_return_type(const char *s)
{
	const char *start = s;
	int depth = 0;
	for (const char *p = s; *p; p++) {
		if (opens(*p))
			depth++;
		else if (closes(*p) && depth > 0)
			depth--;
		else if (*p == ' ' && depth == 0 && p[1])
			start = p + 1;
	}
	return start;
}

static int name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* A mangled name is one word: no space, no punctuation but the '.' and
 * '$' of clone and descriptor suffixes ("_Z3foov.cold", "....kd"). */
static int mangled(const char *s)
{
	if (strncmp(s, "_Z", 2) != 0)
		return 0;
	for (; *s; s++)
		if (!name_char(*s) && *s != '.' && *s != '$')
			return 0;
	return 1;
}

int name_is_cxx(const char *s)
{
	if (mangled(s) || strstr(s, "::"))
		return 1;
	/* A template or argument list opens right after a name: "f<", "f(";
	 * text such as "copy (sync)" or "step 3" is not a signature. */
	for (size_t i = 1; s[0] && s[i]; i++)
		if ((s[i] == '<' || s[i] == '(') && name_char(s[i - 1]))
			return 1;
	return 0;
}

char *name_strip(const char *raw)
{
	if (!name_is_cxx(raw))
		return xstrdup(raw);
	char *s = drop_templates(raw);
	cut_arguments(s);
	const char *name = skip_return_type(s);
	char *out = xstrdup(*name ? name : raw);
	free(s);
	return out;
}

char *name_display_among(const char *raw, unsigned style, const char *const *peers, size_t npeers)
{
	char *dem = (style & NAME_DEMANGLE) ? name_demangle(raw) : NULL;
	const char *base = dem ? dem : raw;
	char *out = (style & NAME_STRIP) ? name_strip(base) : xstrdup(base);
	free(dem);
	char *tensile = (style & NAME_TENSILE) ? tensile_short(out, peers, npeers) : NULL;
	if (tensile) {
		free(out);
		out = tensile;
	}
	return out;
}

char *name_display(const char *raw, unsigned style)
{
	return name_display_among(raw, style, NULL, 0);
}

static int by_text(const void *a, const void *b, void *ctx)
{
	const char *const *names = ctx;
	return strcmp(names[*(const size_t *)a], names[*(const size_t *)b]);
}

static size_t common_prefix(const char *a, const char *b)
{
	size_t i = 0;
	while (a[i] && a[i] == b[i])
		i++;
	/* Not inside a UTF-8 sequence. */
	while (i > 0 && ((unsigned char)a[i] & 0xc0) == 0x80)
		i--;
	return i;
}

/* In sorted order, the name most like each is one of its neighbours. */
void name_parting(const char *const *names, size_t n, size_t *at)
{
	size_t *order = xmalloc_array(n ? n : 1, sizeof(*order));
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	sort_with(order, n, sizeof(*order), by_text, (void *)names);
	for (size_t k = 0; k < n; k++) {
		size_t i = order[k], most = 0;
		if (k > 0)
			most = common_prefix(names[i], names[order[k - 1]]);
		if (k + 1 < n) {
			size_t next = common_prefix(names[i], names[order[k + 1]]);
			most = next > most ? next : most;
		}
		at[i] = most;
	}
	free(order);
}

void name_cache_init(struct name_cache *c, unsigned style)
{
	memset(c, 0, sizeof(*c));
	c->style = style;
}

static void clear(struct name_cache *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->by_id[i]);
	free(c->by_id);
	c->by_id = NULL;
	c->n = 0;
}

void name_cache_free(struct name_cache *c)
{
	clear(c);
	free(c->tensile);
	c->tensile = NULL;
	c->ntensile = 0;
	c->tensile_read = 0;
}

/* The Tensile names among the trace's op names: the kernels a short
 * Tensile name must be told apart from. */
static void read_tensile(struct name_cache *c, const struct trace *t)
{
	size_t nstr = t->strings.count;
	unsigned char *seen = xcalloc(nstr ? nstr : 1, 1);
	c->tensile_read = 1;
	for (size_t i = 0; i < t->ops.n; i++) {
		uint32_t id = t->ops.name[i];
		if (id >= nstr || seen[id])
			continue;
		seen[id] = 1;
		if (!tensile_is_name(trace_str(t, id)))
			continue;
		c->tensile = xrealloc_array(c->tensile, c->ntensile + 1, sizeof(*c->tensile));
		c->tensile[c->ntensile++] = id;
	}
	free(seen);
}

static char *display_in(struct name_cache *c, const struct trace *t, uint32_t id)
{
	const char *raw = trace_str(t, id);
	if (!(c->style & NAME_TENSILE) || strncmp(raw, "Cijk_", 5) != 0)
		return name_display(raw, c->style);
	if (!c->tensile_read)
		read_tensile(c, t);
	/* Pointers into the string table, which may grow between calls. */
	const char **peers = xmalloc_array(c->ntensile ? c->ntensile : 1, sizeof(*peers));
	for (size_t i = 0; i < c->ntensile; i++)
		peers[i] = trace_str(t, c->tensile[i]);
	char *out = name_display_among(raw, c->style, peers, c->ntensile);
	free(peers);
	return out;
}

void name_cache_set_style(struct name_cache *c, unsigned style)
{
	if (style != c->style)
		clear(c);
	c->style = style;
}

const char *name_cache_get(struct name_cache *c, const struct trace *t, uint32_t id)
{
	if (id >= c->n) {
		size_t n = t->strings.count;
		c->by_id = xrealloc_array(c->by_id, n, sizeof(*c->by_id));
		memset(c->by_id + c->n, 0, (n - c->n) * sizeof(*c->by_id));
		c->n = n;
	}
	if (!c->by_id[id])
		c->by_id[id] = display_in(c, t, id);
	return c->by_id[id];
}
