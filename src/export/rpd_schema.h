/* The rpd schema (version 2) as rocmProfileData writes it: tables, then the
 * views its tools expect to find. */
#ifndef RPDTOP_RPD_SCHEMA_H
#define RPDTOP_RPD_SCHEMA_H

extern const char rpd_schema_tables[];
extern const char rpd_schema_views[];

#endif
