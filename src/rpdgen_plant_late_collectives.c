/* late-collectives: every collective kernel (a name with nccl, any case,
 * or cross_device) 100 us later. Planted in one rank of a job whose ranks
 * are otherwise alike (rpdgen --collectives, one seed), it makes that rank
 * the straggler: in each collective instance the other ranks wait 100 us
 * for it. */
#include "config.h"

#include "rpdgen_plant.h"

static const char late_collectives_sql[] =
	"UPDATE rocpd_op SET start = start + 100000, end = end + 100000 WHERE description_id IN "
	"(SELECT id FROM rocpd_string WHERE lower(string) GLOB '*nccl*' OR string GLOB '*cross_device*');";

int plant_late_collectives(sqlite3 *db, char **msg)
{
	return plant_exec(db, late_collectives_sql, msg);
}
