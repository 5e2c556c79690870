/* Natural order of names: runs of digits compare as numbers, so that
 * rank2 comes before rank10 and GPU 9 before GPU 10. */
#ifndef RPDTOP_NATCMP_H
#define RPDTOP_NATCMP_H

/* <0, 0 or >0 as a sorts before, with or after b: byte by byte, but a run
 * of digits against a run of digits by its value (leading zeros do not
 * count, except to tell "02" after "2"). */
int natcmp(const char *a, const char *b);

#endif
