/* Colours and glyphs. Each element has a colour pair and the attribute it
 * falls back to on a monochrome terminal or with NO_COLOR; glyphs are UTF-8
 * when the locale is, ASCII otherwise. */
#ifndef RPDTOP_THEME_H
#define RPDTOP_THEME_H

#include <curses.h>

/* THEME(id, foreground, background, monochrome attributes) */
#define THEME_LIST(THEME)                                                                                    \
	THEME(NORMAL, -1, -1, A_NORMAL)                                                                      \
	THEME(TITLE, COLOR_BLACK, COLOR_CYAN, A_REVERSE)                                                     \
	THEME(TAB, -1, -1, A_NORMAL)                                                                         \
	THEME(TAB_ACTIVE, COLOR_BLACK, COLOR_GREEN, A_REVERSE | A_BOLD)                                      \
	THEME(HEADER, COLOR_BLACK, COLOR_GREEN, A_REVERSE)                                                   \
	THEME(CURSOR, COLOR_BLACK, COLOR_CYAN, A_REVERSE | A_BOLD)                                           \
	THEME(DIM, COLOR_BLUE, -1, A_DIM)                                                                    \
	THEME(BAR, COLOR_GREEN, -1, A_BOLD)                                                                  \
	THEME(STATUS, COLOR_BLACK, COLOR_WHITE, A_REVERSE)                                                   \
	THEME(MESSAGE, COLOR_YELLOW, -1, A_BOLD)                                                             \
	THEME(ERROR, COLOR_WHITE, COLOR_RED, A_REVERSE | A_BOLD)                                             \
	THEME(KEY, COLOR_YELLOW, -1, A_BOLD)                                                                 \
	THEME(LABEL, COLOR_CYAN, -1, A_BOLD)                                                                 \
	/* Timeline events: a colour per name, the same in every lane. */                                    \
	THEME(EVENT0, COLOR_GREEN, -1, A_NORMAL)                                                             \
	THEME(EVENT1, COLOR_YELLOW, -1, A_NORMAL)                                                            \
	THEME(EVENT2, COLOR_MAGENTA, -1, A_NORMAL)                                                           \
	THEME(EVENT3, COLOR_CYAN, -1, A_NORMAL)                                                              \
	THEME(EVENT4, COLOR_BLUE, -1, A_NORMAL)                                                              \
	THEME(EVENT5, COLOR_RED, -1, A_NORMAL)

#define THEME_ENUM(id, fg, bg, mono) THEME_##id,
enum theme_elem { THEME_LIST(THEME_ENUM) THEME_COUNT };
#undef THEME_ENUM

/* Set up colours once curses is running; honours NO_COLOR; mono: the
 * monochrome theme even when colours are there. */
void theme_init(int mono);
attr_t theme_attr(enum theme_elem e);
int theme_has_color(void);

struct glyphs {
	const char *ellipsis;
	const char *sort_down, *sort_up;
	const char *bar_full;
	const char *bar_part[8]; /* 1/8 .. 7/8 of a cell; [0] unused */
	const char *vline;
	const char *instant;  /* an event without a duration (a roctx mark) */
	const char *spark[8]; /* a counter's level, lowest to highest */
	int utf8;
};

/* Choose UTF-8 or ASCII glyphs from the locale. */
void glyphs_init(void);
const struct glyphs *glyphs(void);

#endif
