// SPDX-License-Identifier: GPL-2.0
/*
 * ipcc-worker: a busy worker for the ipcc placement benchmark (guest side).
 *
 * usage: ipcc-worker DUTY PERIOD_MS CLASS
 *
 *   DUTY       percent of each period the worker wants to run (1..100)
 *   PERIOD_MS  length of a period in ms (10 in the scenarios)
 *   CLASS      the kind of work it executes at start (0..5, below)
 *
 * Each period the worker runs until it has consumed DUTY% of the period in
 * CPU time (CLOCK_THREAD_CPUTIME_ID) or the period is over, then sleeps
 * until the next period boundary.  DUTY 100 never sleeps.
 *
 * What it runs is the kind of work of its class, as the hardware's Thread
 * Director (our QEMU, qemu/README.md) tells them apart by the instructions
 * a CPU executes; nobody tells the hardware or the kernel the class:
 *
 *   0  scalar integer arithmetic (a dependent multiply-add chain)
 *   1  packed SIMD on xmm registers (paddd, pxor, addps, mulps, ...)
 *   2  dot products (pmaddwd)
 *   3  a PAUSE spin-wait
 *   4  lrand48's generator (48-bit multiply-add, shift), as stress-ng's
 *      rand48 method
 *   5  16-bit divisions (divw), as stress-ng's div16 method
 *
 * The hardware tells 0..3 apart; 4 and 5 are scalar integer work, class 0
 * like 0, with a very different true P/E gain (bench/truth.py).
 *
 * A class change is announced with SIGUSR1 and the new class as the
 * sigqueue() value (ipcc-run sends it); the worker switches kind at the
 * next chunk (below), within about 200 us of running.  The driver blocks
 * SIGUSR1 before the exec, so a change sent before the handler is in
 * place stays pending instead of killing the worker.
 *
 * Work model (a cross-check only; the host computes the benchmark's numbers
 * from the driver's samples, with the SMT factor): every chunk of about
 * 200 us of running, the worker reads its CPU (sched_getcpu()) and credits
 * the CPU time of the chunk to that CPU, and adds score(class, cpu) * time
 * to its "work".  Scores (perf, HFI 0..255) come from
 * /sys/kernel/debug/sched/ipcc/scores, read at start and again on SIGUSR2.
 * The length of a chunk is calibrated per kind of work (the kinds take
 * very different times per iteration under TCG) from the fastest rate
 * seen: CPU time under TCG includes the time the host did not run the
 * vCPU, which only ever makes a chunk look slower.
 *
 * On SIGTERM or SIGINT it prints one line to stdout and exits:
 *   worker PID work=W cpus=CPU:NS,CPU:NS,...
 * W is sum(score * seconds) with no SMT factor.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_CPUS	512
#define MAX_CLASSES	16
#define NR_KINDS	6		/* the kinds of work, above */
#define CHUNK_NS	200000LL	/* accounting granularity */
#define MIN_SAMPLE_NS	20000LL		/* shorter chunks do not calibrate */
#define SCORES		"/sys/kernel/debug/sched/ipcc/scores"

static volatile sig_atomic_t stop;
static volatile sig_atomic_t rescore;
static volatile int cur_class;

static uint64_t cpu_ns[MAX_CPUS];
static unsigned char score[MAX_CPUS][MAX_CLASSES];
static double work;

static int64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Parse "cpu class0 ..." then "CPU P/E P/E ...": keep the perf values. */
static void read_scores(void)
{
	char line[4096];
	FILE *f = fopen(SCORES, "r");

	if (!f)
		return;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;
		long cpu = strtol(p, &end, 10);
		int c = 0;

		if (end == p || cpu < 0 || cpu >= MAX_CPUS)
			continue;
		p = end;
		while (c < MAX_CLASSES) {
			long perf;

			while (*p == ' ')
				p++;
			if (*p == '\n' || !*p)
				break;
			perf = strtol(p, &end, 10);
			if (end == p)	/* "-/-" */
				perf = 0;
			score[cpu][c++] = perf < 0 ? 0 : perf > 255 ? 255 : perf;
			while (*p && *p != ' ' && *p != '\n')
				p++;
		}
	}
	fclose(f);
}

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static void on_class(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (si->si_code == SI_QUEUE && si->si_value.sival_int >= 0 &&
	    si->si_value.sival_int < NR_KINDS)
		cur_class = si->si_value.sival_int;
}

static void on_rescore(int sig)
{
	(void)sig;
	rescore = 1;
}

static uint64_t sink;

/* About @iters iterations of dependent integer arithmetic: class 0. */
static void work_scalar(long iters)
{
	uint64_t x = sink | 1;
	long i;

	for (i = 0; i < iters; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	sink = x;
}

/* Packed SSE2 integer and floating point, 8 per iteration: class 1. */
static void work_vector(long iters)
{
	long i;

	for (i = 0; i < iters; i++)
		asm volatile("paddd %%xmm1, %%xmm0\n\t"
			     "pxor %%xmm0, %%xmm2\n\t"
			     "paddq %%xmm2, %%xmm3\n\t"
			     "pand %%xmm3, %%xmm1\n\t"
			     "addps %%xmm4, %%xmm5\n\t"
			     "mulps %%xmm5, %%xmm6\n\t"
			     "por %%xmm6, %%xmm7\n\t"
			     "psubd %%xmm7, %%xmm0\n\t"
			     ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4",
			     "xmm5", "xmm6", "xmm7");
}

/* Multiply-add dot products (what VNNI speeds up): class 2. */
static void work_dot(long iters)
{
	long i;

	for (i = 0; i < iters; i++)
		asm volatile("pmaddwd %%xmm1, %%xmm0\n\t"
			     "pmaddwd %%xmm3, %%xmm2\n\t"
			     "pmaddwd %%xmm5, %%xmm4\n\t"
			     "pmaddwd %%xmm7, %%xmm6\n\t"
			     ::: "xmm0", "xmm2", "xmm4", "xmm6");
}

/* A spin-wait: PAUSE in a loop, a quarter of its instructions: class 3. */
static void work_spin(long iters)
{
	long i;

	for (i = 0; i < iters; i++)
		asm volatile("pause" ::: "memory");
}

/* lrand48's 48-bit linear congruential generator: kind 4. */
static void work_rand48(long iters)
{
	uint64_t x = sink | 1, out = 0;
	long i;

	for (i = 0; i < iters; i++) {
		x = (x * 0x5deece66dULL + 0xb) & ((1ULL << 48) - 1);
		out += x >> 17;
	}
	sink = x ^ out;
}

/* A dependent chain of 16-bit divisions: kind 5. */
static void work_div16(long iters)
{
	uint16_t q = (uint16_t)sink | 0x100;
	long i;

	for (i = 0; i < iters; i++) {
		uint16_t dx = 0, ax = q + 0x7777;

		asm volatile("divw %2" : "+a"(ax), "+d"(dx)
			     : "rm"((uint16_t)((q & 0x7f) | 3)));
		q = ax + dx;
	}
	sink = q;
}

/* About @iters iterations of the kind of work of class @cls. */
static void run_kind(int cls, long iters)
{
	switch (cls) {
	case 1:
		work_vector(iters);
		break;
	case 2:
		work_dot(iters);
		break;
	case 3:
		work_spin(iters);
		break;
	case 4:
		work_rand48(iters);
		break;
	case 5:
		work_div16(iters);
		break;
	default:
		work_scalar(iters);
		break;
	}
}

int main(int argc, char **argv)
{
	int64_t period, budget, t_start, wall_end, cpu_last, cpu_now;
	/* Iterations per chunk of each kind, and the fastest rate seen. */
	long iters[NR_KINDS] = { 20000, 20000, 20000, 200, 20000, 2000 };
	double rate[NR_KINDS] = { 0 };	/* iterations per ns */
	struct sigaction sa;
	sigset_t usr1;
	int duty, i;
	char out[MAX_CPUS * 24 + 128];
	size_t len;

	if (argc != 4) {
		fprintf(stderr, "usage: ipcc-worker DUTY PERIOD_MS CLASS\n");
		return 2;
	}
	duty = atoi(argv[1]);
	period = atoll(argv[2]) * 1000000LL;
	cur_class = atoi(argv[3]);
	if (duty < 1 || duty > 100 || period <= 0) {
		fprintf(stderr, "ipcc-worker: bad DUTY or PERIOD_MS\n");
		return 2;
	}
	if (cur_class < 0 || cur_class >= NR_KINDS) {
		fprintf(stderr, "ipcc-worker: CLASS must be 0..%d\n",
			NR_KINDS - 1);
		return 2;
	}
	budget = period * duty / 100;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_rescore;
	sigaction(SIGUSR2, &sa, NULL);
	sa.sa_handler = NULL;
	sa.sa_sigaction = on_class;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);
	/* ipcc-run blocked it before the exec: take what is pending. */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_UNBLOCK, &usr1, NULL);

	read_scores();

	t_start = now_ns(CLOCK_MONOTONIC);
	cpu_last = now_ns(CLOCK_THREAD_CPUTIME_ID);
	while (!stop) {
		int64_t p_cpu0 = now_ns(CLOCK_THREAD_CPUTIME_ID);

		wall_end = t_start + period;
		for (;;) {
			int64_t before = cpu_last;
			int cpu, cls = cur_class;

			run_kind(cls, iters[cls]);
			cpu_now = now_ns(CLOCK_THREAD_CPUTIME_ID);
			cpu = sched_getcpu();
			if (cpu >= 0 && cpu < MAX_CPUS) {
				cpu_ns[cpu] += cpu_now - before;
				work += score[cpu][cls] *
					((cpu_now - before) / 1e9);
			}
			cpu_last = cpu_now;
			/* Chunks of about CHUNK_NS at the fastest rate. */
			if (cpu_now - before < MIN_SAMPLE_NS) {
				iters[cls] *= 2;
			} else if ((double)iters[cls] / (cpu_now - before) >
				   rate[cls]) {
				rate[cls] = (double)iters[cls] /
					    (cpu_now - before);
				iters[cls] = rate[cls] * CHUNK_NS;
				if (iters[cls] < 10)
					iters[cls] = 10;
			}
			if (stop || rescore)
				break;
			if (duty < 100 && (cpu_now - p_cpu0 >= budget ||
					   now_ns(CLOCK_MONOTONIC) >= wall_end))
				break;
			if (duty == 100 && now_ns(CLOCK_MONOTONIC) >= wall_end)
				break;
		}
		if (rescore) {
			rescore = 0;
			read_scores();
		}
		if (duty < 100 && !stop) {
			struct timespec ts;

			if (now_ns(CLOCK_MONOTONIC) < wall_end) {
				ts.tv_sec = wall_end / 1000000000LL;
				ts.tv_nsec = wall_end % 1000000000LL;
				while (clock_nanosleep(CLOCK_MONOTONIC,
						       TIMER_ABSTIME, &ts,
						       NULL) == EINTR && !stop)
					;
			}
		}
		/* Next period; a period that overran starts a fresh one. */
		t_start = wall_end;
		if (now_ns(CLOCK_MONOTONIC) > t_start + period)
			t_start = now_ns(CLOCK_MONOTONIC);
		cpu_last = now_ns(CLOCK_THREAD_CPUTIME_ID);
	}

	len = snprintf(out, sizeof(out), "worker %d work=%.3f cpus=",
		       (int)getpid(), work);
	for (i = 0; i < MAX_CPUS && len < sizeof(out) - 32; i++)
		if (cpu_ns[i])
			len += snprintf(out + len, sizeof(out) - len, "%s%d:%llu",
					out[len - 1] == '=' ? "" : ",", i,
					(unsigned long long)cpu_ns[i]);
	len += snprintf(out + len, sizeof(out) - len, "\n");
	if (write(1, out, len) < 0)
		return 1;
	return 0;
}
