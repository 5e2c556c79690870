/* The plants of rpdgen --plant, one line each: PLANT(fn, name, help) is
 * plant_fn (src/rpdgen_plant_fn.c), asked for as name, help one line of
 * --help. */
PLANT(tiny_kernels, "tiny-kernels", "1000 kernels of 2 us on GPU 0, each after a 10 us launch")
PLANT(outlier, "outlier",
      "one instance of GPU 0's most frequent kernel 5 ms longer, the GPU's later ops after it")
PLANT(slow_step, "slow-step", "the first process's tenth step 50 ms longer, its GPUs idle inside it")
PLANT(blocking_copy, "blocking-copy",
      "after GPU 0's ops, 100 steps: a kernel, a blocking hipMemcpy of its result, 1 ms of host work")
PLANT(unhidden_comm, "unhidden-comm",
      "after GPU 0's ops, 100 all-reduces of 200 us with no compute beside them (20 ms exposed)")
PLANT(late_collectives, "late-collectives",
      "every collective kernel 100 us later (one rank of a job: the straggler)")
