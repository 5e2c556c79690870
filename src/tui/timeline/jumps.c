/* The jumps, each leaving a position in the history that < and > walk:
 * Enter from an op to its launch and back, to a search match, to a mark,
 * along the history, to the next gap; and to the op, call or gap another
 * view asked for. */
#include "config.h"
#include "tui/timeline/jumps.h"

#include "analysis/search.h"
#include "analysis/timeline.h"
#include "tui/app.h"
#include "tui/timeline/find.h"
#include "tui/timeline/gaps.h"
#include "tui/timeline/index.h"
#include "tui/timeline/lanes.h"
#include "tui/timeline/marks.h"
#include "tui/timeline/navigate.h"
#include "tui/timeline/state.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/units.h"

/* A jump to a row from start to end: the view around its start, ten
 * times as long as the row (a microsecond at least), to show what ran
 * around it. */
static void view_around(struct timeline_pane *p, int64_t start, int64_t end)
{
	tl_jumped_from(p);
	int64_t d = sat_mul(sat_sub(end, start), 10);
	p->view_span = d > 1000 ? d : 1000;
	p->view_start = sat_sub(start, p->view_span / 2);
	tl_clamp_view(p);
}

/* An op in view, seen from far enough to show what ran around it. */
static void show_op(struct timeline_pane *p, struct app *app, uint32_t op)
{
	const struct trace_ops *ops = &app->trace->ops;
	view_around(p, ops->start[op], ops->end[op]);
	if (tl_goto_row(p, TL_GPU, ops->queue[op], op, ops->start[op]) < 0)
		app_message(app, 1, "%s", _("The op's lane is hidden (| sets the lane filter)"));
}

/* Where a link led: said when its row is on a hidden lane or filtered
 * out, else a jump from from. */
static void landed(struct timeline_pane *p, struct app *app, int found, const struct tl_pos *from,
		   const char *hidden, const char *filtered)
{
	if (found < 0)
		app_message(app, 1, "%s", hidden);
	else if (!found)
		app_message(app, 1, "%s", filtered);
	else
		tl_history_push(&p->marks, from);
}

/* From an op to the call that launched it, remembering the op. */
static void to_launch(struct timeline_pane *p, struct app *app, uint32_t op, const struct tl_pos *from)
{
	const struct trace *t = app->trace;
	uint32_t api = trace_op_launch(t, op);
	if (api == TRACE_NONE)
		app_message(app, 1, "%s", _("No API call launched this op"));
	else
		landed(p, app, tl_goto_row(p, TL_CPU, t->apis.thread[api], api, t->apis.start[api]), from,
		       _("The call that launched this op is on a hidden lane"),
		       _("The call that launched this op is filtered out"));
	p->came_from = op;
}

/* From a call to the op it launched: the one Enter came from when the
 * call launched several. */
static void to_launched(struct timeline_pane *p, struct app *app, uint32_t api, const struct tl_pos *from)
{
	const struct trace *t = app->trace;
	uint32_t op = p->came_from != TRACE_NONE && trace_op_launch(t, p->came_from) == api
			      ? p->came_from
			      : trace_api_launched_op(t, api);
	if (op == TRACE_NONE)
		app_message(app, 1, "%s", _("This call launched no GPU op"));
	else
		landed(p, app, tl_goto_row(p, TL_GPU, t->ops.queue[op], op, t->ops.start[op]), from,
		       _("The op this call launched is on a hidden lane"),
		       _("The op this call launched is filtered out"));
}

unsigned tl_follow_link(struct timeline_pane *p, struct app *app)
{
	if (p->lane >= p->tl.nlanes)
		return ACT_NONE;
	const struct tl_lane *l = &p->tl.lanes[p->lane];
	size_t k = tl_under_cursor(p, l);
	if (k >= l->n) {
		app_message(app, 1, "%s", _("No event under the cursor"));
		return ACT_REDRAW;
	}
	struct tl_pos from = tl_here(p);
	if (l->kind == TL_GPU)
		to_launch(p, app, l->ops[k], &from);
	else
		to_launched(p, app, l->ops[k], &from);
	return ACT_REDRAW;
}

/* The cursor on a match, on its lane; the view moves only when it is out
 * of sight. 1, or 0 when it is not in the lanes, -1 when its lane is
 * hidden (goto_row). */
static int goto_match(struct timeline_pane *p, struct app *app, uint32_t ref)
{
	const struct trace *t = app->trace;
	uint32_t row = search_row(ref);
	return search_is_call(ref) ? tl_goto_row(p, TL_CPU, t->apis.thread[row], row, t->apis.start[row])
				   : tl_goto_row(p, TL_GPU, t->ops.queue[row], row, t->ops.start[row]);
}

unsigned tl_walk_matches(struct timeline_pane *p, struct app *app, uint32_t ref, int dir)
{
	struct tl_pos from = tl_here(p);
	size_t n = tl_find_count(p->find);
	for (size_t tried = 1; ref != TRACE_NONE; tried++) {
		int shown = goto_match(p, app, ref);
		if (shown > 0) {
			tl_history_push(&p->marks, &from);
			return ACT_REDRAW;
		}
		if (shown == 0) {
			app_message(app, 1, "%s", _("The match is not in the timeline's lanes"));
			return ACT_REDRAW;
		}
		if (tried >= n) {
			app_message(app, 1, "%s",
				    _("Every match is on a hidden lane (| sets the lane filter)"));
			return ACT_REDRAW;
		}
		ref = tl_find_step(p->find, app, search_start(app->trace, ref), dir);
	}
	return ACT_REDRAW;
}

/* An API call, seen from far enough to show what ran around it. */
static void show_call(struct timeline_pane *p, struct app *app, uint32_t api)
{
	const struct trace_apis *a = &app->trace->apis;
	view_around(p, a->start[api], a->end[api]);
	int shown = tl_goto_row(p, TL_CPU, a->thread[api], api, a->start[api]);
	if (shown < 0)
		app_message(app, 1, "%s", _("The call's lane is hidden (| sets the lane filter)"));
	else if (shown == 0)
		app_message(app, 1, "%s", _("The match is not in the timeline's lanes"));
}

/* The search's place follows the cursor to the event it landed on. */
static void find_here(struct timeline_pane *p, struct app *app)
{
	uint32_t ref = TRACE_NONE;
	if (p->lane < p->tl.nlanes) {
		const struct tl_lane *l = &p->tl.lanes[p->lane];
		size_t k = tl_under_cursor(p, l);
		if (k < l->n)
			ref = l->kind == TL_GPU ? l->ops[k] : l->ops[k] | SEARCH_CALL;
	}
	tl_find_locate(p->find, app, ref);
}

/* m and a letter: the mark is set at the cursor. */
static unsigned mark_set_done(struct app *app, const char *text, int accepted, void *ctx)
{
	struct timeline_pane *p = ctx;
	int i = tl_mark_index(text);
	char at[UNITS_BUFSZ + 2];
	if (!accepted)
		return ACT_REDRAW;
	if (i < 0) {
		app_message(app, 1, "%s", _("A mark is named by a letter"));
		return ACT_REDRAW;
	}
	struct tl_pos pos = tl_here(p);
	tl_mark_set(&p->marks, i, &pos);
	app_message(app, 0, _("Mark '%c at %s"), tl_mark_letter(i),
		    units_format_relative(sat_sub(p->cursor, p->tl.origin), tl_bucket(p), at, sizeof(at)));
	return ACT_REDRAW;
}

/* ' and a letter: the cursor goes to the mark, a jump. */
static unsigned mark_go_done(struct app *app, const char *text, int accepted, void *ctx)
{
	struct timeline_pane *p = ctx;
	int i = tl_mark_index(text);
	if (!accepted)
		return ACT_REDRAW;
	const struct tl_pos *mark = i < 0 ? NULL : tl_mark_get(&p->marks, i);
	if (i < 0)
		app_message(app, 1, "%s", _("A mark is named by a letter"));
	else if (!mark)
		app_message(app, 1, _("Mark '%c is not set"), tl_mark_letter(i));
	if (!mark)
		return ACT_REDRAW;
	if (!tl_need_lanes(p, app))
		return ACT_REDRAW;
	struct tl_pos to = *mark;
	tl_jumped_from(p);
	if (!tl_go_to(p, app, &to, 0))
		app_message(app, 0, _("The lane of mark '%c is not shown"), tl_mark_letter(i));
	find_here(p, app);
	return ACT_REDRAW;
}

unsigned tl_ask_mark(struct timeline_pane *p, struct app *app, int go)
{
	struct prompt_owner owner = { NULL, go ? mark_go_done : mark_set_done, p };
	prompt_open_key(&app->prompt, go ? _("Go to mark: ") : _("Mark: "), &owner);
	return ACT_REDRAW;
}

unsigned tl_walk_history(struct timeline_pane *p, struct app *app, int back)
{
	struct tl_pos cur = tl_here(p);
	const struct tl_pos *to = back ? tl_history_back(&p->marks, &cur) : tl_history_forward(&p->marks);
	if (!to) {
		app_message(app, 0, "%s",
			    back ? _("No earlier jump to go back to") : _("No later jump to go forward to"));
		return ACT_REDRAW;
	}
	struct tl_pos pos = *to;
	if (!tl_go_to(p, app, &pos, 1))
		app_message(app, 0, "%s", _("That lane is not shown"));
	find_here(p, app);
	return ACT_REDRAW;
}

unsigned tl_step_gap(struct timeline_pane *p, struct app *app, int dir)
{
	uint32_t gpu = tl_cursor_gpu(p, app->trace);
	char least[UNITS_BUFSZ];
	if (gpu == TRACE_NONE) {
		app_message(app, 0, "%s", _("Gaps are a GPU's: put the cursor on a lane of a GPU queue"));
		return ACT_REDRAW;
	}
	tl_gaps_update(&p->gaps, app->trace, app_sel(app), app_generation(app), app->analysis.gap_threshold);
	const struct gap *g = tl_gaps_step(&p->gaps, gpu, p->cursor, dir, app->analysis.gap_threshold);
	if (!g) {
		units_format_ns(app->analysis.gap_threshold, least, sizeof(least));
		app_message(app, 0,
			    dir > 0 ? _("No later gap of %s or more on this GPU")
				    : _("No earlier gap of %s or more on this GPU"),
			    least);
		return ACT_REDRAW;
	}
	tl_jumped_from(p);
	p->cursor = g->start;
	if (p->cursor < p->view_start || p->cursor >= sat_add(p->view_start, p->view_span))
		p->view_start = sat_sub(p->cursor, p->view_span / 2);
	tl_clamp_view(p);
	find_here(p, app);
	return ACT_REDRAW;
}

/* A time on a queue's lane (a gap from the list of gaps), seen from far
 * enough to show what ran around span ns from it; a jump. */
static void show_time(struct timeline_pane *p, struct app *app, uint32_t queue, int64_t time, int64_t span)
{
	size_t lane = p->tl.nlanes;
	for (size_t i = 0; i < p->tl.nlanes && lane == p->tl.nlanes; i++)
		if (p->tl.lanes[i].kind == TL_GPU && p->tl.lanes[i].queue == queue)
			lane = i;
	tl_jumped_from(p);
	p->view_span = sat_mul(span, 10) > 1000 ? sat_mul(span, 10) : 1000;
	p->view_start = sat_sub(sat_add(time, span / 2), p->view_span / 2);
	p->cursor = time;
	tl_clamp_view(p);
	if (lane < p->tl.nlanes && !tl_lane_rules_hide(&p->rules, lane))
		p->lane = lane;
	else
		app_message(app, 1, "%s", _("The gap's lane is hidden (| sets the lane filter)"));
	find_here(p, app);
}

/* The search after a jump to an instance: the instances of its name when
 * a table asked for that (app_walk_in_timeline), else the one that is on,
 * from there. */
static void find_from(struct timeline_pane *p, struct app *app, uint32_t ref)
{
	if (app->jump_walk)
		tl_find_name(p->find, app, ref);
	else
		tl_find_locate(p->find, app, ref);
	app->jump_walk = 0;
}

unsigned tl_take_jumps(struct timeline_pane *p, struct app *app)
{
	unsigned act = ACT_NONE;
	/* The op is looked for in the lanes of the current selection. */
	if (app->jump_op != TRACE_NONE && tl_lanes_current(p, app)) {
		show_op(p, app, app->jump_op);
		find_from(p, app, app->jump_op);
		app->jump_op = TRACE_NONE;
		act = ACT_REDRAW;
	}
	if (app->jump_queue != TRACE_NONE && tl_lanes_current(p, app)) {
		show_time(p, app, app->jump_queue, app->jump_time, app->jump_span);
		app->jump_queue = TRACE_NONE;
		act = ACT_REDRAW;
	}
	if (app->jump_call != TRACE_NONE && tl_lanes_current(p, app)) {
		show_call(p, app, app->jump_call);
		find_from(p, app, app->jump_call | SEARCH_CALL);
		app->jump_call = TRACE_NONE;
		act = ACT_REDRAW;
	}
	return act;
}
