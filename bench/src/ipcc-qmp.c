// SPDX-License-Identifier: GPL-2.0
/*
 * ipcc-qmp: the benchmark's window on the emulated hybrid hardware (guest
 * side), through the QMP monitor of its own QEMU on /dev/ttyS2 (the
 * harness connects it; qemu/README.md).
 *
 * usage: ipcc-qmp profile
 *        ipcc-qmp set-hfi TYPE CLASS PERF EFF
 *        ipcc-qmp cmd JSON
 *
 * profile   what the hardware reports (x-query-hybrid): the Thread Director
 *           model, the online CPUs of each core type as cpulists, then one
 *           line per hybrid vCPU with its HFI row (raw perf and eff per
 *           class):
 *
 *             model oracle
 *             pcpus 0-3
 *             ecpus 4-7
 *             lpcpus 8-9                 (only with LP E-cores)
 *             cpu 0 apic 0 type p perf 67,63,63,41 eff 47,47,47,30
 *
 *           CPUs are Linux CPU numbers (-1: the vCPU is not online).
 * set-hfi   x-hybrid-set-hfi: class CLASS of every core of TYPE (p, e or
 *           lp; P, E, LP too) gets performance PERF and efficiency EFF
 *           (0..255), and a new HFI table is published; then waits until
 *           the kernel reports PERF/EFF for CLASS on every online CPU of
 *           that type in /sys/kernel/debug/sched/ipcc/scores (at most
 *           10 s).  Nothing is restored: a run is a fresh boot.
 * cmd       send one QMP command, print the reply.
 *
 * Exit status 0 on success, 1 on a refused command, a timeout or a part
 * that is not hybrid, 2 on bad usage.
 *
 * QEMU answers in host time.  Under -icount with sleep=off the clock of an
 * idle guest jumps to its next timer, so a wait for the reply could time
 * out at once: a child keeps a CPU busy while the tool runs.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "../../tools/testing/selftests/sched/ipcc_qmp.h"

#define SCORES		"/sys/kernel/debug/sched/ipcc/scores"
#define WAIT_MS		10000
#define MAX_APIC	256

static struct qmp_cpu hw[QMP_MAX_CPUS];
static int cpu_of_apic[MAX_APIC];
static pid_t busy_pid = -1;

/* A child that spins until busy_stop() or until this process ends. */
static void busy_start(void)
{
	pid_t parent = getpid();

	busy_pid = fork();
	if (busy_pid)
		return;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	while (getppid() == parent)
		asm volatile("" ::: "memory");
	_exit(0);
}

static void busy_stop(void)
{
	if (busy_pid > 0) {
		kill(busy_pid, SIGKILL);
		waitpid(busy_pid, NULL, 0);
	}
	busy_pid = -1;
}

static int bad_usage(void)
{
	fprintf(stderr, "usage: ipcc-qmp profile\n"
		"       ipcc-qmp set-hfi TYPE CLASS PERF EFF\n"
		"       ipcc-qmp cmd JSON\n");
	return 2;
}

/* The Linux CPU of hybrid vCPU @i, or -1 when it is not online. */
static int linux_cpu(int i)
{
	int a = hw[i].apic_id;

	return a >= 0 && a < MAX_APIC ? cpu_of_apic[a] : -1;
}

/* x-query-hybrid into hw[]: the number of hybrid vCPUs, or -1. */
static int hw_query(void)
{
	int n;

	if (qmp_open()) {
		fprintf(stderr, "ipcc-qmp: no QMP monitor on %s\n", QMP_PORT);
		return -1;
	}
	n = qmp_query(hw, QMP_MAX_CPUS);
	if (n <= 0) {
		fprintf(stderr, "ipcc-qmp: x-query-hybrid: %s\n",
			n ? qmp_buf : "not a hybrid part");
		return -1;
	}
	qmp_cpus_by_apic(cpu_of_apic, MAX_APIC);
	return n;
}

/* Print @set as a cpulist ("0-3,8") after @label. */
static void print_cpulist(const char *label, const cpu_set_t *set)
{
	int cpu, first = 1;

	printf("%s ", label);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		int end = cpu;

		if (!CPU_ISSET(cpu, set))
			continue;
		while (end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, set))
			end++;
		printf(first ? "%d" : ",%d", cpu);
		if (end > cpu)
			printf("-%d", end);
		first = 0;
		cpu = end;
	}
	printf("\n");
}

/* The online CPUs whose core type is @type. */
static void type_cpus(int n, const char *type, cpu_set_t *set)
{
	int i;

	CPU_ZERO(set);
	for (i = 0; i < n; i++)
		if (!strcmp(hw[i].type, type) && linux_cpu(i) >= 0)
			CPU_SET(linux_cpu(i), set);
}

static int profile(void)
{
	static const char * const types[] = { "p", "e", "lp" };
	int n = hw_query(), i, k;
	cpu_set_t set;

	if (n < 0)
		return 1;
	printf("model %s\n", hw[0].model);
	for (k = 0; k < 3; k++) {
		char label[16];

		type_cpus(n, types[k], &set);
		if (k == 2 && !CPU_COUNT(&set))
			continue;
		snprintf(label, sizeof(label), "%scpus", types[k]);
		print_cpulist(label, &set);
	}
	for (i = 0; i < n; i++) {
		printf("cpu %d apic %d type %s perf", linux_cpu(i),
		       hw[i].apic_id, hw[i].type);
		for (k = 0; k < QMP_CLASSES; k++)
			printf("%c%ld", k ? ',' : ' ', hw[i].perf[k]);
		printf(" eff");
		for (k = 0; k < QMP_CLASSES; k++)
			printf("%c%ld", k ? ',' : ' ', hw[i].eff[k]);
		printf("\n");
	}
	return 0;
}

/*
 * Whether the kernel's scores file shows @want ("PERF/EFF") in column
 * @class for every CPU of @set.
 */
static int kernel_has(const cpu_set_t *set, int class, const char *want)
{
	char line[4096];
	cpu_set_t seen;
	FILE *f = fopen(SCORES, "r");
	int ok = 1;

	if (!f)
		return 0;
	CPU_ZERO(&seen);
	if (!fgets(line, sizeof(line), f))
		ok = 0;
	while (ok && fgets(line, sizeof(line), f)) {
		char *save, *w = strtok_r(line, "\n ", &save);
		int cpu, k;

		if (!w || !isdigit((unsigned char)*w))
			continue;
		cpu = atoi(w);
		if (cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, set))
			continue;
		for (k = 0; k <= class && w; k++)
			w = strtok_r(NULL, "\n ", &save);
		if (!w || strcmp(w, want))
			ok = 0;
		CPU_SET(cpu, &seen);
	}
	fclose(f);
	return ok && CPU_EQUAL(&seen, set);
}

/* A decimal number in [@lo, @hi] from @s, or -1. */
static long number(const char *s, long lo, long hi)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	v = strtol(s, &end, 10);
	return *end || v < lo || v > hi ? -1 : v;
}

static int set_hfi(char **argv)
{
	long class = number(argv[1], 0, QMP_CLASSES - 1);
	long perf = number(argv[2], 0, 255);
	long eff = number(argv[3], 0, 255);
	char type[4], cmd[256], want[16];
	int n, i, ret;
	long end;
	cpu_set_t set;

	for (i = 0; argv[0][i] && i < 3; i++)
		type[i] = tolower((unsigned char)argv[0][i]);
	type[i] = '\0';
	if (argv[0][i] || class < 0 || perf < 0 || eff < 0 ||
	    (strcmp(type, "p") && strcmp(type, "e") && strcmp(type, "lp")))
		return bad_usage();
	n = hw_query();
	if (n < 0)
		return 1;
	type_cpus(n, type, &set);
	snprintf(cmd, sizeof(cmd),
		 "{\"execute\":\"x-hybrid-set-hfi\",\"arguments\":{\"core-type\":\"%s\",\"class\":%ld,\"perf\":%ld,\"eff\":%ld}}",
		 type, class, perf, eff);
	ret = qmp_cmd(cmd);
	if (ret) {
		fprintf(stderr, "ipcc-qmp: x-hybrid-set-hfi refused: %s\n",
			ret == -EINVAL ? qmp_buf : "no reply");
		return 1;
	}
	/* The HFI driver takes the new table from a delayed work item. */
	snprintf(want, sizeof(want), "%ld/%ld", perf, eff);
	end = qmp_now_ms() + WAIT_MS;
	while (!kernel_has(&set, class, want)) {
		if (qmp_now_ms() > end) {
			fprintf(stderr,
				"ipcc-qmp: the kernel does not report %s for class %ld on the %s-cores after %d ms\n",
				want, class, type, WAIT_MS);
			return 1;
		}
		usleep(20000);
	}
	return 0;
}

static int cmd(const char *json)
{
	int ret;

	if (qmp_open()) {
		fprintf(stderr, "ipcc-qmp: no QMP monitor on %s\n", QMP_PORT);
		return 1;
	}
	ret = qmp_cmd(json);
	if (ret != -EIO)
		printf("%s\n", qmp_buf);
	return ret ? 1 : 0;
}

int main(int argc, char **argv)
{
	int ret;

	if (argc == 2 && !strcmp(argv[1], "profile")) {
		busy_start();
		ret = profile();
	} else if (argc == 6 && !strcmp(argv[1], "set-hfi")) {
		busy_start();
		ret = set_hfi(argv + 2);
	} else if (argc == 3 && !strcmp(argv[1], "cmd")) {
		busy_start();
		ret = cmd(argv[2]);
	} else {
		return bad_usage();
	}
	busy_stop();
	return ret;
}
