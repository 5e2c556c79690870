/* The settings file, $XDG_CONFIG_HOME/rpdtop/config (or
 * ~/.config/rpdtop/config), read line by line for the viewer and the
 * reports alike: blank lines and lines starting with # are skipped, a
 * line "[NAME]" starts section NAME (the lines before the first are in
 * section ""), and every other line goes to the reader's function. */
#ifndef RPDTOP_SETTINGS_FILE_H
#define RPDTOP_SETTINGS_FILE_H

#include <stddef.h>

/* One line of section (trimmed, not empty). Returns 0 when it took the
 * line, -1 for a line it does not know (named on stderr and ignored),
 * or -2 after naming the problem itself with settings_file_complain. */
typedef int (*settings_line_fn)(void *ctx, const char *section, char *line, const char *path, int lineno);

/* The settings file's path in buf; -1 when there is no place for it. */
int settings_file_path(char *buf, size_t size);
/* Read the file at path (a missing file is no error); returns the number
 * of lines ignored. */
int settings_file_read(const char *path, settings_line_fn fn, void *ctx);
/* "rpdtop: PATH:LINE: ignored: WHY" on stderr. */
void settings_file_complain(const char *path, int lineno, const char *why);
/* Trim white space on both sides, in place. */
char *settings_trim(char *s);

#endif
