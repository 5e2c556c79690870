#include "config.h"
#include "tui/theme.h"

#include <langinfo.h>
#include <stdlib.h>
#include <string.h>

struct theme_entry {
	short fg, bg;
	attr_t mono;
};

#define THEME_ENTRY(id, fg, bg, mono) { fg, bg, mono },
static const struct theme_entry entries[] = { THEME_LIST(THEME_ENTRY) };
#undef THEME_ENTRY

static attr_t attrs[THEME_COUNT];
static int colored;

void theme_init(int mono)
{
	const char *no_color = getenv("NO_COLOR");
	colored = has_colors() && !(no_color && *no_color) && !mono;
	if (colored && start_color() == OK) {
		use_default_colors();
		for (int i = 0; i < THEME_COUNT; i++) {
			init_pair((short)(i + 1), entries[i].fg, entries[i].bg);
			attrs[i] = COLOR_PAIR(i + 1);
		}
		attrs[THEME_TAB_ACTIVE] |= A_BOLD;
		attrs[THEME_HEADER] |= A_BOLD;
		attrs[THEME_TITLE] |= A_BOLD;
		return;
	}
	colored = 0;
	for (int i = 0; i < THEME_COUNT; i++)
		attrs[i] = entries[i].mono;
}

attr_t theme_attr(enum theme_elem e)
{
	return attrs[e];
}

int theme_has_color(void)
{
	return colored;
}

static const struct glyphs utf8_glyphs = {
	.ellipsis = "\xe2\x80\xa6",
	.sort_down = "\xe2\x96\xbc",
	.sort_up = "\xe2\x96\xb2",
	.bar_full = "\xe2\x96\x88",
	.bar_part = { "", "\xe2\x96\x8f", "\xe2\x96\x8e", "\xe2\x96\x8d", "\xe2\x96\x8c", "\xe2\x96\x8b",
		      "\xe2\x96\x8a", "\xe2\x96\x89" },
	.vline = "\xe2\x94\x82",
	.instant = "\xe2\x97\x86",
	.spark = { "\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83", "\xe2\x96\x84", "\xe2\x96\x85",
		   "\xe2\x96\x86", "\xe2\x96\x87", "\xe2\x96\x88" },
	.utf8 = 1,
};

static const struct glyphs ascii_glyphs = {
	.ellipsis = "~",
	.sort_down = "v",
	.sort_up = "^",
	.bar_full = "#",
	.bar_part = { "", "", "", "", "", "", "", "" },
	.vline = "|",
	.instant = "*",
	.spark = { "_", ".", ",", "-", "~", "=", "+", "#" },
	.utf8 = 0,
};

static const struct glyphs *current = &ascii_glyphs;

void glyphs_init(void)
{
	const char *cs = nl_langinfo(CODESET);
	current = cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0) ? &utf8_glyphs : &ascii_glyphs;
}

const struct glyphs *glyphs(void)
{
	return current;
}
