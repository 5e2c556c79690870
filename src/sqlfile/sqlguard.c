#include "config.h"
#include "sqlfile/sqlguard.h"

#include <stddef.h>

int sqlguard_harden(sqlite3 *db)
{
	int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)NULL);
	return rc;
}
