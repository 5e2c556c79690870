#include "config.h"
#include "tui/timeline/find.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/search.h"
#include "tui/app.h"
#include "tui/panes.h"
#include "util/i18n.h"
#include "util/xalloc.h"

struct tl_find {
	int active;
	char text[PROMPT_MAX]; /* the pattern of the search that is on */
	struct filter pattern; /* compiled once per search */
	/* Or the instances of one name (a table's Enter): its string id, of
	 * the calls' names (a roctx text) or of the ops'; TRACE_NONE: a
	 * pattern's search. */
	uint32_t name;
	int name_calls;
	struct search_result res;
	size_t cur;                 /* the match last gone to; res.n: none */
	unsigned generation, style; /* what the matches were found in */
	int64_t origin;             /* the cursor when the prompt opened */
	uint32_t pending;           /* a match to show, or TRACE_NONE */
};

struct tl_find *tl_find_new(void)
{
	struct tl_find *f = xcalloc(1, sizeof(*f));
	filter_init(&f->pattern);
	f->pending = TRACE_NONE;
	f->name = TRACE_NONE;
	return f;
}

static void forget(struct tl_find *f)
{
	search_free(&f->res);
	filter_free(&f->pattern);
	f->active = 0;
	f->cur = 0;
	f->pending = TRACE_NONE;
	f->name = TRACE_NONE;
}

void tl_find_free(struct tl_find *f)
{
	if (!f)
		return;
	forget(f);
	free(f);
}

static const char *shown_name(void *ctx, uint32_t id)
{
	return app_name(ctx, id);
}

/* Every event of the selection whose shown name the pattern matches. */
static struct search_query query(struct app *app, const struct filter *pattern)
{
	struct search_query q = search_query_all(1, 1);
	q.pattern = pattern;
	q.op_name = shown_name;
	q.ctx = app;
	return q;
}

/* What the search that is on looks for: its pattern, or its name. */
static struct search_query find_query(const struct tl_find *f, struct app *app)
{
	if (f->name == TRACE_NONE)
		return query(app, &f->pattern);
	struct search_query q = search_query_all(!f->name_calls, f->name_calls);
	q.name = f->name;
	return q;
}

int tl_find_active(const struct tl_find *f)
{
	return f && f->active;
}

int tl_find_end(struct tl_find *f, struct app *app)
{
	if (!tl_find_active(f))
		return 0;
	forget(f);
	app_message(app, 0, "%s", _("Search ended: n and N move along the lane again"));
	return 1;
}

static void find_all(struct tl_find *f, struct app *app)
{
	struct search_query q = find_query(f, app);
	search_free(&f->res);
	if (search_run(app->trace, app_sel(app), &q, &f->res))
		app_message(app, 1, "%s", _("The trace has too many rows to search"));
	f->cur = f->res.n;
	f->generation = app_generation(app);
	f->style = app->names.style;
}

void tl_find_refresh(struct tl_find *f, struct app *app)
{
	if (tl_find_active(f) && (f->generation != app_generation(app) || f->style != app->names.style))
		find_all(f, app);
}

/* As the pattern is typed, the prompt counts what it matches. */
static void typed(struct app *app, const char *text, void *ctx)
{
	char label[64], err[512];
	struct filter pattern;
	(void)ctx;
	filter_init(&pattern);
	if (!*text) {
		snprintf(label, sizeof(label), "%s", _("Search: "));
	} else if (filter_push(&pattern, text, err, sizeof(err))) {
		snprintf(label, sizeof(label), "%s", _("Search (?): "));
	} else {
		struct search_query q = query(app, &pattern);
		size_t nops, ncalls;
		search_count(app->trace, app_sel(app), &q, &nops, &ncalls);
		snprintf(label, sizeof(label), _("Search (%zu): "), nops + ncalls);
	}
	filter_free(&pattern);
	prompt_set_label(&app->prompt, label);
}

static void say_found(struct tl_find *f, struct app *app, int wrapped)
{
	char line[256];
	snprintf(line, sizeof(line),
		 P_("%zu match (%zu ops, %zu calls)", "%zu matches (%zu ops, %zu calls)", f->res.n), f->res.n,
		 f->res.nops, f->res.ncalls);
	if (wrapped)
		app_message(app, 0, _("%s; none after the cursor: the first"), line);
	else
		app_message(app, 0, "%s", line);
}

static unsigned entered(struct app *app, const char *text, int accepted, void *ctx)
{
	struct tl_find *f = ctx;
	char err[512];
	if (!accepted || !*text) {
		if (!tl_find_end(f, app) && accepted)
			app_message(app, 0, "%s", _("No search"));
		return ACT_REDRAW;
	}
	/* A bad pattern keeps the prompt open, and the search that is on. */
	struct filter pattern;
	filter_init(&pattern);
	if (filter_push(&pattern, text, err, sizeof(err))) {
		prompt_error(&app->prompt, err);
		return ACT_STAY;
	}
	forget(f);
	f->pattern = pattern;
	snprintf(f->text, sizeof(f->text), "%s", text);
	find_all(f, app);
	if (f->res.n == 0) {
		forget(f);
		app_message(app, 1, _("Not found: %s"), text);
		return ACT_REDRAW;
	}
	f->active = 1;
	/* The first match at or after the cursor, else the first of all. */
	size_t i = search_next(app->trace, &f->res, f->origin - 1, 1);
	int wrapped = i == f->res.n;
	f->cur = wrapped ? 0 : i;
	f->pending = f->res.refs[f->cur];
	say_found(f, app, wrapped);
	return ACT_REDRAW;
}

unsigned tl_find_open(struct tl_find *f, struct app *app, int64_t cursor)
{
	struct prompt_owner owner = { typed, entered, f };
	f->origin = cursor;
	prompt_open(&app->prompt, _("Search: "), NULL, &owner);
	return ACT_REDRAW;
}

void tl_find_name(struct tl_find *f, struct app *app, uint32_t ref)
{
	forget(f);
	f->name = search_name(app->trace, ref);
	f->name_calls = search_is_call(ref);
	find_all(f, app);
	f->active = 1;
	tl_find_locate(f, app, ref);
}

size_t tl_find_count(const struct tl_find *f)
{
	return tl_find_active(f) ? f->res.n : 0;
}

uint32_t tl_find_take(struct tl_find *f)
{
	uint32_t ref = f->pending;
	f->pending = TRACE_NONE;
	return ref;
}

uint32_t tl_find_step(struct tl_find *f, struct app *app, int64_t cursor, int dir)
{
	const struct trace *t = app->trace;
	tl_find_refresh(f, app);
	if (f->res.n == 0 && f->name != TRACE_NONE) {
		app_message(app, 1, _("No instance of %s is in view"), app_name(app, f->name));
		return TRACE_NONE;
	}
	if (f->res.n == 0) {
		app_message(app, 1, _("Nothing in view matches /%s/"), f->text);
		return TRACE_NONE;
	}
	size_t i;
	/* From the match the cursor is on, the one after it (others may
	 * start at the same time); from anywhere else, by time. */
	if (f->cur < f->res.n && search_start(t, f->res.refs[f->cur]) == cursor)
		i = dir > 0 ? f->cur + 1 : f->cur > 0 ? f->cur - 1 : f->res.n;
	else
		i = search_next(t, &f->res, cursor, dir);
	if (i >= f->res.n) {
		i = dir > 0 ? 0 : f->res.n - 1;
		app_message(app, 0, "%s",
			    dir > 0 ? _("Search wrapped to the first match")
				    : _("Search wrapped to the last match"));
	}
	f->cur = i;
	return f->res.refs[i];
}

void tl_find_locate(struct tl_find *f, struct app *app, uint32_t ref)
{
	const struct trace *t = app->trace;
	if (!tl_find_active(f))
		return;
	tl_find_refresh(f, app);
	f->cur = f->res.n;
	if (ref == TRACE_NONE)
		return;
	int64_t start = search_start(t, ref);
	for (size_t i = search_next(t, &f->res, start - 1, 1); i < f->res.n; i++) {
		if (search_start(t, f->res.refs[i]) != start)
			break;
		if (f->res.refs[i] == ref)
			f->cur = i;
	}
}

unsigned tl_find_list(struct tl_find *f, struct app *app)
{
	if (!tl_find_active(f)) {
		app_message(app, 0, "%s", _("No search to list"));
		return ACT_REDRAW;
	}
	char title[PROMPT_MAX + 2];
	struct search_query q = find_query(f, app);
	tl_find_refresh(f, app);
	if (f->name != TRACE_NONE)
		snprintf(title, sizeof(title), "%s", app_name(app, f->name));
	else
		snprintf(title, sizeof(title), "/%s/", f->text);
	app_push(app, view_results_new(app, title, &q, &f->res));
	return ACT_REDRAW;
}

void tl_find_status(const struct tl_find *f, struct app *app, int64_t cursor, char *buf, size_t size)
{
	buf[0] = '\0';
	if (!tl_find_active(f))
		return;
	/* The place only while the cursor is on that match (Home, a click or
	 * Enter may have taken it elsewhere). */
	int on = f->cur < f->res.n && search_start(app->trace, f->res.refs[f->cur]) == cursor;
	if (f->name != TRACE_NONE && on)
		snprintf(buf, size, _("n N: %.40s %zu/%zu"), app_name(app, f->name), f->cur + 1, f->res.n);
	else if (f->name != TRACE_NONE)
		snprintf(buf, size, _("n N: %.40s %zu"), app_name(app, f->name), f->res.n);
	else if (on)
		snprintf(buf, size, "/%.40s/ %zu/%zu", f->text, f->cur + 1, f->res.n);
	else
		snprintf(buf, size, "/%.40s/ %zu", f->text, f->res.n);
}
