#include "config.h"

#include <stdio.h>
#include <string.h>

#include "rpdgen_plant.h"

static const struct {
	const char *name, *help;
	plant_fn fn;
} plants[] = {
#define PLANT(fn, name, help) { name, help, plant_##fn },
#include "rpdgen_plants.h"
#undef PLANT
	{ NULL, NULL, NULL },
};

int plant_exec(sqlite3 *db, const char *sql, char **msg)
{
	return sqlite3_exec(db, sql, NULL, NULL, msg) == SQLITE_OK ? 0 : -1;
}

void rpdgen_plant_help(FILE *out)
{
	for (size_t i = 0; plants[i].name; i++)
		fprintf(out, "                   %s: %s\n", plants[i].name, plants[i].help);
}

int rpdgen_plant(const char *path, const char *name)
{
	size_t i = 0;
	while (plants[i].name && strcmp(plants[i].name, name) != 0)
		i++;
	if (!plants[i].name) {
		fprintf(stderr, "rpdgen: no plant '%s'\n", name);
		return -1;
	}
	sqlite3 *db;
	char *msg = NULL;
	int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK ? 0 : -1;
	/* One transaction: a plant half made is no plant. */
	if (rc == 0)
		rc = plant_exec(db, "BEGIN", &msg);
	if (rc == 0)
		rc = plants[i].fn(db, &msg);
	if (rc == 0)
		rc = plant_exec(db, "COMMIT", &msg);
	if (rc)
		fprintf(stderr, "rpdgen: %s: plant %s: %s\n", path, name, msg ? msg : sqlite3_errmsg(db));
	sqlite3_free(msg);
	sqlite3_close(db);
	return rc;
}
