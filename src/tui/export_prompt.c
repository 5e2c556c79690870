/* e: export what the filter and window keep. The file name is asked for;
 * an existing file is replaced only after a y. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "export/export.h"
#include "tui/app.h"
#include "util/i18n.h"
#include "util/units.h"

static char pending[PROMPT_MAX]; /* the file waiting for y/n */

static void run(struct app *app, const char *path, int force)
{
	struct export_request req = { .t = app->trace,
				      .sel = &app->sel,
				      .filter = &app->filter,
				      .window = &app->window,
				      .path = path,
				      .force = force };
	struct export_result res;
	struct rpd_error err;
	app_message(app, 0, _("Exporting %zu ops to %s..."), app->sel.nops, path);
	if (app->flush)
		app->flush(app);
	if (export_trace(&req, &res, &err)) {
		app_message(app, 1, "%s", err.msg);
		return;
	}
	char size[32];
	if (res.bytes >= 1 << 20)
		snprintf(size, sizeof(size), "%.1f MB", (double)res.bytes / (1 << 20));
	else
		snprintf(size, sizeof(size), "%.1f kB", (double)res.bytes / 1024);
	app_message(app, 0, _("exported %llu ops, %llu api rows to %s (%s)"), (unsigned long long)res.ops,
		    (unsigned long long)res.apis, path, size);
}

static int confirm_done(struct app *app, const char *text, int accepted, void *ctx)
{
	(void)ctx;
	if (accepted && (text[0] == 'y' || text[0] == 'Y'))
		run(app, pending, 1);
	else
		app_message(app, 0, "%s", _("Not exported"));
	return 0;
}

static int path_done(struct app *app, const char *text, int accepted, void *ctx)
{
	(void)ctx;
	if (!accepted || !*text)
		return 0;
	if (access(text, F_OK) == 0) {
		char label[PROMPT_MAX + 64];
		snprintf(pending, sizeof(pending), "%s", text);
		snprintf(label, sizeof(label), _("%s exists. Replace it? (y/n) "), text);
		struct prompt_owner owner = { NULL, confirm_done, NULL };
		prompt_open(&app->prompt, label, NULL, &owner);
		return 0;
	}
	run(app, text, 0);
	return 0;
}

unsigned app_prompt_export(struct app *app)
{
	struct prompt_owner owner = { NULL, path_done, NULL };
	if (app->sel.nops == 0) {
		app_message(app, 1, "%s", _("Nothing to export: no GPU op passes the filter"));
		return ACT_REDRAW;
	}
	prompt_open(&app->prompt, _("Export to: "), NULL, &owner);
	return ACT_REDRAW;
}
