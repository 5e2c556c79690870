/* Short names for Tensile's GEMM kernels. A Tensile (and hipBLASLt) kernel
 * is named by its operation ("Cijk_Alik_Bljk_HHS_BH"), its macro tile
 * ("MT128x128x32") and a hundred parameter fields after it
 * ("MI32x32x8x1_SN_1LDSB0_..._WG32_4_1_WGM8"); kernels of one operation and
 * tile often differ in two or three fields some 200 characters in. */
#ifndef RPDTOP_TENSILE_H
#define RPDTOP_TENSILE_H

#include <stddef.h>

/* Whether name is a Tensile name: "Cijk_", fields separated by '_', one
 * of them the macro tile MT<digits>... */
int tensile_is_name(const char *name);

/* The short form of name among the Tensile names present (peers; name may
 * be one of them): the operation, the macro tile, and the fields of name
 * that some other peer of the same operation and tile lacks, in their
 * order. A field is a '_'-separated word with the all-digit words after
 * it ("WG32_4_1"). NULL when name is not a Tensile name; a new string the
 * caller frees otherwise. */
char *tensile_short(const char *name, const char *const *peers, size_t npeers);

#endif
