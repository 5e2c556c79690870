/* The main loop: wait for an event, hand it to the application, act on
 * the flags it returns, draw when something changed. */
#include "config.h"
#include "tui/tui.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curses.h>

#include "analysis/breakdown.h"
#include "tui/export_prompt.h"
#include "tui/filter_prompt.h"
#include "tui/frame.h"
#include "tui/settings.h"
#include "tui/term.h"
#include "tui/theme.h"
#include "util/error.h"
#include "util/i18n.h"

static unsigned handle_key(struct app *app, TermKeyKey *key)
{
	int pressed, button, row, col;
	unsigned had_message = app->message[0] ? ACT_REDRAW : ACT_NONE;
	app->closed_message = app->message[0] != '\0';
	app->message[0] = '\0';
	if (term_mouse(key, &pressed, &button, &row, &col))
		return had_message |
		       (pressed ? app_click(app, row, col, button) : app_release(app, row, col, button));
	char name[64];
	term_key_name(key, name, sizeof(name));
	if (app->prompt.active) {
		int plain = key->type == TERMKEY_TYPE_UNICODE && !(key->modifiers & ~TERMKEY_KEYMOD_SHIFT);
		const char *text = plain ? key->utf8 : strcmp(name, "Space") == 0 ? " " : NULL;
		return prompt_key(&app->prompt, app, name, text);
	}
	if (app_export_key(app, name))
		return ACT_REDRAW;
	enum request req = request_for_key(name);
	unsigned act = req == REQ_NONE ? ACT_UNHANDLED : app_request(app, req);
	/* A key bound to nothing, or to nothing in this pane, says so. */
	if (act & ACT_UNHANDLED) {
		app_message(app, 0, _("Key %s does nothing here (? for help)"), name);
		return ACT_REDRAW;
	}
	return had_message | act;
}

static void draw(struct app *app)
{
	app_draw(app);
	wnoutrefresh(stdscr);
	doupdate();
}

static void flush(struct app *app)
{
	draw(app);
}

static int run_interactive(struct app *app)
{
	int dirty = 1;
	/* A trace that came with its API rows (from the cache): the panes'
	 * indexes are built on the other cores while the first screen is. */
	app_prepare_whole(app);
	for (;;) {
		if (app_idle(app) & ACT_REDRAW)
			dirty = 1;
		if (dirty)
			draw(app);
		/* The first screen is up: the API rows are read from now on. */
		app_start_apis(app);
		dirty = 0;
		struct term_event ev;
		/* While API rows are read, look every 100 ms whether they came. */
		term_wait(&ev, app_busy(app) ? 100 : -1);
		switch (ev.type) {
		case EV_KEY: {
			/* Keys already there (a paste: thousands of them) are taken
			 * together, the screen drawn once after them. */
			unsigned act = 0;
			do {
				unsigned one = handle_key(app, &ev.key);
				if (one & ACT_QUIT)
					return 0;
				if (one & ACT_RESELECT)
					app_reselect(app);
				if (one & ACT_SUSPEND)
					term_suspend();
				act |= one;
			} while (!(act & ACT_SUSPEND) && term_key_now(&ev));
			dirty = (act & (ACT_REDRAW | ACT_SUSPEND)) != 0;
			break;
		}
		case EV_RESIZE:
			term_update_size();
			dirty = 1;
			break;
		case EV_QUIT:
			return 0;
		case EV_TIMEOUT:
			dirty = (app_poll(app) & ACT_REDRAW) != 0;
			break;
		default:
			break;
		}
	}
}

/* A script line: keys separated by blanks, or one ':' command. */
struct script {
	const char *path;
	int lineno;
	char error[2048];
};

static int script_command(struct app *app, struct script *s, char *cmd)
{
	char arg[1024];
	int cols, rows;
	int cursor = sscanf(cmd, ":save-cursor %1023s", arg) == 1;
	if (cursor || sscanf(cmd, ":save-screen %1023s", arg) == 1) {
		FILE *f = fopen(arg, "w");
		int rc = !f       ? -1
			 : cursor ? term_dump_lines_in(f, theme_attr(THEME_CURSOR))
				  : term_dump_screen(f);
		if (rc != 0 || fclose(f) != 0) {
			snprintf(s->error, sizeof(s->error), "%s: %s", arg, strerror(errno));
			return -1;
		}
		return 0;
	}
	/* :clock FILE: the monotonic time in ns, a line appended to FILE, so
	 * that a benchmark times the keys between two clocks. */
	if (sscanf(cmd, ":clock %1023s", arg) == 1) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		FILE *f = fopen(arg, "a");
		if (!f || fprintf(f, "%lld\n", (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec) < 0 ||
		    fclose(f) != 0) {
			snprintf(s->error, sizeof(s->error), "%s: %s", arg, strerror(errno));
			return -1;
		}
		return 0;
	}
	if (sscanf(cmd, ":resize %dx%d", &cols, &rows) == 2 && cols > 0 && rows > 0) {
		term_set_size(cols, rows);
		return 0;
	}
	/* :background on: background work runs as in a terminal, and its
	 * results are taken only at :wait, so screens do not depend on timing;
	 * :background off (the default): each step waits for its work. */
	if (strcmp(cmd, ":background on") == 0 || strcmp(cmd, ":background off") == 0) {
		app->held = strcmp(cmd, ":background on") == 0;
		app->sync = !app->held;
		/* As in a terminal once the first screen is up. */
		if (app->held)
			app_start_apis(app);
		return 0;
	}
	if (strcmp(cmd, ":wait") == 0) {
		app_wait(app);
		return 0;
	}
	int button, row, col;
	/* :mouse B ROW COL presses a button there, :mouse-up lets it go. */
	int up = sscanf(cmd, ":mouse-up %d %d %d", &button, &row, &col) == 3;
	if (up || sscanf(cmd, ":mouse %d %d %d", &button, &row, &col) == 3) {
		TermKeyKey key;
		if (term_fake_mouse(button, row, col, up, &key) == 0) {
			if (handle_key(app, &key) & ACT_RESELECT)
				app_reselect(app);
			return 0;
		}
	}
	snprintf(s->error, sizeof(s->error), _("%s:%d: unknown command '%s'"), s->path, s->lineno, cmd);
	return -1;
}

/* Returns 1 when the keys asked to quit, -1 on an error. */
static int script_keys(struct app *app, struct script *s, char *line)
{
	for (char *tok = strtok(line, " \t"); tok; tok = strtok(NULL, " \t")) {
		TermKeyKey key;
		if (term_parse_key(tok, &key) != 0) {
			snprintf(s->error, sizeof(s->error), _("%s:%d: unknown key '%s'"), s->path, s->lineno,
				 tok);
			return -1;
		}
		unsigned act = handle_key(app, &key);
		if (act & ACT_QUIT)
			return 1;
		if (act & ACT_RESELECT)
			app_reselect(app);
		app_idle(app);
		draw(app);
	}
	return 0;
}

static int run_script(struct app *app, const char *path, char *err, size_t errsize)
{
	struct script s = { .path = path };
	FILE *f = fopen(path, "r");
	char line[4096];
	int rc = 0;
	if (!f) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		return 2;
	}
	app_idle(app);
	draw(app);
	while (rc == 0 && fgets(line, sizeof(line), f)) {
		s.lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		char *p = line;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0' || *p == '#')
			continue;
		rc = *p == ':' ? script_command(app, &s, p) : script_keys(app, &s, p);
		if (rc == 0) {
			app_idle(app);
			draw(app);
		}
	}
	fclose(f);
	if (rc < 0) {
		snprintf(err, errsize, "%s", s.error);
		return 2;
	}
	return 0;
}

/* --debug-memory: the session's and each pane's and view's parts. */
static void print_memory(struct app *app, const struct session *s)
{
	struct mem_report r;
	mem_report_init(&r);
	session_memory(s, &r);
	for (size_t i = 0; i < app->npanes; i++)
		if (app->panes[i].ops && app->panes[i].ops->memory)
			app->panes[i].ops->memory(&app->panes[i], &r);
	mem_report_print(&r, session_input_bytes(s), stderr);
	mem_report_free(&r);
}

int tui_run(struct workspace *w, const struct tui_options *o)
{
	char err[2048] = "";
	struct tui_config cfg;
	config_load(&cfg);
	if (term_open(o->script != NULL, cfg.mono, 80, 24, err, sizeof(err)) != 0) {
		err_report("rpdtop: %s", err);
		return 1;
	}
	struct app app;
	app_init(&app, w, cfg.pane, cfg.names);
	app.flush = flush;
	app.sync = o->script != NULL;
	/* The viewer's own: x changes its gap threshold. */
	analysis_params_free(&app.analysis);
	analysis_params_copy(o->analysis, &app.analysis);
	if (o->strip)
		name_cache_set_style(&app.names, app.names.style | NAME_STRIP);
	int status = o->script ? run_script(&app, o->script, err, sizeof(err)) : run_interactive(&app);
	/* The terminal is given back first: a read still running is waited
	 * for after that. */
	term_close();
	if (o->debug_memory)
		print_memory(&app, &w->session);
	app_free(&app);
	if (err[0])
		err_report("rpdtop: %s", err);
	return status;
}
