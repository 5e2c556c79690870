/* The lanes shown and their labels: a thread's nesting rows folded, the
 * CPU lanes hidden, the lane filter asked for and applied. */
#include "config.h"
#include "tui/timeline/visible.h"

#include <stdio.h>

#include "analysis/timeline.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/timeline/lanes.h"
#include "tui/timeline/state.h"
#include "util/i18n.h"

int tl_lane_hidden(const struct timeline_pane *p, const struct tl_lane *l)
{
	return (l->kind == TL_CPU && l->depth > 0 && p->folded[l->thread]) ||
	       tl_lane_rules_hide(&p->rules, (size_t)(l - p->tl.lanes));
}

size_t tl_idle_hidden(const struct timeline_pane *p)
{
	size_t n = 0;
	for (size_t i = 0; i < p->tl.nlanes; i++)
		n += p->tl.lanes[i].idle && tl_lane_rules_hide(&p->rules, i);
	return n;
}

void tl_update_visible(struct timeline_pane *p)
{
	p->nvis = 0;
	for (size_t i = 0; i < p->tl.nlanes; i++)
		if (!tl_lane_hidden(p, &p->tl.lanes[i]))
			p->vis[p->nvis++] = i;
	size_t up = p->lane;
	while (up > 0 && up < p->tl.nlanes && tl_lane_hidden(p, &p->tl.lanes[up]))
		up--;
	if (up < p->tl.nlanes && !tl_lane_hidden(p, &p->tl.lanes[up]))
		p->lane = up;
	else if (p->nvis)
		p->lane = p->vis[0];
	if (p->top >= p->nvis)
		p->top = 0;
}

size_t tl_visible_pos(const struct timeline_pane *p)
{
	for (size_t i = 0; i < p->nvis; i++)
		if (p->vis[i] >= p->lane)
			return i;
	return p->nvis ? p->nvis - 1 : 0;
}

int tl_label_width(const struct timeline_pane *p, const struct app *app)
{
	int w = LABEL_MIN;
	for (size_t i = 0; i < p->tl.nlanes; i++) {
		char label[160];
		/* Folded rows may come back at a key; the rules' lanes not. */
		if (tl_lane_rules_hide(&p->rules, i))
			continue;
		tl_lane_label(app, &p->tl.lanes[i], label, sizeof(label));
		int need = text_width(label) + 2;
		if (need > w)
			w = need;
	}
	return w < LABEL_MAX ? w : LABEL_MAX;
}

void tl_lane_label(const struct app *app, const struct tl_lane *l, char *buf, size_t size)
{
	char gpu[96];
	if (l->kind == TL_COUNTER) {
		/* Under its GPU's lanes, the counter's name says enough; then
		 * the scale its bars stand on. */
		const struct trace_counter *c = &app->trace->counters.series[l->series];
		char name[160], scale[96];
		if (l->headed)
			snprintf(name, sizeof(name), "  %s%s", trace_str(app->trace, c->name),
				 c->source == COUNTER_SAMPLED ? " (sampled)" : "");
		else
			trace_counter_label(app->trace, l->series, name, sizeof(name));
		counter_scale_format(&l->scale, c->unit == TRACE_NONE ? NULL : trace_str(app->trace, c->unit),
				     scale, sizeof(scale));
		snprintf(buf, size, "%s %s", name, scale);
		return;
	}
	if (l->kind == TL_CPU) {
		if (l->depth == 0)
			trace_thread_label(app->trace, l->thread, buf, size);
		else
			snprintf(buf, size, "  %*s%d", l->depth > 6 ? 6 : l->depth, "", l->depth);
		return;
	}
	char queue[96];
	trace_gpu_label(app->trace, app->trace->queues[l->queue].gpu, gpu, sizeof(gpu));
	snprintf(buf, size, "GPU %s %s", gpu, trace_queue_label(app->trace, l->queue, queue, sizeof(queue)));
}

void tl_owner_label(const void *ctx, const struct tl_lane *l, char *buf, size_t size)
{
	const struct app *app = ctx;
	if (l->kind == TL_CPU)
		trace_thread_label(app->trace, l->thread, buf, size);
	else if (l->kind == TL_COUNTER)
		trace_counter_label(app->trace, l->series, buf, size);
	else
		tl_lane_label(app, l, buf, size);
}

unsigned tl_move_lane(struct timeline_pane *p, int by)
{
	if (p->nvis == 0)
		return ACT_NONE;
	long pos = (long)tl_visible_pos(p) + by;
	if (pos < 0)
		pos = 0;
	if (pos >= (long)p->nvis)
		pos = (long)p->nvis - 1;
	p->lane = p->vis[pos];
	return ACT_REDRAW;
}

unsigned tl_fold(struct timeline_pane *p, struct app *app)
{
	if (p->lane >= p->tl.nlanes)
		return ACT_NONE;
	const struct tl_lane *l = &p->tl.lanes[p->lane];
	if (l->kind != TL_CPU) {
		app_message(app, 0, "%s", _("Only a thread's lane has rows to fold"));
		return ACT_REDRAW;
	}
	p->folded[l->thread] = !p->folded[l->thread];
	tl_update_visible(p);
	return ACT_REDRAW;
}

unsigned tl_fold_every(struct timeline_pane *p, struct app *app)
{
	int folded = tl_fold_all(p->folded, p->nfolded, &p->tl);
	tl_update_visible(p);
	app_message(app, 0, "%s",
		    folded ? _("Every thread's nesting rows folded") : _("Every thread unfolded"));
	return ACT_REDRAW;
}

/* The lane rules changed: the lanes shown again. */
static void rules_changed(struct timeline_pane *p, struct app *app)
{
	tl_lane_rules_apply(&p->rules, &p->tl, tl_owner_label, app);
	tl_update_visible(p);
	p->label_need = tl_label_width(p, app);
}

unsigned tl_toggle_cpu(struct timeline_pane *p, struct app *app)
{
	p->rules.cpu_hidden = !p->rules.cpu_hidden;
	rules_changed(p, app);
	app_message(app, 0, "%s", p->rules.cpu_hidden ? _("CPU lanes hidden") : _("CPU lanes shown"));
	return ACT_REDRAW;
}

/* The lane filter typed: kept when some lane passes it. */
static unsigned lanes_done(struct app *app, const char *text, int accepted, void *ctx)
{
	struct timeline_pane *p = ctx;
	char err[512], was[sizeof(p->rules.text)];
	struct filter old;
	if (!accepted)
		return ACT_REDRAW;
	snprintf(was, sizeof(was), "%s", p->rules.text);
	if (tl_lane_rules_set(&p->rules, text, &old, err, sizeof(err)) < 0) {
		prompt_error(&app->prompt, err);
		return ACT_STAY;
	}
	if (tl_lane_rules_apply(&p->rules, &p->tl, tl_owner_label, app) == 0) {
		tl_lane_rules_restore(&p->rules, &old, was);
		prompt_error(&app->prompt, _("No lane's label matches"));
		return ACT_STAY;
	}
	filter_free(&old);
	tl_update_visible(p);
	p->label_need = tl_label_width(p, app);
	return ACT_REDRAW;
}

unsigned tl_ask_lanes(struct timeline_pane *p, struct app *app)
{
	struct prompt_owner owner = { NULL, lanes_done, p };
	prompt_open(&app->prompt, _("Lanes: "), p->rules.text, &owner);
	return ACT_REDRAW;
}
