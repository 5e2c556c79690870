/* e: export what the filter and window keep. The file name is asked for;
 * an existing file is replaced only after a y. The export is written on
 * a thread of its own: the status line shows how long it has run, keys
 * stay live, and C-c stops it (no file is left behind). */
#include "config.h"
#include "tui/export_prompt.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "export/export_job.h"
#include "util/i18n.h"
#include "util/units.h"

static char pending[PROMPT_MAX]; /* the file waiting for y/n */

static void start(struct app *app, const char *path, int force)
{
	struct session *s = app->session;
	struct rpd_error err;
	int ready = workspace_ready_for_export(app->ws, &err);
	app->export_waiting = ready > 0;
	if (ready < 0) {
		app_message(app, 1, "%s", err.msg);
		return;
	}
	if (ready > 0) {
		/* The API rows are read but cannot move in while a job reads the
		 * trace: the export starts when they have (app_export_poll). */
		if (path != app->export_path)
			snprintf(app->export_path, sizeof(app->export_path), "%s", path);
		app->export_force = force;
		app_message(app, 0, _("Exporting to %s once the API calls are in..."), app->export_path);
		app->message_progress = 1;
		return;
	}
	struct export_request req = { .t = session_trace(s),
				      .sel = session_sel(s),
				      .filter = &s->filter,
				      .window = session_window(s),
				      .path = path,
				      .force = force };
	/* The export reads the trace until it ends: the API rows wait. */
	session_hold(s);
	app->export = export_job_start(&req);
	app_message(app, 0, _("Exporting %zu ops to %s... (C-c stops)"), session_sel(s)->nops, path);
	app->message_progress = 1;
	if (path != app->export_path)
		snprintf(app->export_path, sizeof(app->export_path), "%s", path);
	/* A script waits for the file: its next screen shows the result. */
	if (app->sync)
		app_export_poll(app);
}

static void finished(struct app *app)
{
	struct export_result res;
	struct rpd_error err;
	int rc = export_job_finish(app->export, &res, &err);
	app->export = NULL;
	app->quit_asked = 0;
	session_release(app->session);
	if (rc) {
		app_message(app, 1, "%s", err.msg);
		return;
	}
	char size[32];
	if (res.bytes >= 1 << 20)
		snprintf(size, sizeof(size), "%.1f MB", (double)res.bytes / (1 << 20));
	else
		snprintf(size, sizeof(size), "%.1f kB", (double)res.bytes / 1024);
	app_message(app, 0, _("exported %llu ops, %llu api rows to %s (%s)"), (unsigned long long)res.ops,
		    (unsigned long long)res.apis, app->export_path, size);
}

unsigned app_export_poll(struct app *app)
{
	if (app->export_waiting && !app->held) {
		start(app, app->export_path, app->export_force);
		return ACT_REDRAW;
	}
	if (!app->export || app->held)
		return ACT_NONE;
	if (app->sync || export_job_done(app->export)) {
		finished(app);
		return ACT_REDRAW;
	}
	/* Say it is still going, unless the user reads another message. */
	if (!app->message[0] || app->message_progress) {
		app_message(app, 0, _("Exporting to %s... %.0f s (C-c stops)"), app->export_path,
			    export_job_seconds(app->export));
		app->message_progress = 1;
	}
	return ACT_REDRAW;
}

int app_export_key(struct app *app, const char *key)
{
	if (!app->export || strcmp(key, "C-c") != 0)
		return 0;
	export_job_stop(app->export);
	app_message(app, 0, _("Stopping the export to %s..."), app->export_path);
	return 1;
}

void app_export_end(struct app *app)
{
	app->export_waiting = 0;
	if (!app->export)
		return;
	export_job_stop(app->export);
	finished(app);
}

static unsigned confirm_done(struct app *app, const char *text, int accepted, void *ctx)
{
	(void)ctx;
	if (accepted && (text[0] == 'y' || text[0] == 'Y'))
		start(app, pending, 1);
	else
		app_message(app, 0, "%s", _("Not exported"));
	return ACT_REDRAW;
}

static unsigned path_done(struct app *app, const char *text, int accepted, void *ctx)
{
	(void)ctx;
	if (!accepted || !*text)
		return ACT_REDRAW;
	if (access(text, F_OK) == 0) {
		char label[PROMPT_MAX + 64];
		snprintf(pending, sizeof(pending), "%s", text);
		snprintf(label, sizeof(label), _("%s exists. Replace it? (y/n) "), text);
		struct prompt_owner owner = { NULL, confirm_done, NULL };
		prompt_open(&app->prompt, label, NULL, &owner);
		return ACT_REDRAW;
	}
	start(app, text, 0);
	return ACT_REDRAW;
}

unsigned app_prompt_export(struct app *app)
{
	struct prompt_owner owner = { NULL, path_done, NULL };
	if (app->export) {
		app_message(app, 1, _("An export to %s is being written (C-c stops it)"), app->export_path);
		return ACT_REDRAW;
	}
	if (app_sel(app)->nops == 0) {
		app_message(app, 1, "%s", _("Nothing to export: no GPU op passes the filter"));
		return ACT_REDRAW;
	}
	prompt_open(&app->prompt, _("Export to: "), NULL, &owner);
	return ACT_REDRAW;
}
