// SPDX-License-Identifier: GPL-2.0
/*
 * ipcc-wakelat: wake-up latency in the manner of schbench (guest side of
 * the ipcc overhead benchmark).
 *
 * usage: ipcc-wakelat [MESSENGERS [WORKERS [ROUNDS [WORK]]]]
 *                     (default 2 4 200 20000)
 *
 * MESSENGERS threads each own WORKERS worker threads.  In every round a
 * messenger takes the time, wakes each of its workers (a futex each),
 * waits until all of them have done WORK iterations of a small integer
 * loop, then sleeps for a millisecond.  A worker's wake-up latency is the
 * time from the messenger's stamp to the worker running: the wake-up
 * path, the choice of CPU and the wait for it.  Prints
 *   wakelat wakeups=N p50_ns=X p90_ns=Y p99_ns=Z
 *   cpus=C0:N0,C1:N1,...
 * over all wake-ups of all rounds but the first; the second line counts
 * where the workers woke up.
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_WORKERS	64
#define MAX_CPUS	256

struct worker {
	atomic_uint seq;	/* bumped by the messenger to wake the worker */
	struct messenger *m;
	long *lat;		/* latency of each round, ns */
	int *cpu;		/* where it woke up in each round */
	pthread_t tid;
};

struct messenger {
	atomic_uint pending;	/* workers still running this round */
	atomic_long stamp;	/* when this round's wake-ups started, ns */
	struct worker w[MAX_WORKERS];
	pthread_t tid;
};

static int nr_workers, rounds;
static long work;
static volatile unsigned long sink;	/* keeps the work loop */

static long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000L + t.tv_nsec;
}

static void futex_wait(atomic_uint *addr, unsigned int val)
{
	syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(atomic_uint *addr)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	unsigned int seen = 0, cur;
	unsigned long x = 1;
	long i;
	int r;

	for (r = 0; r < rounds; r++) {
		while ((cur = atomic_load(&w->seq)) == seen)
			futex_wait(&w->seq, seen);
		seen = cur;
		w->lat[r] = now_ns() - atomic_load(&w->m->stamp);
		w->cpu[r] = sched_getcpu();
		for (i = 0; i < work; i++)
			x = x * 6364136223846793005UL + 1442695040888963407UL;
		sink = x;
		if (atomic_fetch_sub(&w->m->pending, 1) == 1)
			futex_wake(&w->m->pending);
	}
	return NULL;
}

static void *messenger_fn(void *arg)
{
	struct timespec pause = { 0, 1000000 };
	struct messenger *m = arg;
	unsigned int left;
	int r, i;

	for (r = 0; r < rounds; r++) {
		atomic_store(&m->pending, nr_workers);
		atomic_store(&m->stamp, now_ns());
		for (i = 0; i < nr_workers; i++) {
			atomic_fetch_add(&m->w[i].seq, 1);
			futex_wake(&m->w[i].seq);
		}
		while ((left = atomic_load(&m->pending)) != 0)
			futex_wait(&m->pending, left);
		nanosleep(&pause, NULL);
	}
	return NULL;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int nr_msg = argc > 1 ? atoi(argv[1]) : 2, i, j, r;
	static long on_cpu[MAX_CPUS];
	struct messenger *msg;
	long *all, n = 0;
	const char *sep = "";

	nr_workers = argc > 2 ? atoi(argv[2]) : 4;
	rounds = argc > 3 ? atoi(argv[3]) : 200;
	work = argc > 4 ? atol(argv[4]) : 20000;
	if (nr_msg < 1 || nr_workers < 1 || nr_workers > MAX_WORKERS ||
	    rounds < 2 || work < 0) {
		fprintf(stderr, "usage: ipcc-wakelat [MESSENGERS [WORKERS [ROUNDS [WORK]]]]\n");
		return 2;
	}
	msg = calloc(nr_msg, sizeof(*msg));
	all = calloc((size_t)nr_msg * nr_workers * rounds, sizeof(*all));
	if (!msg || !all)
		return 1;
	for (i = 0; i < nr_msg; i++) {
		for (j = 0; j < nr_workers; j++) {
			struct worker *w = &msg[i].w[j];

			w->m = &msg[i];
			w->lat = calloc(rounds, sizeof(*w->lat));
			w->cpu = calloc(rounds, sizeof(*w->cpu));
			if (!w->lat || !w->cpu ||
			    pthread_create(&w->tid, NULL, worker_fn, w))
				return 1;
		}
	}
	for (i = 0; i < nr_msg; i++)
		if (pthread_create(&msg[i].tid, NULL, messenger_fn, &msg[i]))
			return 1;
	for (i = 0; i < nr_msg; i++) {
		pthread_join(msg[i].tid, NULL);
		for (j = 0; j < nr_workers; j++) {
			pthread_join(msg[i].w[j].tid, NULL);
			/* The first round waits for the threads to start. */
			for (r = 1; r < rounds; r++) {
				int c = msg[i].w[j].cpu[r];

				all[n++] = msg[i].w[j].lat[r];
				if (c >= 0 && c < MAX_CPUS)
					on_cpu[c]++;
			}
		}
	}
	qsort(all, n, sizeof(*all), cmp_long);
	printf("wakelat wakeups=%ld p50_ns=%ld p90_ns=%ld p99_ns=%ld\n", n,
	       all[n / 2], all[n * 9 / 10], all[n * 99 / 100]);
	printf("cpus=");
	for (i = 0; i < MAX_CPUS; i++) {
		if (on_cpu[i]) {
			printf("%s%d:%ld", sep, i, on_cpu[i]);
			sep = ",";
		}
	}
	printf("\n");
	return 0;
}
