/* What a lane's rows show, for the lanes, the detail line and the
 * minimap: a row's name, and how busy a cell is as a shade. */
#include "config.h"
#include "tui/timeline/rows.h"

#include "display/names.h"
#include "tui/app.h"
#include "tui/theme.h"

const char *tl_shade(double f)
{
	const struct glyphs *g = glyphs();
	static const char *const utf8[] = { " ", "\xe2\x96\x91", "\xe2\x96\x92", "\xe2\x96\x93",
					    "\xe2\x96\x88" };
	static const char *const ascii[] = { " ", ".", ":", "+", "#" };
	int i = f <= 0 ? 0 : f < 0.25 ? 1 : f < 0.5 ? 2 : f < 0.85 ? 3 : 4;
	return g->utf8 ? utf8[i] : ascii[i];
}

/* The string id a row is known by: an op's name, a call's, a roctx
 * range's text. */
uint32_t tl_row_name_id(const struct trace *t, const struct tl_lane *l, uint32_t row)
{
	return l->kind == TL_GPU ? t->ops.name[row] : trace_api_shown_name(t, row);
}

const char *tl_row_name(struct app *app, const struct tl_lane *l, uint32_t row)
{
	const struct trace *t = app->trace;
	uint32_t id = tl_row_name_id(t, l, row);
	return l->kind == TL_GPU ? app_name(app, id) : trace_str(t, id);
}
