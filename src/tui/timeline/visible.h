/* The lanes shown and their labels: a thread's nesting rows folded, the
 * CPU lanes hidden, the lane filter asked for and applied. */
#ifndef RPDTOP_TIMELINE_VISIBLE_H
#define RPDTOP_TIMELINE_VISIBLE_H

#include <stddef.h>
#include <stdint.h>

#include "tui/timeline/state.h"

struct app;

/* Is lane l hidden: a folded thread's nesting row, or by the lane rules? */
int tl_lane_hidden(const struct timeline_pane *p, const struct tl_lane *l);
/* How many counter lanes of GPUs that ran no op the rules hide. */
size_t tl_idle_hidden(const struct timeline_pane *p);
/* The list of lanes shown; a cursor on a hidden row goes to its thread,
 * or to the nearest lane shown when its thread is hidden too. */
void tl_update_visible(struct timeline_pane *p);
/* Where the cursor's lane is among those shown. */
size_t tl_visible_pos(const struct timeline_pane *p);
/* Room for the widest label of the lanes the rules show (with a fold
 * mark), so that labels of several inputs stay whole. */
int tl_label_width(const struct timeline_pane *p, const struct app *app);
/* The label drawn before a lane: its queue's, its thread's (a nesting
 * row's depth), its counter's with the scale of its bars ("GPU 0 sclk
 * 0-2100 MHz"). */
void tl_lane_label(const struct app *app, const struct tl_lane *l, char *buf, size_t size);
/* The label the lane filter matches: a queue's, a counter's with its GPU
 * ("GPU 0 sclk"), or its thread's for every row of a thread. */
void tl_owner_label(const void *ctx, const struct tl_lane *l, char *buf, size_t size);
/* Up/Down over the lanes shown. */
unsigned tl_move_lane(struct timeline_pane *p, int by);
/* Space: hide or show the nesting rows of the cursor's thread. */
unsigned tl_fold(struct timeline_pane *p, struct app *app);
/* *: fold every thread's nesting rows, or unfold them all. */
unsigned tl_fold_every(struct timeline_pane *p, struct app *app);
/* c: the CPU lanes hidden or shown. */
unsigned tl_toggle_cpu(struct timeline_pane *p, struct app *app);
/* |: the lane filter, on the labels of queues and threads. */
unsigned tl_ask_lanes(struct timeline_pane *p, struct app *app);

#endif
