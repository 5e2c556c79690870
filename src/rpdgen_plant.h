/* Problems planted into a generated rpd file (rpdgen --plant=NAME), for
 * the findings' tests: each changes the file with SQL after it is
 * written, so that what it planted is exactly what a finding should
 * report, and the file without it is its clean twin. The plants are
 * listed in rpdgen_plants.h, each a function of its own file
 * (rpdgen_plant_NAME.c). */
#ifndef RPDTOP_RPDGEN_PLANT_H
#define RPDTOP_RPDGEN_PLANT_H

#include <stdio.h>

#include <sqlite3.h>

/* Plant into db; -1 with a message in *msg (sqlite3_malloc'd or NULL). */
typedef int (*plant_fn)(sqlite3 *db, char **msg);

#define PLANT(fn, name, help) int plant_##fn(sqlite3 *db, char **msg);
#include "rpdgen_plants.h"
#undef PLANT

/* Plant name (of rpdgen_plants.h) into the rpd file at path: 0, or -1
 * named on stderr (an unknown name too). */
int rpdgen_plant(const char *path, const char *name);
/* The plants' lines for --help. */
void rpdgen_plant_help(FILE *out);
/* Run sql on db (several statements of the program's own). */
int plant_exec(sqlite3 *db, const char *sql, char **msg);

#endif
