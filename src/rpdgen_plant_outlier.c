/* outlier: GPU 0's most frequent kernel (the first of equals by string
 * id), its instance of the 51st start, made 5 ms longer, and every op of
 * GPU 0 that starts at or after its old end 5 ms later: one instance far
 * slower than its name's others, which outlier finds with its duration
 * minus the name's median as its time. */
#include "config.h"

#include "rpdgen_plant.h"

static const char outlier_sql[] =
	"CREATE TEMP TABLE k AS SELECT description_id AS d FROM rocpd_op WHERE gpuId = 0 AND description_id "
	"IN "
	"(SELECT id FROM rocpd_string WHERE string <> '') AND opType_id IN (SELECT id FROM rocpd_string "
	"WHERE "
	"string = 'KernelExecution') GROUP BY description_id ORDER BY count(*) DESC, description_id LIMIT 1;"
	"CREATE TEMP TABLE pick AS SELECT id, end AS e FROM rocpd_op WHERE gpuId = 0 AND description_id = "
	"(SELECT d FROM k) ORDER BY start, id LIMIT 1 OFFSET 50;"
	"UPDATE rocpd_op SET start = start + 5000000, end = end + 5000000 WHERE gpuId = 0 AND "
	"start >= (SELECT e FROM pick) AND id <> (SELECT id FROM pick);"
	"UPDATE rocpd_op SET end = end + 5000000 WHERE id = (SELECT id FROM pick);"
	"DROP TABLE pick; DROP TABLE k;";

int plant_outlier(sqlite3 *db, char **msg)
{
	return plant_exec(db, outlier_sql, msg);
}
