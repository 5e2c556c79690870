#include "config.h"
#include "tui/timeline/marks.h"

#include <string.h>

int tl_mark_index(const char *key)
{
	if (!key || !key[0] || key[1])
		return -1;
	if (key[0] >= 'a' && key[0] <= 'z')
		return key[0] - 'a';
	if (key[0] >= 'A' && key[0] <= 'Z')
		return 26 + key[0] - 'A';
	return -1;
}

char tl_mark_letter(int i)
{
	return (char)(i < 26 ? 'a' + i : 'A' + i - 26);
}

void tl_mark_set(struct tl_marks *m, int i, const struct tl_pos *pos)
{
	m->mark[i] = *pos;
	m->set[i] = 1;
	m->last = i + 1;
}

const struct tl_pos *tl_mark_get(struct tl_marks *m, int i)
{
	if (!m->set[i])
		return NULL;
	m->last = i + 1;
	return &m->mark[i];
}

static int same(const struct tl_pos *a, const struct tl_pos *b)
{
	return a->cursor == b->cursor && a->place.kind == b->place.kind && a->place.owner == b->place.owner &&
	       a->place.depth == b->place.depth;
}

/* Append pos (the oldest goes when the history is full), unless it is the
 * newest already. */
static void append(struct tl_marks *m, const struct tl_pos *pos)
{
	if (m->n > 0 && same(&m->hist[m->n - 1], pos))
		return;
	if (m->n == TL_HISTORY) {
		memmove(m->hist, m->hist + 1, (TL_HISTORY - 1) * sizeof(*m->hist));
		m->n--;
	}
	m->hist[m->n++] = *pos;
}

void tl_history_push(struct tl_marks *m, const struct tl_pos *pos)
{
	/* Walked back to at: what was after it is forgotten, and at (where
	 * the walk stopped) is the newest again, pos after it. */
	if (m->at < m->n)
		m->n = m->at + 1;
	append(m, pos);
	m->at = m->n;
}

const struct tl_pos *tl_history_back(struct tl_marks *m, const struct tl_pos *cur)
{
	if (m->at == m->n) {
		/* Leaving the newest place: it is kept to come forward to. */
		append(m, cur);
		m->at = m->n - 1;
	}
	if (m->at == 0)
		return NULL;
	return &m->hist[--m->at];
}

const struct tl_pos *tl_history_forward(struct tl_marks *m)
{
	if (m->at + 1 >= m->n)
		return NULL;
	return &m->hist[++m->at];
}
