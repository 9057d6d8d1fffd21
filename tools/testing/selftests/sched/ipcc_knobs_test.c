// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the IPC class (IPCC) knobs: the kernel.sched_ipcc sysctl and
 * the files in /sys/kernel/debug/sched/ipcc/.
 *
 * Needs root; every test is skipped when the kernel has no
 * CONFIG_SCHED_IPCC (no /proc/sys/kernel/sched_ipcc). The tests that need
 * hardware classes are skipped when the scores file shows none. The
 * previous mode and debounce length are restored after each test.
 *
 * Each test was shown failing on adl-hw, on kernels broken on purpose
 * (2026-12-04; the knob handlers are in kernel/sched/ipcc_debug.c):
 *   knobs_exist          stats created 0644 instead of 0444
 *   sysctl_valid         the sysctl's maximum lowered to 1
 *   sysctl_invalid       the sysctl without its strict parser ("1 2" taken)
 *   debounce_valid       ipcc_set_debounce_ticks() refusing 255
 *   debounce_invalid     debounce_ticks taking 0 (knob and setter)
 *   override_invalid     ipcc_parse_override() taking "PID -1 0"
 *   override_unknown_pid ipcc_set_override() answering 0 for no task
 *   override_kthread     ipcc_set_override() without its PF_KTHREAD check
 *   override_child       clearing an override leaving the task pinned
 *   mode0_no_class_changes  see the comment above it
 *   stats_format         the "misfit" counter renamed
 *   scores_format        the header's "cpu" written "CPU"
 *   misfit_threshold_boundary  (lnl-hw, 2026-12-07) the score cache's
 *                        misfit room left at 0, which ends the misfit
 *                        check early for every task: no misfit below
 *                        the gain
 *   wake_up_leaves_class_misfit_cpu  (lnl-hw, 2026-12-07)
 *                        __sched_ipcc_wake_fits() returning @fits
 *                        unchanged: woke up on the small CPU in 12 of
 *                        12 rounds, on the bigger one in none
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "ipcc_util.h"

#define SYSCTL_PATH	"/proc/sys/kernel/sched_ipcc"
#define PID_MAX_PATH	"/proc/sys/kernel/pid_max"
#define DEBUGFS_MNT	"/sys/kernel/debug"
#define IPCC_DIR	DEBUGFS_MNT "/sched/ipcc"
#define SCORES_PATH	IPCC_DIR "/scores"
#define DEBOUNCE_PATH	IPCC_DIR "/debounce_ticks"
#define STATS_PATH	IPCC_DIR "/stats"
#define OVERRIDE_PATH	IPCC_DIR "/override"
#define MISFIT_PATH	IPCC_DIR "/misfit_threshold"
#define COOLDOWN_PATH	IPCC_DIR "/cooldown_ms"

/* The kernel's cap on tracked classes (IPCC_MAX_CLASSES). */
#define MAX_CLASSES	16
/* CPUs the misfit test reads scores for, and the tasks it runs. */
#define MAX_CPUS_KNOB	256
#define MISFIT_TASKS	16

/* Longer than the 32 bytes any knob accepts, otherwise a valid number. */
#define OVERLONG	"0000000000000000000000000000000000000001"

static char big_buf[1 << 16];

/* One write() of @len bytes; 0 on success, else -errno. */
static int write_knob(const char *path, const char *buf, size_t len)
{
	ssize_t ret;
	int fd, err = 0;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	ret = write(fd, buf, len);
	if (ret < 0)
		err = -errno;
	else if ((size_t)ret != len)
		err = -EIO;
	close(fd);

	return err;
}

static int write_str(const char *path, const char *s)
{
	return write_knob(path, s, strlen(s));
}

static int read_long(const char *path, long *val)
{
	char buf[64], *end;
	int ret;

	ret = read_text(path, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	errno = 0;
	*val = strtol(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n'))
		return -EINVAL;

	return 0;
}

/* Number of "classN" columns in the header of the scores file. */
static int scores_nr_classes(void)
{
	char *line, *tok, *save;
	int ret, nr = 0;

	ret = read_text(SCORES_PATH, big_buf, sizeof(big_buf));
	if (ret < 0)
		return ret;
	line = strtok_r(big_buf, "\n", &save);
	if (!line)
		return -EINVAL;
	tok = strtok_r(line, " ", &save);
	if (!tok || strcmp(tok, "cpu"))
		return -EINVAL;
	while ((tok = strtok_r(NULL, " ", &save))) {
		char want[16];

		snprintf(want, sizeof(want), "class%d", nr);
		if (strcmp(tok, want))
			return -EINVAL;
		nr++;
	}

	return nr;
}

/* Value of the "@name N" line of the stats file. */
static int stat_value(const char *name, unsigned long long *val)
{
	char buf[1024], *line, *save;
	size_t len = strlen(name);
	int ret;

	ret = read_text(STATS_PATH, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, name, len) && line[len] == ' ') {
			char *end;

			errno = 0;
			*val = strtoull(line + len + 1, &end, 10);
			if (errno || *end)
				return -EINVAL;
			return 0;
		}
	}

	return -ENOENT;
}

/* Value of the "@field   :   N" line of /proc/@pid/sched. */
static int proc_sched_field(pid_t pid, const char *field, long long *val)
{
	char path[64], *line, *save, *p;
	size_t len = strlen(field);
	int ret;

	snprintf(path, sizeof(path), "/proc/%d/sched", pid);
	ret = read_text(path, big_buf, sizeof(big_buf));
	if (ret < 0)
		return ret;
	for (line = strtok_r(big_buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, field, len))
			continue;
		p = line + len;
		while (*p == ' ')
			p++;
		if (*p != ':')
			continue;
		errno = 0;
		*val = strtoll(p + 1, NULL, 10);
		return errno ? -errno : 0;
	}

	return -ENOENT;
}

/* Whether the override file lists "@pid @class". */
static bool override_listed(pid_t pid, int class)
{
	char want[64], *line, *save;

	if (read_text(OVERRIDE_PATH, big_buf, sizeof(big_buf)) < 0)
		return false;
	snprintf(want, sizeof(want), "%d %d", pid, class);
	for (line = strtok_r(big_buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strcmp(line, want))
			return true;
	}

	return false;
}

static bool pid_listed(pid_t pid)
{
	int class;

	for (class = 0; class < MAX_CLASSES; class++) {
		if (override_listed(pid, class))
			return true;
	}

	return false;
}

FIXTURE(ipcc) {
	long saved_mode;
	char saved_debounce[32];
	bool have_debugfs;
	pid_t child;
};

FIXTURE_SETUP(ipcc)
{
	self->child = 0;
	if (geteuid())
		SKIP(return, "must run as root");
	if (access(SYSCTL_PATH, F_OK))
		SKIP(return, "%s is absent: no CONFIG_SCHED_IPCC", SYSCTL_PATH);

	ASSERT_EQ(0, read_long(SYSCTL_PATH, &self->saved_mode));

	if (access(IPCC_DIR, F_OK))
		mount("debugfs", DEBUGFS_MNT, "debugfs", 0, NULL);
	self->have_debugfs = !access(IPCC_DIR, F_OK);
	if (self->have_debugfs)
		ASSERT_LT(0, read_text(DEBOUNCE_PATH, self->saved_debounce,
				       sizeof(self->saved_debounce)));
}

FIXTURE_TEARDOWN(ipcc)
{
	char mode[32];

	if (self->child > 0) {
		kill(self->child, SIGKILL);
		waitpid(self->child, NULL, 0);
	}
	snprintf(mode, sizeof(mode), "%ld", self->saved_mode);
	EXPECT_EQ(0, write_str(SYSCTL_PATH, mode));
	if (self->have_debugfs)
		EXPECT_EQ(0, write_str(DEBOUNCE_PATH, self->saved_debounce));
}

TEST_F(ipcc, knobs_exist)
{
	static const struct {
		const char *path;
		mode_t mode;
	} files[] = {
		{ SCORES_PATH, 0444 },
		{ DEBOUNCE_PATH, 0644 },
		{ STATS_PATH, 0444 },
		{ OVERRIDE_PATH, 0600 },
	};
	struct stat st;
	unsigned int i;

	ASSERT_EQ(0, stat(SYSCTL_PATH, &st));
	EXPECT_EQ((mode_t)0644, st.st_mode & 0777);

	ASSERT_TRUE(self->have_debugfs) {
		TH_LOG("%s is missing", IPCC_DIR);
	}
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		ASSERT_EQ(0, stat(files[i].path, &st)) {
			TH_LOG("%s: %s", files[i].path, strerror(errno));
		}
		EXPECT_EQ(files[i].mode, st.st_mode & 0777) {
			TH_LOG("%s has mode %o", files[i].path,
			       st.st_mode & 0777);
		}
	}
}

TEST_F(ipcc, sysctl_valid)
{
	static const struct {
		const char *in;
		long out;
	} good[] = {
		{ "0", 0 }, { "1", 1 }, { "2", 2 }, { "0\n", 0 }, { "2\n", 2 },
	};
	unsigned int i;
	long mode;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		ASSERT_EQ(0, write_str(SYSCTL_PATH, good[i].in)) {
			TH_LOG("writing \"%s\"", good[i].in);
		}
		ASSERT_EQ(0, read_long(SYSCTL_PATH, &mode));
		EXPECT_EQ(good[i].out, mode);
	}
}

TEST_F(ipcc, sysctl_invalid)
{
	static const char * const bad[] = {
		"", "abc", "3", "-1", "256", "0x10", "1 2", "+1", " 1", "1x",
		"99999999999999999999", OVERLONG,
	};
	unsigned int i;
	long mode;

	ASSERT_EQ(0, write_str(SYSCTL_PATH, "1"));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, write_str(SYSCTL_PATH, bad[i])) {
			TH_LOG("writing \"%s\"", bad[i]);
		}
		ASSERT_EQ(0, read_long(SYSCTL_PATH, &mode));
		EXPECT_EQ(1, mode) {
			TH_LOG("mode changed by \"%s\"", bad[i]);
		}
	}
}

TEST_F(ipcc, debounce_valid)
{
	static const struct {
		const char *in;
		long out;
	} good[] = {
		{ "1", 1 }, { "4", 4 }, { "255", 255 }, { "7\n", 7 }, { "16", 16 },
	};
	unsigned int i;
	long ticks;

	if (!self->have_debugfs)
		SKIP(return, "%s is absent", IPCC_DIR);
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		ASSERT_EQ(0, write_str(DEBOUNCE_PATH, good[i].in)) {
			TH_LOG("writing \"%s\"", good[i].in);
		}
		ASSERT_EQ(0, read_long(DEBOUNCE_PATH, &ticks));
		EXPECT_EQ(good[i].out, ticks);
	}
}

TEST_F(ipcc, debounce_invalid)
{
	static const char * const bad[] = {
		"", "abc", "0", "-1", "256", "0x10", "1 2", "+4", " 4", "4x",
		"99999999999999999999", OVERLONG,
	};
	unsigned int i;
	long ticks;

	if (!self->have_debugfs)
		SKIP(return, "%s is absent", IPCC_DIR);
	ASSERT_EQ(0, write_str(DEBOUNCE_PATH, "5"));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, write_str(DEBOUNCE_PATH, bad[i])) {
			TH_LOG("writing \"%s\"", bad[i]);
		}
		ASSERT_EQ(0, read_long(DEBOUNCE_PATH, &ticks));
		EXPECT_EQ(5, ticks) {
			TH_LOG("debounce_ticks changed by \"%s\"", bad[i]);
		}
	}
}

TEST_F(ipcc, override_invalid)
{
	static const char * const fmt[] = {
		"%d", "%d ", "%d abc", "%d -0", "%d --1", "%d -2", "%d +0",
		"+%d 0", "-%d -1", "%d 0x0", "%d 0 1", "%d -1 0",
		"%d 4294967295", "%d 4294967296", "%d 16", "%d 0\n\n",
	};
	static const char * const bad[] = {
		"", "abc", "0 -1", "0x10 -1", "99999999999999999999 -1",
		"2147483648 -1", OVERLONG,
	};
	pid_t pid = getpid();
	char buf[64];
	long long val;
	unsigned int i;
	int nr;

	if (!self->have_debugfs)
		SKIP(return, "%s is absent", IPCC_DIR);
	nr = scores_nr_classes();
	ASSERT_LE(0, nr);

	for (i = 0; i < ARRAY_SIZE(fmt); i++) {
		snprintf(buf, sizeof(buf), fmt[i], pid);
		EXPECT_EQ(-EINVAL, write_str(OVERRIDE_PATH, buf)) {
			TH_LOG("writing \"%s\"", buf);
		}
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, write_str(OVERRIDE_PATH, bad[i])) {
			TH_LOG("writing \"%s\"", bad[i]);
		}
	}
	/* The first class past the last valid one. */
	snprintf(buf, sizeof(buf), "%d %d", pid, nr);
	EXPECT_EQ(-EINVAL, write_str(OVERRIDE_PATH, buf));

	ASSERT_EQ(0, proc_sched_field(pid, "ipcc.overridden", &val));
	EXPECT_EQ(0, val);
	EXPECT_FALSE(pid_listed(pid));
}

TEST_F(ipcc, override_unknown_pid)
{
	char buf[64];
	long pid_max;

	if (!self->have_debugfs)
		SKIP(return, "%s is absent", IPCC_DIR);
	/* PIDs are below pid_max, so pid_max itself never exists. */
	ASSERT_EQ(0, read_long(PID_MAX_PATH, &pid_max));
	snprintf(buf, sizeof(buf), "%ld -1", pid_max);
	EXPECT_EQ(-ESRCH, write_str(OVERRIDE_PATH, buf));
}

TEST_F(ipcc, override_kthread)
{
	char comm[64];

	if (!self->have_debugfs)
		SKIP(return, "%s is absent", IPCC_DIR);
	if (read_text("/proc/2/comm", comm, sizeof(comm)) < 0 ||
	    strcmp(comm, "kthreadd\n"))
		SKIP(return, "PID 2 is not kthreadd");
	EXPECT_EQ(-EINVAL, write_str(OVERRIDE_PATH, "2 -1"));
}

TEST_F(ipcc, override_child)
{
	char buf[64];
	long long val;
	int nr;

	if (!self->have_debugfs)
		SKIP(return, "%s is absent", IPCC_DIR);
	nr = scores_nr_classes();
	ASSERT_LE(0, nr);
	if (!nr)
		SKIP(return, "the hardware reports no classes");

	ASSERT_EQ(0, write_str(SYSCTL_PATH, "2"));

	self->child = fork();
	ASSERT_LE(0, self->child);
	if (!self->child) {
		for (;;)
			pause();
	}

	snprintf(buf, sizeof(buf), "%d 0", self->child);
	ASSERT_EQ(0, write_str(OVERRIDE_PATH, buf));
	ASSERT_EQ(0, proc_sched_field(self->child, "ipcc.class", &val));
	EXPECT_EQ(0, val);
	ASSERT_EQ(0, proc_sched_field(self->child, "ipcc.overridden", &val));
	EXPECT_EQ(1, val);
	EXPECT_TRUE(override_listed(self->child, 0));

	snprintf(buf, sizeof(buf), "%d -1\n", self->child);
	ASSERT_EQ(0, write_str(OVERRIDE_PATH, buf));
	ASSERT_EQ(0, proc_sched_field(self->child, "ipcc.class", &val));
	EXPECT_EQ(-1, val);
	ASSERT_EQ(0, proc_sched_field(self->child, "ipcc.overridden", &val));
	EXPECT_EQ(0, val);
	EXPECT_FALSE(pid_listed(self->child));

	/* Clearing a task that is not overridden is accepted. */
	EXPECT_EQ(0, write_str(OVERRIDE_PATH, buf));
}

/*
 * Packed SSE2 work in this task for @ms milliseconds: what the hardware
 * classifies as vector work (class 1 on the emulated parts). The clock
 * is read only every 4096 rounds, so vector work dominates.
 */
static void vector_work(long ms)
{
	struct timespec now, end;
	unsigned int i;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += ms / 1000;
	end.tv_nsec += (ms % 1000) * 1000000L;
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	do {
		for (i = 0; i < 4096; i++)
			asm volatile("paddd %%xmm1, %%xmm0\n\t"
				     "pxor %%xmm0, %%xmm2\n\t"
				     "addps %%xmm3, %%xmm4\n\t"
				     "mulps %%xmm4, %%xmm5\n\t"
				     ::: "xmm0", "xmm2", "xmm4", "xmm5");
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec < end.tv_sec ||
		 (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec));
}

/*
 * Mode 0: a task that executes classified (vector) work for 1 s changes
 * no class. Then, as the control that makes the first half meaningful,
 * the same work in mode 2 must change the task's class at least once
 * (the oracle model reports class 1 from the first tick; the default
 * debounce is a few ticks), wherever the hardware reports classes.
 * Shown failing: with the first half run in mode 2 instead of 0,
 * class_changes moved by 1 and the test failed (adl-hw, oracle).
 */
TEST_F(ipcc, mode0_no_class_changes)
{
	unsigned long long before, after;
	char buf[64];
	int nr;

	if (!self->have_debugfs)
		SKIP(return, "%s is absent", IPCC_DIR);
	/* The hardware's classes, read while IPCC is on (mode 0 shows none). */
	ASSERT_EQ(0, write_str(SYSCTL_PATH, "2"));
	nr = scores_nr_classes();
	ASSERT_LE(0, nr);
	ASSERT_EQ(0, write_str(SYSCTL_PATH, "0"));

	ASSERT_EQ(0, stat_value("class_changes", &before));
	vector_work(1000);
	ASSERT_EQ(0, stat_value("class_changes", &after));
	EXPECT_EQ(before, after) {
		TH_LOG("mode 0: class_changes moved by %llu", after - before);
	}

	/* Overrides need IPCC on; one that took would void the control. */
	if (nr) {
		snprintf(buf, sizeof(buf), "%d 0", getpid());
		EXPECT_EQ(-EBUSY, write_str(OVERRIDE_PATH, buf)) {
			snprintf(buf, sizeof(buf), "%d -1", getpid());
			write_str(OVERRIDE_PATH, buf);
		}
	}

	if (nr < 2)
		return;
	ASSERT_EQ(0, write_str(SYSCTL_PATH, "2"));
	ASSERT_EQ(0, stat_value("class_changes", &before));
	vector_work(1000);
	ASSERT_EQ(0, stat_value("class_changes", &after));
	TH_LOG("mode 2: the same work changed classes %llu times",
	       after - before);
	EXPECT_LT(before, after);
}

/* A raw hardware score on the kernel's normalised scale (0..1024). */
static int norm_score(int raw)
{
	return (raw * 1024 + 127) / 255;
}

/*
 * The class that gains most on a CPU of more capacity (cpu_capacity) than
 * one it may run on, by the perf scores of the scores file, and that
 * gain in normalised units (the kernel normalises each score, then
 * subtracts); the first pair of CPUs with that gain into @small and @big.
 * Return: the class, -1 when the capacities are all equal, -2 when the
 * files cannot be read or no class gains.
 */
static int misfit_class(int *gap, int *small, int *big)
{
	static int perf[MAX_CPUS_KNOB][MAX_CLASSES];
	static long cap[MAX_CPUS_KNOB];
	static int id[MAX_CPUS_KNOB];
	int cpu, other, c, ncpu = 0, nr, best = -2, asym = 0;
	char path[96], *line, *tok, *save, *save2;
	long v;

	nr = scores_nr_classes();
	if (nr <= 0 || nr > MAX_CLASSES)
		return -2;
	if (read_text(SCORES_PATH, big_buf, sizeof(big_buf)) < 0)
		return -2;
	line = strtok_r(big_buf, "\n", &save);
	while ((line = strtok_r(NULL, "\n", &save)) && ncpu < MAX_CPUS_KNOB) {
		tok = strtok_r(line, " ", &save2);
		if (!tok)
			return -2;
		cpu = ncpu++;
		id[cpu] = atoi(tok);
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%s/cpu_capacity", tok);
		cap[cpu] = read_long(path, &v) ? -1 : v;
		for (c = 0; c < nr; c++) {
			unsigned int p, e;

			tok = strtok_r(NULL, " ", &save2);
			if (!tok)
				return -2;
			perf[cpu][c] = sscanf(tok, "%u/%u", &p, &e) == 2 ?
				       norm_score(p) : -1;
		}
	}

	*gap = 0;
	for (cpu = 0; cpu < ncpu; cpu++) {
		for (other = 0; other < ncpu; other++) {
			if (cap[cpu] < 0 || cap[other] <= cap[cpu])
				continue;
			asym = 1;
			for (c = 0; c < nr; c++) {
				if (perf[cpu][c] < 0 || perf[other][c] < 0 ||
				    perf[other][c] - perf[cpu][c] <= *gap)
					continue;
				*gap = perf[other][c] - perf[cpu][c];
				best = c;
				*small = id[cpu];
				*big = id[other];
			}
		}
	}

	return asym ? best : -1;
}

/*
 * Runs about 1 ms in every 4: it fits a small CPU by utilization. Dies
 * with the test, should the harness kill it before it kills this.
 */
static void duty_work(void)
{
	struct timespec t0, t;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do {
			clock_gettime(CLOCK_MONOTONIC, &t);
		} while ((t.tv_sec - t0.tv_sec) * 1000000000L +
			 t.tv_nsec - t0.tv_nsec < 1000000L);
		usleep(3000);
	}
}

/*
 * How many tasks became misfits by class in @ms milliseconds, into @n.
 * Return: 0, or -errno when the stats file cannot be read.
 */
static int misfits_in(long ms, unsigned long long *n)
{
	unsigned long long before, after;
	int ret;

	ret = stat_value("misfit", &before);
	if (ret)
		return ret;
	usleep(ms * 1000);
	ret = stat_value("misfit", &after);
	*n = after - before;
	return ret;
}

/*
 * On a part with asymmetric CPU capacities, a task whose class scores
 * more than misfit_threshold better on a bigger CPU becomes a misfit
 * (update_misfit_status()), and one that scores exactly that much better
 * does not. Tasks that run a quarter of the time, so that they fit the
 * small CPUs by utilization, are overridden to the class that gains most
 * (from the scores file), with the threshold at that gain and one below.
 * Parts of one capacity skip. Shown failing: see the comment at the top.
 */
TEST_F(ipcc, misfit_threshold_boundary)
{
	unsigned long long at = 0, below = 0;
	int class, gap = 0, small, big, i, n, err = 0;
	char buf[64], saved[32];
	pid_t pid[MISFIT_TASKS];

	if (!self->have_debugfs)
		SKIP(return, "%s is absent", IPCC_DIR);
	ASSERT_EQ(0, write_str(SYSCTL_PATH, "2"));
	class = misfit_class(&gap, &small, &big);
	if (class == -1)
		SKIP(return, "no asymmetric CPU capacities");
	if (class < 0 || gap < 2)
		SKIP(return, "no class scores better on a bigger CPU");
	ASSERT_LT(0, read_text(MISFIT_PATH, saved, sizeof(saved)));

	/* Every step runs, so that the tasks are reaped; errors count. */
	for (n = 0; n < MISFIT_TASKS && !err; n++) {
		pid[n] = fork();
		if (!pid[n])
			duty_work();
		if (pid[n] < 0) {
			err = -errno;
			break;
		}
		snprintf(buf, sizeof(buf), "%d %d", pid[n], class);
		err = write_str(OVERRIDE_PATH, buf);
	}

	snprintf(buf, sizeof(buf), "%d", gap);
	err = err ?: write_str(MISFIT_PATH, buf);
	usleep(200 * 1000);
	err = err ?: misfits_in(1500, &at);
	snprintf(buf, sizeof(buf), "%d", gap - 1);
	err = err ?: write_str(MISFIT_PATH, buf);
	err = err ?: misfits_in(1500, &below);

	EXPECT_EQ(0, write_str(MISFIT_PATH, saved));
	for (i = 0; i < n; i++) {
		kill(pid[i], SIGKILL);
		waitpid(pid[i], NULL, 0);
	}
	ASSERT_EQ(0, err);

	TH_LOG("class %d gains %d on a bigger CPU: misfits %llu at threshold %d",
	       class, gap, at, gap);
	TH_LOG("misfits %llu at threshold %d", below, gap - 1);
	EXPECT_EQ(0ULL, at);
	EXPECT_LT(0ULL, below);
}

/* Pins the calling task to @cpu, and to @cpu2 as well when not -1. */
static int pin_to(int cpu, int cpu2)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (cpu2 >= 0)
		CPU_SET(cpu2, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

/* Spins on @cpu until killed. */
static void hog_work(int cpu)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (pin_to(cpu, -1))
		_exit(1);
	for (;;)
		;
}

/*
 * On @small and @big: for each byte read from @in, writes the CPU it
 * woke up on to @out and runs 0.3 ms, until killed.
 */
static void waker_work(int in, int out, int small, int big)
{
	struct timespec t0, t;
	char c;
	int cpu;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (pin_to(small, big))
		_exit(1);
	while (read(in, &c, 1) == 1) {
		cpu = sched_getcpu();
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do {
			clock_gettime(CLOCK_MONOTONIC, &t);
		} while ((t.tv_sec - t0.tv_sec) * 1000000000L +
			 t.tv_nsec - t0.tv_nsec < 300000L);
		if (write(out, &cpu, sizeof(cpu)) != sizeof(cpu))
			break;
	}
	_exit(0);
}

/* Wakes the waker task and reads the CPU it woke up on, or -errno. */
static int wake_once(int to, int from)
{
	int cpu;

	if (write(to, "w", 1) != 1)
		return -errno;
	if (read(from, &cpu, sizeof(cpu)) != sizeof(cpu))
		return -EIO;
	return cpu;
}

#define WAKE_ROUNDS	12

/*
 * The wake-up path on a part with asymmetric capacities: a task that is
 * a misfit by class on a small CPU does not fit it when it wakes up
 * (asym_fits_cpu(), select_idle_capacity()), so it wakes up on the idle
 * bigger CPU where its class gains more than misfit_threshold, not on
 * the idle small CPU it last ran on. A task allowed on the two CPUs of
 * the class that gains most, overridden to that class, sleeps between
 * short runs; in each round it wakes up once while a task spins on the
 * bigger CPU (so on the small one), then once after that task is gone.
 * misfit_threshold is one below the gain and cooldown_ms 0, so that every
 * round counts. Parts of one capacity skip.
 */
TEST_F(ipcc, wake_up_leaves_class_misfit_cpu)
{
	int class, gap = 0, small = -1, big = -1, here = -1, cpu, i;
	int to[2] = { -1, -1 }, from[2] = { -1, -1 };
	int rounds = 0, up = 0, err = 0;
	char buf[64], saved_mt[32], saved_cd[32];
	cpu_set_t set;
	pid_t task, hog;

	if (!self->have_debugfs)
		SKIP(return, "%s is absent", IPCC_DIR);
	ASSERT_EQ(0, write_str(SYSCTL_PATH, "2"));
	class = misfit_class(&gap, &small, &big);
	if (class == -1)
		SKIP(return, "no asymmetric CPU capacities");
	if (class < 0 || gap < 2)
		SKIP(return, "no class scores better on a bigger CPU");
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(set), &set));
	for (cpu = 0; cpu < CPU_SETSIZE && here < 0; cpu++)
		if (CPU_ISSET(cpu, &set) && cpu != small && cpu != big)
			here = cpu;
	if (here < 0)
		SKIP(return, "needs a third CPU");
	/* Not the waker's CPU: the task's wake-ups are not affine. */
	ASSERT_EQ(0, pin_to(here, -1));
	ASSERT_LT(0, read_text(MISFIT_PATH, saved_mt, sizeof(saved_mt)));
	ASSERT_LT(0, read_text(COOLDOWN_PATH, saved_cd, sizeof(saved_cd)));
	ASSERT_EQ(0, pipe(to));
	ASSERT_EQ(0, pipe(from));

	task = fork();
	ASSERT_LE(0, task);
	if (!task)
		waker_work(to[0], from[1], small, big);
	snprintf(buf, sizeof(buf), "%d %d", task, class);
	err = write_str(OVERRIDE_PATH, buf);
	snprintf(buf, sizeof(buf), "%d", gap - 1);
	err = err ?: write_str(MISFIT_PATH, buf);
	err = err ?: write_str(COOLDOWN_PATH, "0");

	for (i = 0; i < WAKE_ROUNDS && !err; i++) {
		int first, second;

		hog = fork();
		if (hog < 0) {
			err = -errno;
			break;
		}
		if (!hog)
			hog_work(big);
		usleep(20 * 1000);
		first = wake_once(to[1], from[0]);
		kill(hog, SIGKILL);
		waitpid(hog, NULL, 0);
		usleep(10 * 1000);
		second = wake_once(to[1], from[0]);
		if (first < 0 || second < 0) {
			err = first < 0 ? first : second;
			break;
		}
		TH_LOG("round %d: woke up on CPU %d beside the spinner, then on CPU %d",
		       i, first, second);
		/* Only the small CPU was idle: the round counts. */
		if (first == small) {
			rounds++;
			up += second == big;
		}
	}

	EXPECT_EQ(0, write_str(MISFIT_PATH, saved_mt));
	EXPECT_EQ(0, write_str(COOLDOWN_PATH, saved_cd));
	kill(task, SIGKILL);
	waitpid(task, NULL, 0);
	close(to[1]);
	close(to[0]);
	close(from[0]);
	close(from[1]);
	ASSERT_EQ(0, err);

	TH_LOG("class %d gains %d from CPU %d to CPU %d: up in %d of %d rounds",
	       class, gap, small, big, up, rounds);
	ASSERT_LE(WAKE_ROUNDS / 2, rounds);
	EXPECT_EQ(rounds, up);
}

TEST_F(ipcc, stats_format)
{
	static const char * const names[] = {
		"class_changes", "pull", "group_tie", "rq_tie", "swap",
		"misfit",
	};
	unsigned long long val;
	unsigned int i;

	if (!self->have_debugfs)
		SKIP(return, "%s is absent", IPCC_DIR);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		EXPECT_EQ(0, stat_value(names[i], &val)) {
			TH_LOG("no \"%s\" line in stats", names[i]);
		}
	}
}

TEST_F(ipcc, scores_format)
{
	char *line, *tok, *save, *save2, *end;
	int nr, cpus = 0, cols;

	if (!self->have_debugfs)
		SKIP(return, "%s is absent", IPCC_DIR);
	nr = scores_nr_classes();
	ASSERT_LE(0, nr);

	ASSERT_LT(0, read_text(SCORES_PATH, big_buf, sizeof(big_buf)));
	line = strtok_r(big_buf, "\n", &save);
	ASSERT_NE(NULL, line);
	while ((line = strtok_r(NULL, "\n", &save))) {
		tok = strtok_r(line, " ", &save2);
		ASSERT_NE(NULL, tok);
		strtol(tok, &end, 10);
		EXPECT_EQ('\0', *end);
		for (cols = 0; (tok = strtok_r(NULL, " ", &save2)); cols++) {
			unsigned int perf = 0, eff = 0;
			int fields;
			char c;

			if (!strcmp(tok, "-/-"))
				continue;
			fields = sscanf(tok, "%u/%u%c", &perf, &eff, &c);
			EXPECT_EQ(2, fields) {
				TH_LOG("bad score \"%s\"", tok);
			}
			EXPECT_GE(255U, perf);
			EXPECT_GE(255U, eff);
		}
		EXPECT_EQ(nr, cols);
		cpus++;
	}
	EXPECT_LT(0, cpus);
}

TEST_HARNESS_MAIN
