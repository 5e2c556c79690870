/* What a lane's rows show: a row's name, and how busy a cell is as a
 * shade. */
#ifndef RPDTOP_TIMELINE_ROWS_H
#define RPDTOP_TIMELINE_ROWS_H

#include <stdint.h>

#include "analysis/timeline.h"
#include "trace/trace.h"

struct app;

/* How busy a cell is, f from 0 to 1, as a shade (a block or ASCII). */
const char *tl_shade(double f);
/* The string id a row is known by: an op's name, a call's, a roctx
 * range's text. */
uint32_t tl_row_name_id(const struct trace *t, const struct tl_lane *l, uint32_t row);
/* The name of a lane's row: an op's, a call's, a roctx range's text. */
const char *tl_row_name(struct app *app, const struct tl_lane *l, uint32_t row);

#endif
