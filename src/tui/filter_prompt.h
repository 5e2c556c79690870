/* The filter and window prompts of the status line, and the changes of
 * the filter and window they and the timeline make. */
#ifndef RPDTOP_FILTER_PROMPT_H
#define RPDTOP_FILTER_PROMPT_H

#include <stdint.h>

#include "tui/app.h"

/* Remake the selection after handlers changed the filter or window (the
 * loop does this for ACT_RESELECT); says what it keeps when asked to. */
void app_reselect(struct app *app);
/* Open the prompt for a filter (add: stack another rule) or a window. */
unsigned app_prompt_filter(struct app *app, int add);
unsigned app_prompt_window(struct app *app);
/* The GPU filter (gpu non-zero) or the input filter, as --gpu and --input. */
unsigned app_prompt_place(struct app *app, int gpu);
/* Remove the last filter rule. */
unsigned app_pop_filter(struct app *app);
/* The window [start, end) (none when end <= start), from the timeline. */
unsigned app_set_window_ns(struct app *app, int64_t start, int64_t end);

#endif
