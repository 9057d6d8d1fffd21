// SPDX-License-Identifier: GPL-2.0
/*
 * Placement by the class-aware load balancer (kernel/sched/ipcc_balance.c)
 * on a hybrid part emulated by QEMU (the *-hw profiles: CPUID, HFI,
 * Thread Director; qemu/ in the ipcc repository), with its "oracle"
 * Thread Director model, so that a task's class is what it executes.
 *
 * Busy child processes run real work of two kinds: packed SIMD, which
 * the hardware classifies as class 1, "vector" (HFI performance 63 on a
 * P-core and 33 on an E-core: a large gain on a P-core), and a PAUSE
 * spin-wait, class 3 (41 on both: no gain anywhere). The P-cores and
 * E-cores are the core types the hardware reports through QMP
 * (ipcc_qmp.h); low-power E-cores are left out. Each scenario starts the
 * high-gain tasks pinned to E-cores and the others on the P-cores, then
 * lets every task go anywhere, waits for the balancer to settle and
 * samples where each task runs (field 39 of /proc/PID/stat) every 50 ms.
 * The result is the share of the high-gain tasks' samples on P-cores; the
 * scenarios are sized so that all high-gain tasks fit on the P-cores, so
 * the ideal share is 1.
 *
 * - under: twice as many busy tasks as P-cores, one high-gain task per
 *          two P-cores; then a spin-wait task that started on an E-core
 *          turns vector in the middle of the run;
 * - full:  one task per online CPU, as many high-gain tasks as P CPUs;
 * - over:  two tasks per online CPU, twice as many high-gain tasks as P
 *          CPUs.
 *
 * Each scenario runs with kernel.sched_ipcc=0 (mainline: the IPCC
 * counters in sched/ipcc/stats must not move) and =2 (the share must
 * reach the scenario's threshold, below, and be above the mode-0 share
 * by a margin); "full" also runs
 * with =1 (tie-breaks only: no swap and no misfit may be counted). The
 * shares are printed as TAP comments. The placement scenarios need the
 * oracle model (with the imperfect ones, placement is the benchmark's to
 * judge) and skip elsewhere.
 *
 * tiebreak_pull: mode 1's one placement decision, the task an idle pull
 * takes first, in a tie the balancer's own order decides the other way
 * (the comment above the test says why no share is asserted for mode 1).
 *
 * numa: on a guest with two NUMA nodes and NUMA balancing, the "full"
 * scenario with tasks that touch memory: no crash, no counter moving in
 * mode 0, and a mode-2 share of at least 0.40 (it stops at half there,
 * as the README reports).
 *
 * Needs root and debugfs. Restores kernel.sched_ipcc and
 * kernel.numa_balancing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "ipcc_qmp.h"
#include "ipcc_util.h"

#define STATS		"/sys/kernel/debug/sched/ipcc/stats"
#define IPCC_SYSCTL	"/proc/sys/kernel/sched_ipcc"
#define NUMA_SYSCTL	"/proc/sys/kernel/numa_balancing"
#define NODE_ONLINE	"/sys/devices/system/node/online"
#define CPU_DIR		"/sys/devices/system/cpu"
#define MAX_CPUS	1024
#define MAX_TASKS	256
#define MAX_STATS	16
#define BUF_SIZE	16384

#define CLASS_HIGH	1	/* vector: P 63, E 33 */
#define CLASS_ZERO	3	/* spin-wait: P 41, E 41 */

/* After a mode switch: work items of the previous mode have run. */
#define MODE_MS		300
/* Debounce of a new class: a few ticks of the task, with room to spare. */
#define CLASS_MS	300
/* Settling before sampling, sampling window, sampling period. */
#define SETTLE_MS	2500
#define WINDOW_MS	2500
#define SHORT_MS	1000
#define SAMPLE_MS	50
#define MIN_SAMPLES	10
/* The mode-1 pull test: trials, queueing time, longest wait for the pull. */
#define PULL_TRIALS	3
#define PULL_TRIES	(3 * PULL_TRIALS)
#define PULL_QUEUE_MS	100
#define PULL_WAIT_MS	2000

/*
 * Mode 2: the share each scenario must reach (percent): what the README
 * claims, the lowest share measured (22 boots of adl-hw, mtl-hw, lnl-hw
 * and numa2-hw between commits c352776 and bba7b2f), minus a margin of
 * about a tenth for boots not measured yet:
 *   under, under-switch: 0.97..1.00 measured, claimed 1.00 -> 0.90
 *   under, two nodes:    0.91..1.00 (numa2-hw; 0.91 in the clean-clone
 *                        run at cc75d34)                  -> 0.80
 *   under-switch, two nodes: 0.67..1.00 (numa2-hw)        -> 0.55
 *   full, one node:      0.75..1.00                      -> 0.65
 *   full, two nodes:     0.52..0.96                      -> 0.40
 *   over:                0.86..1.00                      -> 0.75
 *   numa:                0.50..0.54 (stops at half)      -> 0.40
 * With two nodes the high-gain tasks of "full" and "numa" all start on
 * the first node's E-cores, which has half the P-cores: the other half
 * must cross nodes, which the balancer does only sometimes (numa2-hw);
 * the task that turns vector in "under" may need to cross nodes too.
 * Shown failing: with the mode-2 runs done in mode 0 (set_mode() writing
 * 0 for 2), every scenario failed on numa2-hw and adl-hw (shares
 * 0.00..0.46). Mode 0 alone reached 0.90..1.00 in "under" in 6 of 24
 * boots, so that scenario catches a broken mode 2 most times, not all.
 */
#define UNDER_MIN_PCT	90
#define UNDER_NUMA_MIN_PCT 80
#define FULL_MIN_PCT	65
#define FULL_NUMA_MIN_PCT 40
#define SWITCH_NUMA_MIN_PCT 55
#define OVER_MIN_PCT	75
#define NUMA_MIN_PCT	40
/* And this much above mode 0, unless mode 2 is near perfect (percent). */
#define MIN_MARGIN_PCT	5
#define NEAR_ALL_PCT	95
/* Memory each task of the NUMA scenario keeps touching. */
#define NUMA_BUF_SIZE	(8 << 20)

struct task {
	pid_t	pid;
	int	class;
};

struct counters {
	char		name[MAX_STATS][32];
	uint64_t	val[MAX_STATS];
	int		nr;
};

struct placement {
	char model[16];			/* the Thread Director model */
	cpu_set_t p, e;			/* online P-core and E-core CPUs */
	cpu_set_t all;			/* both */
	int pcpu[MAX_CPUS], np;		/* online P CPUs, ascending */
	int ecpu[MAX_CPUS], ne;		/* online E CPUs, ascending */
	int slot[MAX_CPUS], nslots;	/* first online thread of each P-core */
	char mode[16];			/* kernel.sched_ipcc at setup */
	char numab[16];			/* kernel.numa_balancing to restore */
	struct task t[MAX_TASKS];
	int nr;
};

FIXTURE(place) {
	struct placement pl;
};

static int read_cpulist(const char *path, cpu_set_t *set)
{
	char buf[BUF_SIZE];

	if (read_text(path, buf, sizeof(buf)) < 0)
		return -1;

	return parse_cpulist(buf, set);
}

static bool cpu_online(int cpu)
{
	char path[128], buf[16];

	snprintf(path, sizeof(path), CPU_DIR "/cpu%d/online", cpu);
	if (read_text(path, buf, sizeof(buf)) < 0)
		/* No online file: a CPU that cannot go offline, if present. */
		return cpu == 0;

	return buf[0] == '1';
}

/* The online CPUs of @set into @out and, ascending, into @list. */
static int online_of(const cpu_set_t *set, cpu_set_t *out, int *list)
{
	int cpu, n = 0;

	CPU_ZERO(out);
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (CPU_ISSET(cpu, set) && cpu_online(cpu)) {
			CPU_SET(cpu, out);
			list[n++] = cpu;
		}
	}

	return n;
}

/* The first online thread of the core of each CPU of @list. */
static int first_threads(const int *list, int n, int *slot)
{
	char path[128];
	cpu_set_t sib, seen;
	int i, cpu, nslots = 0;

	CPU_ZERO(&seen);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path),
			 CPU_DIR "/cpu%d/topology/thread_siblings_list", list[i]);
		if (read_cpulist(path, &sib))
			CPU_ZERO(&sib);
		CPU_SET(list[i], &sib);

		for (cpu = 0; cpu < MAX_CPUS; cpu++) {
			if (CPU_ISSET(cpu, &sib) && cpu_online(cpu))
				break;
		}
		if (cpu == MAX_CPUS || CPU_ISSET(cpu, &seen))
			continue;
		CPU_SET(cpu, &seen);
		slot[nslots++] = cpu;
	}

	return nslots;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* "NAME VALUE" lines of the IPCC stats file. */
static int read_counters(struct counters *c)
{
	char buf[BUF_SIZE], *line, *save;
	unsigned long long v;

	c->nr = 0;
	if (read_text(STATS, buf, sizeof(buf)) < 0)
		return -1;

	for (line = strtok_r(buf, "\n", &save); line && c->nr < MAX_STATS;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%31s %llu", c->name[c->nr], &v) != 2)
			return -1;
		c->val[c->nr++] = v;
	}

	return c->nr ? 0 : -1;
}

/* How much counter @name grew from @a to @b; -1 when it is missing. */
static long long counter_delta(const struct counters *a,
			       const struct counters *b, const char *name)
{
	int i, j;

	for (i = 0; i < a->nr; i++) {
		if (strcmp(a->name[i], name))
			continue;
		for (j = 0; j < b->nr; j++) {
			if (!strcmp(b->name[j], name))
				return b->val[j] - a->val[i];
		}
	}

	return -1;
}

static void print_counters(const char *what, const struct counters *a,
			   const struct counters *b)
{
	char line[512] = "";
	int i, len = 0;

	for (i = 0; i < a->nr && len < (int)sizeof(line) - 48; i++)
		len += snprintf(line + len, sizeof(line) - len, " %s=%lld",
				a->name[i], counter_delta(a, b, a->name[i]));
	ksft_print_msg("%s counters:%s\n", what, line);
}

/* The class of work a busy child executes; SIGUSR1 makes it vector. */
static int work_class;

static void to_vector(int sig)
{
	__atomic_store_n(&work_class, CLASS_HIGH, __ATOMIC_RELAXED);
}

/*
 * Execute work of class work_class, touching memory too in the NUMA
 * scenario, until killed: packed SIMD for CLASS_HIGH, a PAUSE spin-wait
 * for CLASS_ZERO.
 */
static void busy_loop(bool touch)
{
	char *buf = NULL;
	size_t i = 0;

	if (touch)
		buf = calloc(1, NUMA_BUF_SIZE);
	for (;;) {
		if (buf) {
			buf[i]++;
			i = (i + 64) % NUMA_BUF_SIZE;
		}
		if (__atomic_load_n(&work_class, __ATOMIC_RELAXED) == CLASS_HIGH)
			__asm__ __volatile__("paddd %%xmm1, %%xmm0\n\t"
					     "pxor %%xmm0, %%xmm2\n\t"
					     "paddq %%xmm2, %%xmm3\n\t"
					     "pand %%xmm3, %%xmm1\n\t"
					     "addps %%xmm4, %%xmm5\n\t"
					     "mulps %%xmm5, %%xmm6\n\t"
					     "por %%xmm6, %%xmm7\n\t"
					     "psubd %%xmm7, %%xmm0\n\t"
					     : : : "xmm0", "xmm1", "xmm2", "xmm3",
					     "xmm4", "xmm5", "xmm6", "xmm7");
		else
			__asm__ __volatile__("pause" : : : "memory");
		/* Keep the stores, and the loop. */
		__asm__ __volatile__("" : : "r"(buf) : "memory");
	}
}

/* A busy child pinned to @cpu, executing work of class @class. */
static pid_t spawn(struct __test_metadata *_metadata,
		   struct placement *pl, int cpu, int class, bool touch)
{
	cpu_set_t one;
	pid_t pid;

	ASSERT_LT(pl->nr, MAX_TASKS);

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		work_class = class;
		signal(SIGUSR1, to_vector);
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			_exit(1);
		busy_loop(touch);
	}

	pl->t[pl->nr].pid = pid;
	pl->t[pl->nr].class = class;
	pl->nr++;

	return pid;
}

/* Task @i turns to vector work: the hardware then classifies it so. */
static void set_class(struct __test_metadata *_metadata,
		      struct placement *pl, int i, int class)
{
	ASSERT_EQ(CLASS_HIGH, class);
	ASSERT_EQ(0, kill(pl->t[i].pid, SIGUSR1));
	pl->t[i].class = class;
}

/* Let every task run on every typed CPU. */
static void unpin_all(struct __test_metadata *_metadata,
		      struct placement *pl)
{
	int i;

	for (i = 0; i < pl->nr; i++) {
		EXPECT_EQ(0, sched_setaffinity(pl->t[i].pid,
					       sizeof(pl->all), &pl->all));
	}
}

static void stop_tasks(struct placement *pl)
{
	int i;

	for (i = 0; i < pl->nr; i++)
		kill(pl->t[i].pid, SIGKILL);
	for (i = 0; i < pl->nr; i++)
		waitpid(pl->t[i].pid, NULL, 0);
	pl->nr = 0;
}

static void set_mode(struct __test_metadata *_metadata, int mode)
{
	char buf[8];

	snprintf(buf, sizeof(buf), "%d\n", mode);
	ASSERT_EQ(0, write_text(IPCC_SYSCTL, buf));
	sleep_ms(MODE_MS);
}

/*
 * Sample for @window_ms, and on until MIN_SAMPLES rounds were taken (an
 * over-subscribed guest may give the sampler little CPU), but never longer
 * than four windows; return the share of the high-gain tasks' samples on
 * P CPUs. All tasks must stay alive. The sampler runs at a higher priority
 * than the tasks it watches (they were forked before), so that it gets to
 * sample at all on a slow host.
 */
static double sample(struct __test_metadata *_metadata,
		     struct placement *pl, long window_ms)
{
	long start_ms = now_ms(), on_p = 0, total = 0;
	int i, cpu, rounds = 0;
	int old_nice = getpriority(PRIO_PROCESS, 0);

	setpriority(PRIO_PROCESS, 0, -10);
	while (now_ms() < start_ms + 4 * window_ms &&
	       (now_ms() < start_ms + window_ms || rounds < MIN_SAMPLES)) {
		for (i = 0; i < pl->nr; i++) {
			if (pl->t[i].class != CLASS_HIGH)
				continue;
			cpu = task_cpu(pl->t[i].pid);
			ASSERT_GE(cpu, 0) {
				TH_LOG("task %d is gone", pl->t[i].pid);
			}
			if (cpu < MAX_CPUS && CPU_ISSET(cpu, &pl->p))
				on_p++;
			total++;
		}
		rounds++;
		sleep_ms(SAMPLE_MS);
	}
	setpriority(PRIO_PROCESS, 0, old_nice);

	ASSERT_GE(rounds, MIN_SAMPLES);
	ASSERT_GT(total, 0);
	return (double)on_p / total;
}

/*
 * Make sure the two classes the scenarios use have the scores they are
 * sized for; remember what to restore.
 */
FIXTURE_SETUP(place)
{
	struct placement *pl = &self->pl;
	cpu_set_t set;

	pl->nr = 0;
	pl->numab[0] = '\0';
	pl->mode[0] = '\0';

	if (access(STATS, R_OK) || access(IPCC_SYSCTL, W_OK))
		SKIP(return, "no IPCC stats or sysctl (CONFIG_SCHED_IPCC)");
	if (qmp_type_cpus("p", &set, pl->model, sizeof(pl->model)) <= 0)
		SKIP(return, "no emulated hybrid part (QMP on %s)", QMP_PORT);
	pl->np = online_of(&set, &pl->p, pl->pcpu);
	qmp_type_cpus("e", &set, NULL, 0);
	pl->ne = online_of(&set, &pl->e, pl->ecpu);
	CPU_OR(&pl->all, &pl->p, &pl->e);
	pl->nslots = first_threads(pl->pcpu, pl->np, pl->slot);
	if (!pl->np || !pl->ne || !pl->nslots)
		SKIP(return, "no online P-core or E-core");

	ASSERT_GT(read_text(IPCC_SYSCTL, pl->mode, sizeof(pl->mode)), 0);
}

FIXTURE_TEARDOWN(place)
{
	struct placement *pl = &self->pl;

	stop_tasks(pl);
	if (pl->mode[0])
		write_text(IPCC_SYSCTL, pl->mode);
	if (pl->numab[0])
		write_text(NUMA_SYSCTL, pl->numab);
}

/* The placement scenarios assume classes the tasks keep: the oracle. */
static bool calibrated(struct placement *pl)
{
	return !strcmp(pl->model, "oracle");
}

/*
 * Start @nhigh high-gain tasks pinned to E CPUs, and @nzero others on the
 * P-cores (@per_cpu per P CPU, or one per P-core when @slots) and then on
 * the E CPUs left; @per_cpu tasks per E CPU at most. Wait for the classes,
 * then let every task go anywhere.
 */
static void start(struct __test_metadata *_metadata,
		  struct placement *pl, int nhigh, int nzero,
		  int per_cpu, bool slots, bool touch)
{
	int i, k, e = 0, load[MAX_CPUS] = { 0 };

	for (i = 0; i < nhigh; i++) {
		k = pl->ecpu[e % pl->ne];
		ASSERT_LT(load[k], per_cpu);
		spawn(_metadata, pl, k, CLASS_HIGH, touch);
		load[k]++;
		e++;
	}

	for (i = 0; i < nzero; i++) {
		int n = slots ? pl->nslots : pl->np;
		int *list = slots ? pl->slot : pl->pcpu;

		if (i < n * per_cpu) {
			k = list[i % n];
		} else {
			for (; e < pl->ne * per_cpu; e++) {
				k = pl->ecpu[e % pl->ne];
				if (load[k] < per_cpu)
					break;
			}
			ASSERT_LT(e, pl->ne * per_cpu);
			k = pl->ecpu[e % pl->ne];
			e++;
		}
		spawn(_metadata, pl, k, CLASS_ZERO, touch);
		load[k]++;
	}

	sleep_ms(CLASS_MS);
	unpin_all(_metadata, pl);
}

static void report(const char *scenario, int mode, double share)
{
	ksft_print_msg("mode=%d scenario=%s p_share=%.2f\n", mode, scenario,
		       share);
}

static int pct(double share)
{
	return (int)(share * 100 + 0.5);
}

/* A guest with more than one NUMA node. */
static bool numa_guest(void)
{
	cpu_set_t nodes;

	return !read_cpulist(NODE_ONLINE, &nodes) && CPU_COUNT(&nodes) > 1;
}

/* Mode 2 against mode 0: absolute (@min_pct) and relative thresholds. */
static void check_share(struct __test_metadata *_metadata,
			const char *scenario, double share0, double share2,
			int min_pct)
{
	EXPECT_GE(pct(share2), min_pct) {
		TH_LOG("%s: high-gain share on P-cores %.2f in mode 2, want >= 0.%02d",
		       scenario, share2, min_pct);
	}
	/*
	 * Better than mainline by a margin, unless mode 2 is near perfect or
	 * mainline reached the threshold too: an under-subscribed start can
	 * land the tasks on P-cores by chance (numa2-hw, under-switch: 0.67
	 * in both modes at e32f057), and then the margin says nothing about
	 * mode 2. Not being worse than mainline is the benchmark's to judge.
	 */
	if (pct(share2) < NEAR_ALL_PCT && pct(share0) < min_pct)
		EXPECT_GE(pct(share2), pct(share0) + MIN_MARGIN_PCT) {
			TH_LOG("%s: share %.2f in mode 2, %.2f in mode 0",
			       scenario, share2, share0);
		}
}

/* Mode 0 behaves as mainline: no IPCC counter moves. */
static void check_frozen(struct __test_metadata *_metadata, const char *what,
			 const struct counters *a, const struct counters *b)
{
	int i;

	ASSERT_EQ(a->nr, b->nr);
	for (i = 0; i < a->nr; i++) {
		EXPECT_EQ(0, counter_delta(a, b, a->name[i])) {
			TH_LOG("%s: counter %s moved in mode 0", what,
			       a->name[i]);
		}
	}
}

/* Mode 1 only breaks ties: it never swaps and never marks a class misfit. */
static void check_tiebreak_only(struct __test_metadata *_metadata,
				struct counters *a, struct counters *b)
{
	EXPECT_EQ(0, counter_delta(a, b, "swap"));
	EXPECT_EQ(0, counter_delta(a, b, "misfit"));
}

/*
 * Under-subscribed: twice as many tasks as P-cores, one high-gain task
 * per two P-cores, the others spin-wait; then a spin-wait task started on
 * an E-core turns vector.
 */
static void run_under(struct __test_metadata *_metadata,
		      struct placement *pl, int mode, double *share)
{
	int nhigh = pl->nslots / 2 ? pl->nslots / 2 : 1;
	int total = 2 * pl->nslots, turn;
	struct counters a, b;
	char what[64];

	set_mode(_metadata, mode);
	ASSERT_EQ(0, read_counters(&a));

	start(_metadata, pl, nhigh, total - nhigh, 1, true, false);

	/* The first spin-wait task that started on an E-core. */
	turn = nhigh + pl->nslots;
	ASSERT_LT(turn, pl->nr);

	sleep_ms(SETTLE_MS);
	share[0] = sample(_metadata, pl, WINDOW_MS);
	report("under", mode, share[0]);

	set_class(_metadata, pl, turn, CLASS_HIGH);
	sleep_ms(SETTLE_MS);
	share[1] = sample(_metadata, pl, WINDOW_MS);
	report("under-switch", mode, share[1]);

	stop_tasks(pl);
	ASSERT_EQ(0, read_counters(&b));
	snprintf(what, sizeof(what), "mode=%d under", mode);
	print_counters(what, &a, &b);
	if (!mode)
		check_frozen(_metadata, "under", &a, &b);
	if (mode == 1)
		check_tiebreak_only(_metadata, &a, &b);
}

TEST_F_TIMEOUT(place, under_subscribed, 240)
{
	struct placement *pl = &self->pl;
	double s0[2], s1[2], s2[2];

	if (!calibrated(pl))
		SKIP(return, "Thread Director model %s, not oracle",
		     pl->model);
	if (2 * pl->nslots >= pl->np + pl->ne)
		SKIP(return, "too few E-cores to be under-subscribed");

	run_under(_metadata, pl, 0, s0);
	run_under(_metadata, pl, 1, s1);
	run_under(_metadata, pl, 2, s2);

	check_share(_metadata, "under", s0[0], s2[0],
		    numa_guest() ? UNDER_NUMA_MIN_PCT : UNDER_MIN_PCT);
	check_share(_metadata, "under-switch", s0[1], s2[1],
		    numa_guest() ? SWITCH_NUMA_MIN_PCT : UNDER_MIN_PCT);
}

/*
 * Fully subscribed: one task per online CPU, as many high-gain tasks as
 * P CPUs, started on E-cores. Mode 1 gets a short run that only checks
 * the counters.
 */
static double run_full(struct __test_metadata *_metadata,
		       struct placement *pl, int mode, bool touch,
		       const char *scenario)
{
	int nhigh = pl->np < pl->ne ? pl->np : pl->ne;
	int total = pl->np + pl->ne;
	long settle = SETTLE_MS, window = WINDOW_MS;
	struct counters a, b;
	char what[64];
	double share;

	if (mode == 1) {
		settle = SHORT_MS;
		window = SHORT_MS;
	}

	set_mode(_metadata, mode);
	ASSERT_EQ(0, read_counters(&a));

	start(_metadata, pl, nhigh, total - nhigh, 1, false, touch);
	sleep_ms(settle);
	share = sample(_metadata, pl, window);
	report(scenario, mode, share);

	stop_tasks(pl);
	ASSERT_EQ(0, read_counters(&b));
	snprintf(what, sizeof(what), "mode=%d %s", mode, scenario);
	print_counters(what, &a, &b);
	if (!mode)
		check_frozen(_metadata, scenario, &a, &b);
	if (mode == 1)
		check_tiebreak_only(_metadata, &a, &b);

	return share;
}

TEST_F_TIMEOUT(place, fully_subscribed, 120)
{
	struct placement *pl = &self->pl;
	double s0, s2;

	if (!calibrated(pl))
		SKIP(return, "Thread Director model %s, not oracle",
		     pl->model);

	s0 = run_full(_metadata, pl, 0, false, "full");
	run_full(_metadata, pl, 1, false, "full");
	s2 = run_full(_metadata, pl, 2, false, "full");

	check_share(_metadata, "full", s0, s2,
		    numa_guest() ? FULL_NUMA_MIN_PCT : FULL_MIN_PCT);
}

/* Over-subscribed: two tasks per online CPU. */
static double run_over(struct __test_metadata *_metadata,
		       struct placement *pl, int mode)
{
	int nhigh = 2 * (pl->np < pl->ne ? pl->np : pl->ne);
	int total = 2 * (pl->np + pl->ne);
	struct counters a, b;
	char what[64];
	double share;

	set_mode(_metadata, mode);
	ASSERT_EQ(0, read_counters(&a));

	start(_metadata, pl, nhigh, total - nhigh, 2, false, false);
	sleep_ms(SETTLE_MS);
	share = sample(_metadata, pl, WINDOW_MS);
	report("over", mode, share);

	stop_tasks(pl);
	ASSERT_EQ(0, read_counters(&b));
	snprintf(what, sizeof(what), "mode=%d over", mode);
	print_counters(what, &a, &b);
	if (!mode)
		check_frozen(_metadata, "over", &a, &b);
	if (mode == 1)
		check_tiebreak_only(_metadata, &a, &b);

	return share;
}

TEST_F_TIMEOUT(place, over_subscribed, 240)
{
	struct placement *pl = &self->pl;
	double s0, s2;

	if (!calibrated(pl))
		SKIP(return, "Thread Director model %s, not oracle",
		     pl->model);
	if (2 * (pl->np + pl->ne) > MAX_TASKS)
		SKIP(return, "too many CPUs");

	s0 = run_over(_metadata, pl, 0);
	run_over(_metadata, pl, 1);
	s2 = run_over(_metadata, pl, 2);

	check_share(_metadata, "over", s0, s2, OVER_MIN_PCT);
}

/* The NUMA node of @cpu, or 0 on a guest without nodes. */
static int cpu_node(int cpu)
{
	char path[128];
	int node;

	for (node = 0; node < 64; node++) {
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/node%d", cpu, node);
		if (!access(path, F_OK))
			return node;
	}

	return 0;
}

static int move_to(pid_t pid, int a, int b)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(a, &set);
	if (b >= 0)
		CPU_SET(b, &set);
	return sched_setaffinity(pid, sizeof(set), &set);
}

#define MIGRATE_EVENT	"events/sched/sched_migrate_task"
#define SWITCH_EVENT	"events/sched/sched_switch"

#define PULL_MARK	"ipcc_placement_test: both may run on the E-core"

/*
 * can_migrate_task() leaves a task that ran on its CPU within
 * sysctl_sched_migration_cost (0.5 ms by default) of a pull, when it can:
 * a spin-wait task that ran on the source CPU within this many
 * microseconds of the pull may have been refused for that.
 */
#define PULL_HOT_US	1000

enum pull_result {
	PULL_NONE, PULL_LOW, PULL_HIGH, PULL_EARLY, PULL_ONE, PULL_BUSY,
	PULL_NR
};

static const char * const pull_name[] = {
	[PULL_NONE] = "nothing", [PULL_LOW] = "spin-wait",
	[PULL_HIGH] = "vector", [PULL_EARLY] = "the one task allowed",
	[PULL_ONE] = "one task only (no choice)",
	[PULL_BUSY] = "vector, the spin-wait task running or just run (no choice)",
};

/* Where the spin-wait task was switched in or out on the source CPU. */
struct pull_switch {
	double ts;
	bool in;
};

#define PULL_SWITCHES	256

/*
 * The CPU and time stamp (seconds) of a trace line
 * ("comm-pid [003] d..2.    73.688730: event: ..."); false if it has none.
 */
static bool trace_line_when(const char *line, int *cpu, double *ts)
{
	const char *br = strchr(line, '['), *colon, *p;

	colon = br ? strstr(br, ": ") : NULL;
	if (!colon)
		return false;
	for (p = colon; p > br && p[-1] != ' '; p--)
		;
	*cpu = atoi(br + 1);
	*ts = strtod(p, NULL);
	return true;
}

/*
 * Whether the spin-wait task could not be taken at @ts, by the switches
 * of it on the source CPU in @sw: it was running there (its last switch
 * before @ts put it in, or, with none before, its first one after took
 * it out), or it left the CPU less than PULL_HOT_US before.
 */
static bool low_unavailable(const struct pull_switch *sw, int nsw, double ts)
{
	int i, last = -1;

	for (i = 0; i < nsw && sw[i].ts <= ts; i++)
		last = i;
	if (last < 0)
		return i < nsw && !sw[i].in;
	return sw[last].in || (ts - sw[last].ts) * 1e6 < PULL_HOT_US;
}

/*
 * Which of @high and @low the trace buffer shows moving from @src to @dst
 * first (mainline's sched_migrate_task tracepoint, in the order the
 * balancer detached them). PULL_EARLY when that was before PULL_MARK in
 * the buffer: a pull between the two affinity changes, when only one of
 * the tasks could go, so no choice. PULL_BUSY when @high went first while
 * @low was running on @src or had just run there (sched_switch, filtered
 * to @low): the balancer could not take @low then, or need not.
 */
static enum pull_result first_migrated(pid_t high, pid_t low, int src,
				       int dst)
{
	static struct pull_switch sw[PULL_SWITCHES];
	enum pull_result res = PULL_NONE;
	static char buf[1 << 20];
	char want[64], *line;
	bool marked = false;
	double ts, pull_ts = 0;
	int pid, cpu, nsw = 0;

	if (read_text(TRACING "/trace", buf, sizeof(buf)) < 0)
		return PULL_NONE;
	snprintf(want, sizeof(want), "orig_cpu=%d dest_cpu=%d", src, dst);
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		char *at = strstr(line, " pid=");

		if (line[0] == '#')
			continue;
		if (strstr(line, PULL_MARK))
			marked = true;
		if (strstr(line, " sched_switch: ")) {
			char *next = strstr(line, "next_pid=");

			if (next && nsw < PULL_SWITCHES &&
			    trace_line_when(line, &cpu, &ts) && cpu == src) {
				sw[nsw].ts = ts;
				sw[nsw].in = atoi(next + 9) == low;
				nsw++;
			}
			continue;
		}
		if (res != PULL_NONE || !at || !strstr(line, want))
			continue;
		pid = atoi(at + 5);
		if (pid != high && pid != low)
			continue;
		if (!marked)
			return PULL_EARLY;
		res = pid == high ? PULL_HIGH : PULL_LOW;
		if (!trace_line_when(line, &cpu, &pull_ts))
			return res;
	}

	if (res == PULL_HIGH && low_unavailable(sw, nsw, pull_ts))
		return PULL_BUSY;
	return res;
}

/*
 * One idle pull from @src (a P CPU) to @dst (an idle E CPU): a vector
 * task and a spin-wait task wait on @src behind a nice -20 task pinned
 * there, so both are queued and neither is running, and the vector task
 * sits at the end of cfs_tasks (it was enqueued first), where
 * detach_tasks() starts. Once both may run on @dst, the idle balance of
 * @dst pulls: report which task it detached first, and where both ended.
 */
static enum pull_result pull_trial(struct __test_metadata *_metadata,
				   struct placement *pl, int src, int dst,
				   int *moved)
{
	enum pull_result res;
	pid_t high, low, hog;
	char filter[64];
	long end;

	/* Each alone on a CPU first, so that the hardware classifies it. */
	high = spawn(_metadata, pl, src, CLASS_HIGH, false);
	low = spawn(_metadata, pl, dst, CLASS_ZERO, false);
	sleep_ms(CLASS_MS);

	/* Both queued behind the hog on @src; @dst idle. */
	hog = spawn(_metadata, pl, src, CLASS_ZERO, false);
	EXPECT_EQ(0, setpriority(PRIO_PROCESS, hog, -20));
	EXPECT_EQ(0, setpriority(PRIO_PROCESS, high, 19));
	EXPECT_EQ(0, setpriority(PRIO_PROCESS, low, 19));
	EXPECT_EQ(0, move_to(low, src, -1));
	sleep_ms(PULL_QUEUE_MS);
	EXPECT_EQ(src, task_cpu(low));
	EXPECT_EQ(src, task_cpu(high));

	/* Let them go to @dst and wait for both to get there. */
	snprintf(filter, sizeof(filter), "prev_pid == %d || next_pid == %d",
		 low, low);
	EXPECT_EQ(0, trace_set(SWITCH_EVENT "/filter", filter));
	EXPECT_EQ(0, trace_set("trace", ""));
	EXPECT_EQ(0, move_to(high, src, dst));
	EXPECT_EQ(0, move_to(low, src, dst));
	EXPECT_EQ(0, trace_set("trace_marker", PULL_MARK));
	for (end = now_ms() + PULL_WAIT_MS; now_ms() < end; sleep_ms(10)) {
		if (task_cpu(high) == dst && task_cpu(low) == dst)
			break;
	}
	*moved = (task_cpu(high) == dst) + (task_cpu(low) == dst);
	res = first_migrated(high, low, src, dst);
	/*
	 * The pull takes every queued task the destination may run, bar
	 * the source's running one: when one task alone got there, the
	 * other was not among them (most likely running on @src), and the
	 * pull had no choice to make.
	 */
	if (*moved == 1 && (res == PULL_LOW || res == PULL_HIGH))
		res = PULL_ONE;
	stop_tasks(pl);

	return res;
}

/*
 * Mode 1 breaks ties only, and the pull is where it can: of the tasks an
 * idle or newly idle pull that counts tasks may take, it takes first the
 * one whose class loses least on the destination (ipcc_pull_pick()). The
 * balancer's own order here takes the vector task first (it loses 30 of
 * 63 on an E-core); mode 1 must take the spin-wait task (41 on both)
 * first in each of PULL_TRIALS trials, and mode 0 the vector task in at
 * least one (the trials do set up a tie that class decides). The pulls
 * are seen through mainline's sched_migrate_task tracepoint, not through
 * the series' counters. A trial whose first pull came before both tasks
 * could go (between the two affinity changes, which a vCPU the host
 * preempts there stretches to milliseconds) had no choice to make: it
 * is reported ("the one task allowed"), not counted, and run again,
 * at most PULL_TRIES times in all per mode. So is a trial in which only
 * one of the tasks reached @dst within PULL_WAIT_MS ("one task only"):
 * the other was not there to choose (seen once in 9 mode-1 trials on
 * lnl-hw, "vector first, 1 of 2 moved"; every other trial moved both).
 * And so is a trial in which the vector task went first while the
 * spin-wait one ran on @src, or had left it less than PULL_HOT_US
 * before (sched_switch, filtered to that task): the tick that kicks the
 * idle balance is also the one at which the nice 19 tasks now and then
 * get @src, so the pull found the spin-wait task running (seen on
 * adl-hw, 6.12: "vector first, 2 of 2 moved" in 1 of 9 mode-1 trials of
 * a full run; traced, the spin-wait task went in 0.1 ms before the pull
 * took the vector task alone, and followed it 11 ms later).
 *
 * On the QEMU profiles such a pull takes both tasks (an idle group of
 * four E-cores takes what a busy P-core has queued, bar its running
 * task), so the order does not change where the tasks end up: mode 1
 * promises no placement, and the placement scenarios assert none for it.
 * Measured: the same in all trials on adl-hw, mtl-hw, lnl-hw and numa2-hw.
 * Shown failing: with mode 1 run as mode 0 (set_mode() writing 0 for 1),
 * mode 1 took the vector task first in 3 of 3 trials on adl-hw.
 */
TEST_F_TIMEOUT(place, tiebreak_pull, 120)
{
	struct placement *pl = &self->pl;
	int src = pl->slot[0], dst = -1, mode, i, tries, moved;
	int n[2][PULL_NR] = { { 0 } };
	enum pull_result r;

	if (!calibrated(pl))
		SKIP(return, "Thread Director model %s, not oracle",
		     pl->model);
	if (access(TRACING "/" MIGRATE_EVENT "/enable", W_OK))
		SKIP(return, "no tracefs or no sched_migrate_task event");
	for (i = 0; i < pl->ne && dst < 0; i++) {
		if (cpu_node(pl->ecpu[i]) == cpu_node(src))
			dst = pl->ecpu[i];
	}
	if (dst < 0)
		SKIP(return, "no E-core on the node of CPU %d", src);

	ASSERT_EQ(0, trace_set(MIGRATE_EVENT "/enable", "1"));
	ASSERT_EQ(0, trace_set(SWITCH_EVENT "/enable", "1"));
	for (mode = 0; mode <= 1; mode++) {
		set_mode(_metadata, mode);
		i = 0;
		for (tries = 0; i < PULL_TRIALS && tries < PULL_TRIES; tries++) {
			r = pull_trial(_metadata, pl, src, dst, &moved);
			n[mode][r]++;
			ksft_print_msg("mode=%d pull %d: CPU %d -> %d: %s first, %d of 2 moved\n",
				       mode, tries, src, dst, pull_name[r], moved);
			i += r != PULL_EARLY && r != PULL_ONE && r != PULL_BUSY;
		}
	}
	trace_set(MIGRATE_EVENT "/enable", "0");
	trace_set(SWITCH_EVENT "/enable", "0");
	trace_set(SWITCH_EVENT "/filter", "0");

	EXPECT_EQ(PULL_TRIALS, n[1][PULL_LOW]) {
		TH_LOG("mode 1: spin-wait first in %d of %d (vector %d, busy %d)",
		       n[1][PULL_LOW], PULL_TRIALS, n[1][PULL_HIGH],
		       n[1][PULL_BUSY]);
	}
	EXPECT_GT(n[0][PULL_HIGH], 0) {
		TH_LOG("mode 0 never took the vector task first: no tie to break");
	}
}

TEST_F_TIMEOUT(place, numa, 120)
{
	struct placement *pl = &self->pl;
	cpu_set_t nodes;
	double s0, s2;

	if (read_cpulist(NODE_ONLINE, &nodes) || CPU_COUNT(&nodes) != 2)
		SKIP(return, "not a guest with two NUMA nodes");
	if (read_text(NUMA_SYSCTL, pl->numab, sizeof(pl->numab)) <= 0)
		SKIP(return, "no NUMA balancing (CONFIG_NUMA_BALANCING)");

	ASSERT_EQ(0, write_text(NUMA_SYSCTL, "1"));

	s0 = run_full(_metadata, pl, 0, true, "numa");
	s2 = run_full(_metadata, pl, 2, true, "numa");

	EXPECT_GE(pct(s2), NUMA_MIN_PCT) {
		TH_LOG("numa: share %.2f in mode 2, %.2f in mode 0, want >= 0.%02d",
		       s2, s0, NUMA_MIN_PCT);
	}
}

TEST_HARNESS_MAIN
