// SPDX-License-Identifier: GPL-2.0
/*
 * ipcc-pingpong: pipe ping-pong between two processes (guest side of the
 * ipcc overhead benchmark).
 *
 * usage: ipcc-pingpong [ROUNDTRIPS [CPU_A [CPU_B]]]     (default 20000)
 *
 * With CPU_A the parent is pinned to CPU_A and the child to CPU_B (default
 * CPU_A: both on one CPU, no cross-CPU wakeup).
 * The parent writes one byte into pipe A, the child reads it and writes one
 * byte back into pipe B, ROUNDTRIPS times; every round trip is two wakeups
 * and two context switches, the scheduler's hottest paths.  Prints
 *   pingpong roundtrips=N ns_per_roundtrip=X calib_ns=C drift=D
 * (calibration: see calib_ns()).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "calib.h"

static void pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("ipcc-pingpong: sched_setaffinity");
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000, i;
	int cpu_a = argc > 2 ? atoi(argv[2]) : -1;
	int cpu_b = argc > 3 ? atoi(argv[3]) : cpu_a;
	int a[2], b[2], st;
	struct timespec t0, t1;
	double c0, c1;
	char c = 'x';
	pid_t pid;

	if (n <= 0 || pipe(a) || pipe(b)) {
		fprintf(stderr, "usage: ipcc-pingpong [ROUNDTRIPS]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		pin(cpu_b);
		for (i = 0; i < n; i++)
			if (read(a[0], &c, 1) != 1 || write(b[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	pin(cpu_a);
	/* One round trip first: both sides are on their CPUs. */
	if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
		return 1;
	c0 = calib_ns();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 1; i < n; i++)
		if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
			return 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	c1 = calib_ns();
	waitpid(pid, &st, 0);
	printf("pingpong roundtrips=%ld ns_per_roundtrip=%.1f calib_ns=%.0f drift=%.3f\n",
	       n, ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) /
	       (n > 1 ? n - 1 : 1), (c0 + c1) / 2, c1 / c0);
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : 1;
}
