/* The timeline's named marks and its jump history, as in less and vim:
 * m and a letter marks the cursor's time and lane, ' and the letter goes
 * back there; every jump (Enter, a mark, Home, End, the minimap, a table's
 * Enter) leaves the position it left in a history that < and > walk.
 * Positions name their lane by what it shows, so they outlive a rebuild
 * of the lanes. Nothing is kept on disk. */
#ifndef RPDTOP_TIMELINE_MARKS_H
#define RPDTOP_TIMELINE_MARKS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/timeline_place.h"

struct tl_pos {
	struct tl_place place;         /* the cursor's lane and event */
	int64_t cursor;                /* a time */
	int64_t view_start, view_span; /* the view around it */
};

#define TL_MARKS 52 /* a-z, A-Z */
#define TL_HISTORY 100

struct tl_marks {
	struct tl_pos mark[TL_MARKS];
	uint8_t set[TL_MARKS];
	int last; /* the mark last set or gone to, plus one (0: none) */
	struct tl_pos hist[TL_HISTORY];
	size_t n, at; /* at == n: at none of them (where the last jump went) */
};

/* The mark a key names (its letter), or -1. */
int tl_mark_index(const char *key);
/* The mark's letter. */
char tl_mark_letter(int i);
void tl_mark_set(struct tl_marks *m, int i, const struct tl_pos *pos);
/* The mark, or NULL when it is not set; it becomes the last used. */
const struct tl_pos *tl_mark_get(struct tl_marks *m, int i);

/* A jump leaves pos: it goes into the history (after the position the
 * history was walked back to, the later ones forgotten). */
void tl_history_push(struct tl_marks *m, const struct tl_pos *pos);
/* Back from cur, which is kept to come forward to; NULL at the oldest. */
const struct tl_pos *tl_history_back(struct tl_marks *m, const struct tl_pos *cur);
/* Forward again; NULL at the newest. */
const struct tl_pos *tl_history_forward(struct tl_marks *m);

#endif
