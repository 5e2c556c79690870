/* The plants of rpdgen --plant, one line each: PLANT(fn, name, help) is
 * plant_fn (src/rpdgen_plant_fn.c), asked for as name, help one line of
 * --help. */
