// SPDX-License-Identifier: GPL-2.0
/*
 * ipcc-hackbench: hackbench-like messaging over pipes (guest side of the
 * ipcc overhead benchmark).
 *
 * usage: ipcc-hackbench [GROUPS [FDS [LOOPS]]]    (default 4 10 100)
 *
 * Like "hackbench -pipe -g GROUPS -f FDS -l LOOPS" (process mode): each
 * group has FDS receivers and FDS senders; every sender writes LOOPS
 * messages of 100 bytes to every receiver of its group, every receiver
 * reads FDS*LOOPS messages.  All 2*GROUPS*FDS processes start together;
 * the time from the start until the last one exits is printed:
 *   hackbench groups=G fds=F loops=L seconds=S calib_ns=C drift=D
 * (calibration: see calib_ns()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MSG 100

#include "calib.h"

static void xread(int fd, char *buf, size_t n)
{
	while (n) {
		ssize_t r = read(fd, buf, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			_exit(1);
		buf += r;
		n -= r;
	}
}

static void xwrite(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t r = write(fd, buf, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			_exit(1);
		buf += r;
		n -= r;
	}
}

int main(int argc, char **argv)
{
	int groups = argc > 1 ? atoi(argv[1]) : 4;
	int fds = argc > 2 ? atoi(argv[2]) : 10;
	int loops = argc > 3 ? atoi(argv[3]) : 100;
	int gate[2], g, i, j, l, st, fail = 0, nproc = 0;
	struct timespec t0, t1;
	char buf[MSG] = { 0 };
	double c0, c1;

	if (groups <= 0 || fds <= 0 || loops <= 0 || pipe(gate)) {
		fprintf(stderr, "usage: ipcc-hackbench [GROUPS [FDS [LOOPS]]]\n");
		return 2;
	}
	for (g = 0; g < groups; g++) {
		int (*p)[2] = calloc(fds, sizeof(*p));

		for (i = 0; i < fds; i++)
			if (pipe(p[i]))
				return 1;
		for (i = 0; i < fds; i++) {	/* receivers */
			if (!fork()) {
				close(gate[1]);
				xread(gate[0], buf, 1);
				for (l = 0; l < fds * loops; l++)
					xread(p[i][0], buf, MSG);
				_exit(0);
			}
			nproc++;
		}
		for (i = 0; i < fds; i++) {	/* senders */
			if (!fork()) {
				close(gate[1]);
				xread(gate[0], buf, 1);
				for (l = 0; l < loops; l++)
					for (j = 0; j < fds; j++)
						xwrite(p[j][1], buf, MSG);
				_exit(0);
			}
			nproc++;
		}
		for (i = 0; i < fds; i++) {
			close(p[i][0]);
			close(p[i][1]);
		}
		free(p);
	}
	close(gate[0]);
	c0 = calib_ns();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < nproc; i++)
		xwrite(gate[1], "g", 1);
	for (i = 0; i < nproc; i++)
		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			fail = 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	c1 = calib_ns();
	printf("hackbench groups=%d fds=%d loops=%d seconds=%.4f calib_ns=%.0f drift=%.3f\n",
	       groups, fds, loops,
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       (c0 + c1) / 2, c1 / c0);
	return fail;
}
