/* The lanes' index, built on a thread of its own (analysis/timeline_job.h)
 * whenever the selection, the dimming or the API rows change, and shown
 * once it is done; the previous one is shown until then. And the pane's
 * work between events, which waits for it. */
#include "config.h"
#include "tui/timeline/index.h"

#include <stdlib.h>

#include "analysis/timeline.h"
#include "analysis/timeline_job.h"
#include "analysis/timeline_place.h"
#include "tui/app.h"
#include "tui/timeline/lanes.h"
#include "tui/timeline/navigate.h"
#include "tui/timeline/state.h"
#include "tui/timeline/visible.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/xalloc.h"

/* The view on the whole trace. */
static void view_whole(struct timeline_pane *p)
{
	p->view_start = p->tl.start;
	p->view_span = p->tl.end > p->tl.start ? sat_sub(p->tl.end, p->tl.start) : 1;
}

/* The first index shown: the whole trace, the cursor at its origin on the
 * first queue, whether the counters (read with the API rows) are in yet
 * or not. */
static void first_view(struct timeline_pane *p)
{
	view_whole(p);
	p->cursor = p->tl.origin;
	p->lane = 0;
	while (p->lane + 1 < p->tl.nlanes && p->tl.lanes[p->lane].kind != TL_GPU)
		p->lane++;
	if (p->lane < p->tl.nlanes && p->tl.lanes[p->lane].kind != TL_GPU)
		p->lane = 0;
}

/* What is made from the lanes, made again for new ones: the minimap, the
 * launch sizes (the links may have come with the API rows), the folds
 * (threads come with them too), the lanes shown and the labels' room. */
static void remake_from_lanes(struct timeline_pane *p, struct app *app)
{
	free(p->minimap);
	p->minimap = NULL;
	p->minimap_cols = 0;
	p->dims_op_set = 0;
	if (p->nfolded != app->trace->nthreads) {
		free(p->folded);
		p->nfolded = app->trace->nthreads;
		p->folded = xcalloc(p->nfolded ? p->nfolded : 1, 1);
	}
	free(p->vis);
	p->vis = xcalloc(p->tl.nlanes ? p->tl.nlanes : 1, sizeof(*p->vis));
	tl_lane_rules_apply(&p->rules, &p->tl, tl_owner_label, app);
	tl_update_visible(p);
	p->label_need = tl_label_width(p, app);
}

/* Show a newly built index. A view of the whole trace stays so when the
 * trace grows (the API rows arrive while the first frame is drawn). */
static void install(struct timeline_pane *p, struct app *app, struct timeline *tl, unsigned generation)
{
	int whole =
		p->ready && p->view_start == p->tl.start && sat_add(p->view_start, p->view_span) >= p->tl.end;
	/* The cursor follows its event, or its lane, into the new lanes. */
	int follow = p->ready && p->lane < p->tl.nlanes;
	struct tl_place at = { 0 };
	if (follow)
		at = timeline_place(&p->tl, p->lane, tl_under_cursor(p, &p->tl.lanes[p->lane]));
	timeline_free(&p->tl);
	p->tl = *tl;
	if (follow) {
		size_t lane = timeline_place_lane(&p->tl, app->trace, &at);
		p->lane = lane < p->tl.nlanes ? lane : p->lane < p->tl.nlanes ? p->lane : 0;
	}
	if (whole)
		view_whole(p);
	if (!p->ready)
		first_view(p);
	p->generation = generation;
	p->ready = 1;
	p->lanes_drawn = 0;
	remake_from_lanes(p, app);
}

/* Wait for the job's index; the trace may change again. */
static void finish_job(struct timeline_pane *p, struct timeline *tl)
{
	timeline_job_finish(p->job, tl);
	p->job = NULL;
	session_release(p->held);
	p->held = NULL;
}

/* The index follows the selection (unless dimming) and the API rows. It
 * is built on a thread of its own; the pane shows the previous one until
 * the new one is there (a script, or a key that needs it, waits for it). */
static void build_lanes(struct timeline_pane *p, struct app *app, int wait)
{
	if (!p->ready)
		app_need_apis(app);
	if (p->job && !app->held && (app->sync || wait || timeline_job_done(p->job))) {
		struct timeline tl;
		finish_job(p, &tl);
		if (p->job_generation == app_generation(app) && p->job_dim == p->dim)
			install(p, app, &tl, p->job_generation);
		else
			timeline_free(&tl);
	}
	if (p->job || (p->ready && p->generation == app_generation(app)))
		return;
	/* The calls' lanes are walked in the session's order of calls. When
	 * the API rows were read here rather than apart (where it is made
	 * with them) and no cache file kept their order, it is made now: it
	 * is needed soon after, and sorting the calls for the lanes alone
	 * would take longer. A kept order is walked as it is, while the
	 * session's is made meanwhile. */
	const struct api_order *order = &app->session->views[0].order;
	if (!app->trace->call_order)
		order = app_order(app);
	/* The job reads the trace: it must not change until the job ends. */
	session_hold(app->session);
	p->held = app->session;
	/* The session's order of calls does not change while it is held. */
	p->job = timeline_job_start(app->trace, p->dim ? NULL : app_sel(app), order);
	p->job_generation = app_generation(app);
	p->job_dim = p->dim;
	if (app->sync || wait)
		build_lanes(p, app, wait);
}

void tl_ensure_ready(struct timeline_pane *p, struct app *app)
{
	build_lanes(p, app, 0);
}

int tl_lanes_current(struct timeline_pane *p, struct app *app)
{
	if (!p->ready || p->generation != app_generation(app))
		build_lanes(p, app, 1);
	return p->ready && p->generation == app_generation(app);
}

int tl_need_lanes(struct timeline_pane *p, struct app *app)
{
	if (tl_lanes_current(p, app))
		return 1;
	app_message(app, 0, "%s", _("The lanes are being rebuilt: try again when they are drawn"));
	return 0;
}

int tl_index_busy(const struct timeline_pane *p)
{
	/* Facts still to find keep the viewer looking back soon. */
	if (!p->job)
		return p->details_waiting ? VIEW_WORKING : VIEW_IDLE;
	return timeline_job_done(p->job) ? VIEW_DONE : VIEW_WORKING;
}

void tl_index_free(struct timeline_pane *p)
{
	if (p->job) {
		struct timeline tl;
		finish_job(p, &tl);
		timeline_free(&tl);
	}
	timeline_free(&p->tl);
}
