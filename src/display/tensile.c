#include "config.h"
#include "display/tensile.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* One field of a name: its bytes at name + at. */
struct field {
	size_t at, len;
};

struct fields {
	struct field *f;
	size_t n, cap;
	size_t tile; /* index of the macro tile, or n when there is none */
};

/* Split s at '_' into fields; a word of digits only belongs to the field
 * before it ("WG32_4_1", "MIWT8_7"). */
static void split(const char *s, struct fields *out)
{
	memset(out, 0, sizeof(*out));
	for (const char *p = s;;) {
		size_t len = strcspn(p, "_");
		int digits = len > 0 && strspn(p, "0123456789") >= len;
		if (digits && out->n > 0) {
			out->f[out->n - 1].len = (size_t)(p + len - s) - out->f[out->n - 1].at;
		} else {
			out->f = xgrow(out->f, &out->cap, out->n + 1, sizeof(*out->f));
			out->f[out->n++] = (struct field){ (size_t)(p - s), len };
		}
		if (!p[len])
			break;
		p += len + 1;
	}
	out->tile = out->n;
	for (size_t i = 1; i < out->n; i++) {
		const char *w = s + out->f[i].at;
		if (out->f[i].len > 2 && w[0] == 'M' && w[1] == 'T' && w[2] >= '0' && w[2] <= '9') {
			out->tile = i;
			break;
		}
	}
}

int tensile_is_name(const char *name)
{
	if (strncmp(name, "Cijk_", 5) != 0)
		return 0;
	struct fields fs;
	split(name, &fs);
	int yes = fs.tile < fs.n;
	free(fs.f);
	return yes;
}

/* Whether peer, split into pf, has the field name[f] after its tile. */
static int has_field(const char *peer, const struct fields *pf, const char *name, const struct field *f)
{
	for (size_t j = pf->tile + 1; j < pf->n; j++)
		if (pf->f[j].len == f->len && memcmp(peer + pf->f[j].at, name + f->at, f->len) == 0)
			return 1;
	return 0;
}

/* The other peers of the same operation and tile (the first head bytes
 * of name), split. */
struct group {
	const char **name;
	struct fields *fields;
	size_t n;
};

static void group_of(const char *name, size_t head, const char *const *peers, size_t npeers, struct group *g)
{
	g->name = xmalloc_array(npeers ? npeers : 1, sizeof(*g->name));
	g->fields = xmalloc_array(npeers ? npeers : 1, sizeof(*g->fields));
	g->n = 0;
	for (size_t k = 0; k < npeers; k++) {
		const char *p = peers[k];
		if (strcmp(p, name) == 0 || strncmp(p, name, head) != 0 ||
		    (p[head] != '_' && p[head] != '\0'))
			continue;
		g->name[g->n] = p;
		split(p, &g->fields[g->n++]);
	}
}

static void group_free(struct group *g)
{
	for (size_t k = 0; k < g->n; k++)
		free(g->fields[k].f);
	free(g->fields);
	free(g->name);
}

/* Whether some peer of the group lacks the field f of name. */
static int differs(const struct group *g, const char *name, const struct field *f)
{
	for (size_t k = 0; k < g->n; k++)
		if (!has_field(g->name[k], &g->fields[k], name, f))
			return 1;
	return 0;
}

char *tensile_short(const char *name, const char *const *peers, size_t npeers)
{
	if (strncmp(name, "Cijk_", 5) != 0)
		return NULL;
	struct fields fs;
	split(name, &fs);
	if (fs.tile == fs.n) {
		free(fs.f);
		return NULL;
	}
	size_t head = fs.f[fs.tile].at + fs.f[fs.tile].len, o = head;
	struct group g;
	group_of(name, head, peers, npeers, &g);
	char *out = xmalloc(strlen(name) + 1);
	memcpy(out, name, head);
	for (size_t i = fs.tile + 1; i < fs.n; i++) {
		if (!differs(&g, name, &fs.f[i]))
			continue;
		out[o++] = '_';
		memcpy(out + o, name + fs.f[i].at, fs.f[i].len);
		o += fs.f[i].len;
	}
	out[o] = '\0';
	group_free(&g);
	free(fs.f);
	return out;
}
