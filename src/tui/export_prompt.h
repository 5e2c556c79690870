/* The export prompt: a file name asked for, the export written on a
 * thread of its own, its progress in the status line, C-c to stop it. */
#ifndef RPDTOP_EXPORT_PROMPT_H
#define RPDTOP_EXPORT_PROMPT_H

#include "tui/app.h"

/* Ask for a file name and export what the selection keeps, on another
 * thread; C-c stops it. */
unsigned app_prompt_export(struct app *app);
/* Between events: how the export goes, and its end. */
unsigned app_export_poll(struct app *app);
/* A key while an export runs: C-c stops it; returns 1 when it was taken. */
int app_export_key(struct app *app, const char *key);
/* Stop an export still running and wait for it (quitting). */
void app_export_end(struct app *app);

#endif
