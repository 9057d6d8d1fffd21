// SPDX-License-Identifier: GPL-2.0
/*
 * ipcc-steal: how many instructions the kernel takes from busy CPUs (guest
 * side of the ipcc overhead benchmark's per-event costs).
 *
 * usage: ipcc-steal SECONDS TASKS [FIRST_CPU]
 *
 * Starts TASKS spinners, unpinned, or with FIRST_CPU the i-th pinned to
 * CPU FIRST_CPU + i.  A spinner runs a loop written in assembly, so that
 * every block it completes is a known number of instructions
 * (INSNS_PER_BLOCK), and counts its blocks in shared memory.  After a
 * warm-up, the parent samples the block count, the local timer
 * interrupts (the LOC line of /proc/interrupts: ticks, all CPUs) and the
 * load balancer's passes (the sum of every lb_count of /proc/schedstat:
 * one call of sched_balance_rq() on one domain, all CPUs, all idle
 * types; counted only while kernel.sched_schedstats is 1), sleeps
 * SECONDS, samples again and prints the differences:
 *
 *   steal ns=N blocks=B insns_per_block=K ticks=T lb=P
 *
 * Under QEMU's -icount shift=S every instruction takes 2^S ns of guest
 * time on whichever vCPU runs it, so the guest executed N >> S
 * instructions in all, B x K of them in the spinners: the rest is what
 * the kernel (and this parent's wake-up, the same in every run) took.
 * With TASKS at least the number of CPUs no vCPU idles.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_TASKS	64
#define LOOP_ITERS	1000
/* mov, then per iteration 8 adds, dec and jnz, then incq and jmp. */
#define INSNS_PER_BLOCK	(1 + LOOP_ITERS * 10 + 2)

static void __attribute__((noreturn)) spin(volatile unsigned long *blocks)
{
	asm volatile("1:	mov %1, %%ecx\n"
		     "2:	add %%r8, %%r9\n"
		     "	add %%r9, %%r10\n"
		     "	add %%r10, %%r11\n"
		     "	add %%r11, %%r8\n"
		     "	add %%r8, %%r9\n"
		     "	add %%r9, %%r10\n"
		     "	add %%r10, %%r11\n"
		     "	add %%r11, %%r8\n"
		     "	dec %%ecx\n"
		     "	jnz 2b\n"
		     "	incq (%0)\n"
		     "	jmp 1b\n"
		     : : "r"(blocks), "i"(LOOP_ITERS)
		     : "rcx", "r8", "r9", "r10", "r11", "memory", "cc");
	__builtin_unreachable();
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("ipcc-steal: sched_setaffinity");
		_exit(1);
	}
}

/* Local timer interrupts on all CPUs (the LOC line of /proc/interrupts). */
static unsigned long long ticks(void)
{
	unsigned long long sum = 0;
	char line[8192], *p, *end;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		p = line + strspn(line, " ");
		if (strncmp(p, "LOC:", 4))
			continue;
		p += 4;
		for (;;) {
			unsigned long long v = strtoull(p, &end, 10);

			if (end == p)
				break;
			sum += v;
			p = end;
		}
		break;
	}
	fclose(f);
	return sum;
}

/*
 * Balancer passes: the lb_count of every domain of every CPU, all idle
 * types.  Version 17 (7.3) prints "domainN NAME SPAN" and 11 numbers per
 * idle type, 16 (6.12) "domainN SPAN" and 8; lb_count is the first of
 * each group.
 */
static unsigned long long lb_passes(void)
{
	unsigned long long sum = 0;
	int version = 0, per_type, skip, t;
	char line[4096], *p, *end;
	FILE *f = fopen("/proc/schedstat", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "version %d", &version) == 1)
			continue;
		if (strncmp(line, "domain", 6))
			continue;
		per_type = version >= 17 ? 11 : 8;
		skip = version >= 17 ? 3 : 2;
		p = line;
		for (t = 0; t < skip && p; t++) {
			p = strchr(p, ' ');
			if (p)
				p++;
		}
		if (!p)
			continue;
		for (t = 0; t < 3 * per_type; t++) {
			unsigned long long v = strtoull(p, &end, 10);

			if (end == p)
				break;
			if (t % per_type == 0)
				sum += v;
			p = end;
		}
	}
	fclose(f);
	return sum;
}

static unsigned long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ULL + t.tv_nsec;
}

static unsigned long long total(volatile unsigned long *blocks, int n)
{
	unsigned long long sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += blocks[i];
	return sum;
}

int main(int argc, char **argv)
{
	unsigned long long b0, b1, t0, t1, l0, l1, n0, n1;
	volatile unsigned long *blocks;
	int n, first, i, st, ok = 1;
	struct timespec warm = { 0, 500000000 }, dur;
	pid_t pid[MAX_TASKS];
	double secs;

	if (argc < 3 || (secs = atof(argv[1])) <= 0 ||
	    (n = atoi(argv[2])) < 1 || n > MAX_TASKS) {
		fprintf(stderr, "usage: ipcc-steal SECONDS TASKS [FIRST_CPU]\n");
		return 2;
	}
	first = argc > 3 ? atoi(argv[3]) : -1;
	blocks = mmap(NULL, MAX_TASKS * sizeof(*blocks), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (blocks == MAP_FAILED)
		return 1;
	for (i = 0; i < n; i++) {
		pid[i] = fork();
		if (pid[i] < 0)
			return 1;
		if (!pid[i]) {
			if (first >= 0)
				pin(first + i);
			spin(&blocks[i]);
		}
	}
	nanosleep(&warm, NULL);
	/*
	 * The counters are read outside the window: formatting and parsing
	 * /proc/schedstat costs more with more domains, which would count
	 * as the kernel's work in one kind of run and not in the other.
	 */
	t0 = ticks();
	l0 = lb_passes();
	n0 = now_ns();
	b0 = total(blocks, n);
	dur.tv_sec = (time_t)secs;
	dur.tv_nsec = (long)((secs - dur.tv_sec) * 1e9);
	nanosleep(&dur, NULL);
	n1 = now_ns();
	b1 = total(blocks, n);
	t1 = ticks();
	l1 = lb_passes();
	for (i = 0; i < n; i++) {
		kill(pid[i], SIGKILL);
		if (waitpid(pid[i], &st, 0) != pid[i] || !WIFSIGNALED(st))
			ok = 0;
	}
	printf("steal ns=%llu blocks=%llu insns_per_block=%d ticks=%llu lb=%llu\n",
	       n1 - n0, b1 - b0, INSNS_PER_BLOCK, t1 - t0, l1 - l0);
	return ok ? 0 : 1;
}
