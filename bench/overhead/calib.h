/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Calibration shared by the overhead benchmarks (guest side): the time of
 * a fixed amount of plain computation, taken before and after the
 * measurement.  The host divides by it, which cancels the speed of the
 * (emulated) CPU, e.g. QEMU -icount shift=auto changing the time one
 * instruction takes; drift = after/before flags a change during the
 * measurement.
 */
#ifndef IPCC_BENCH_CALIB_H
#define IPCC_BENCH_CALIB_H

#include <time.h>

#define CALIB_ITERS	2000000L

static double calib_ns(void)
{
	static volatile unsigned long sink;
	unsigned long x = sink | 1;
	struct timespec a, b;
	long i;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < CALIB_ITERS; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	clock_gettime(CLOCK_MONOTONIC, &b);
	sink = x;
	return (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
}

#endif /* IPCC_BENCH_CALIB_H */
