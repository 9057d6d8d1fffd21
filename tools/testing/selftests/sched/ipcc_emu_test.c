// SPDX-License-Identifier: GPL-2.0
/*
 * Controls of the emulated hybrid CPU (CONFIG_X86_IPCC_EMULATION).
 *
 * - Every knob of /sys/kernel/debug/ipcc_emu refuses malformed, out of
 *   range, overlong and sign-confused input (and unknown PIDs) with the
 *   documented errno, and leaves the whole state as it was.
 * - A score written at run time reaches the scheduler core's score view
 *   (/sys/kernel/debug/sched/ipcc/scores) through the same path as a
 *   hardware table update, a score of 0 included; so does a new class
 *   count.
 * - The emulated class of a task becomes its scheduler class (shown in
 *   /proc/PID/sched) and is inherited by fork.
 *
 * Every test is skipped when the kernel was not booted with ipcc_emu=.
 * Scores and the class count are restored at the end of each test.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "ipcc_util.h"

#define EMU_DIR		"/sys/kernel/debug/ipcc_emu"
#define CORE_SCORES	"/sys/kernel/debug/sched/ipcc/scores"
#define IPCC_SYSCTL	"/proc/sys/kernel/sched_ipcc"
#define BUF_SIZE	16384
#define POLL_MS		50
/* The core rebuilds its score cache from a work item. */
#define SCORE_WAIT_MS	1000
/* Debounce is a few ticks of the task; leave room for a slow guest. */
#define CLASS_WAIT_MS	3000

static const char * const emu_files[] = {
	"profile", "pcpus", "ecpus", "offline_cpus", "scores", "nr_classes",
	"task_class",
};

/* One write() of @len bytes; return 0 or -errno. */
static int write_raw(const char *path, const char *s, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;

	n = write(fd, s, len);
	if (n < 0)
		n = -errno;
	else if ((size_t)n != len)
		n = -EIO;
	close(fd);
	return n < 0 ? n : 0;
}

static int emu_write(const char *file, const char *s)
{
	char path[128];

	snprintf(path, sizeof(path), EMU_DIR "/%s", file);
	return write_text(path, s);
}

static int emu_read(const char *file, char *buf, size_t size)
{
	char path[128];

	snprintf(path, sizeof(path), EMU_DIR "/%s", file);
	return read_text(path, buf, size);
}

/* Everything the emulation shows, as one string. */
static void snapshot(char *buf, size_t size)
{
	size_t len = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(emu_files); i++) {
		char one[BUF_SIZE];

		if (emu_read(emu_files[i], one, sizeof(one)) < 0)
			snprintf(one, sizeof(one), "<unreadable>\n");
		len += snprintf(buf + len, size - len, "[%s]\n%s", emu_files[i],
				one);
		if (len >= size)
			break;
	}
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static bool cpu_online(int cpu)
{
	char path[128], buf[16];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	if (read_text(path, buf, sizeof(buf)) < 0)
		return cpu == 0;

	return buf[0] == '1';
}

/* The first CPU of cpulist @s, or -1. */
static int first_cpu(const char *s)
{
	return *s >= '0' && *s <= '9' ? atoi(s) : -1;
}

/* The value of the "KEY VALUE" line @key of @text, up to the newline. */
static bool find_key(const char *text, const char *key, char *val,
		     size_t size)
{
	size_t n = strlen(key);
	const char *l = text;

	while (l && *l) {
		if (!strncmp(l, key, n) && l[n] == ' ') {
			const char *end = strchr(l + n + 1, '\n');
			size_t len = end ? (size_t)(end - l - n - 1) :
					   strlen(l + n + 1);

			if (len >= size)
				return false;
			memcpy(val, l + n + 1, len);
			val[len] = '\0';
			return true;
		}
		l = strchr(l, '\n');
		if (l)
			l++;
	}

	return false;
}

/*
 * The "perf/eff" entry of @class for @cpu in the core's scores file, into
 * @out. Return 0, or -1 when the CPU or class is not shown.
 */
static int core_score(const char *text, int cpu, int class, char *out,
		      size_t size)
{
	char copy[BUF_SIZE], *line, *save;

	snprintf(copy, sizeof(copy), "%s", text);
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *tok, *save2;
		int col = -1;

		tok = strtok_r(line, " ", &save2);
		if (!tok || strcmp(tok, "cpu") == 0 || atoi(tok) != cpu ||
		    *tok < '0' || *tok > '9')
			continue;

		while ((tok = strtok_r(NULL, " ", &save2))) {
			if (++col == class) {
				snprintf(out, size, "%s", tok);
				return 0;
			}
		}
		return -1;
	}

	return -1;
}

/* Wait until every CPU of @cpus shows @want for @class in the core's file. */
static bool wait_core_scores(const char *cpus, int class, const char *want,
			     char *last, size_t size)
{
	int waited;

	for (waited = 0; waited <= SCORE_WAIT_MS; waited += POLL_MS) {
		char text[BUF_SIZE];
		const char *c = cpus;
		bool ok = true;

		if (read_text(CORE_SCORES, text, sizeof(text)) < 0)
			return false;

		/* @cpus is a cpulist: walk its numbers and ranges. */
		while (ok && *c >= '0' && *c <= '9') {
			char *end;
			long a = strtol(c, &end, 10), b = a;

			if (*end == '-')
				b = strtol(end + 1, &end, 10);
			for (; a <= b && ok; a++) {
				if (!cpu_online(a))
					continue;
				if (core_score(text, a, class, last, size) ||
				    strcmp(last, want))
					ok = false;
			}
			c = *end == ',' ? end + 1 : end;
		}
		if (ok)
			return true;
		sleep_ms(POLL_MS);
	}

	return false;
}

/* The "ipcc.class" value of /proc/PID/sched, or -2 when absent. */
static long proc_class(pid_t pid)
{
	char path[64], text[BUF_SIZE], *l;

	snprintf(path, sizeof(path), "/proc/%d/sched", pid);
	if (read_text(path, text, sizeof(text)) < 0)
		return -2;

	for (l = text; l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (!strncmp(l, "ipcc.class", 10) && (l[10] == ' ' || l[10] == ':')) {
			l = strchr(l, ':');
			return l ? strtol(l + 1, NULL, 10) : -2;
		}
	}

	return -2;
}

/*
 * Whether the task_class listing has the line "PID CLASS", or any line of
 * PID when @class is negative.
 */
static bool listed(pid_t pid, int class)
{
	char text[BUF_SIZE], want[64], *l;

	if (emu_read("task_class", text, sizeof(text)) < 0)
		return false;

	if (class < 0)
		snprintf(want, sizeof(want), "%d ", pid);
	else
		snprintf(want, sizeof(want), "%d %d\n", pid, class);

	for (l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (!strncmp(l, want, strlen(want)))
			return true;
	}

	return false;
}

static pid_t spawn_busy(void)
{
	pid_t pid = fork();

	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* Spin in user mode: the class is read on user ticks. */
		for (;;)
			__asm__ __volatile__("" ::: "memory");
	}

	return pid;
}

static void reap(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

FIXTURE(emu) {
	char nr_classes[32];
	char scores[BUF_SIZE];
	int nr;
};

FIXTURE_SETUP(emu)
{
	if (access(EMU_DIR "/profile", F_OK))
		SKIP(return, "no emulated hybrid CPU (boot with ipcc_emu=)");

	ASSERT_LT(0, emu_read("nr_classes", self->nr_classes,
			      sizeof(self->nr_classes)));
	ASSERT_LT(0, emu_read("scores", self->scores, sizeof(self->scores)));
	self->nr = atoi(self->nr_classes);
	ASSERT_GE(self->nr, 1);
}

FIXTURE_TEARDOWN(emu)
{
	char *line, *save;
	char copy[BUF_SIZE];

	if (!self->nr)
		return;

	/* The class count first: it bounds the classes of the scores. */
	EXPECT_EQ(0, emu_write("nr_classes", self->nr_classes));
	snprintf(copy, sizeof(copy), "%s", self->scores);
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		EXPECT_EQ(0, emu_write("scores", line));
}

struct bad_input {
	const char *file;
	char input[640];
	size_t len;		/* 0: strlen(input) */
	int err;
	const char *what;
};

static void add_bad(struct bad_input *t, int *n, const char *file,
		    const char *input, int err, const char *what)
{
	t[*n].file = file;
	snprintf(t[*n].input, sizeof(t[*n].input), "%s", input);
	t[*n].len = 0;
	t[*n].err = err;
	t[*n].what = what;
	(*n)++;
}

/* A PID that names no task now. */
static pid_t unused_pid(void)
{
	char buf[32];
	pid_t pid = 4194303;

	if (read_text("/proc/sys/kernel/pid_max", buf, sizeof(buf)) > 0)
		pid = atoi(buf) - 1;
	while (pid > 300 && (kill(pid, 0) == 0 || errno != ESRCH))
		pid--;

	return pid;
}

TEST_F(emu, bad_input_is_refused)
{
	static struct bad_input t[128];
	char before[BUF_SIZE * 2], after[BUF_SIZE * 2];
	char s[640], pcpus[256], ecpus[256], offline[256], profile[BUF_SIZE];
	char zeros[600];
	pid_t self_pid = getpid();
	int n = 0, i, off_cpu = -1;

	memset(zeros, '0', sizeof(zeros) - 1);
	zeros[sizeof(zeros) - 1] = '\0';

	ASSERT_LT(0, emu_read("profile", profile, sizeof(profile)));
	ASSERT_TRUE(find_key(profile, "pcpus", pcpus, sizeof(pcpus)));
	ASSERT_TRUE(find_key(profile, "ecpus", ecpus, sizeof(ecpus)));
	if (!find_key(profile, "offline", offline, sizeof(offline)))
		offline[0] = '\0';

	/* nr_classes: 1..16, decimal only. */
	add_bad(t, &n, "nr_classes", "\n", EINVAL, "empty");
	add_bad(t, &n, "nr_classes", "0", EINVAL, "zero");
	add_bad(t, &n, "nr_classes", "17", EINVAL, "above IPCC_MAX_CLASSES");
	add_bad(t, &n, "nr_classes", "-1", EINVAL, "negative");
	add_bad(t, &n, "nr_classes", "+4", EINVAL, "plus sign");
	add_bad(t, &n, "nr_classes", "0x4", EINVAL, "hex");
	add_bad(t, &n, "nr_classes", "4294967300", EINVAL, "u32 wrap");
	add_bad(t, &n, "nr_classes", "18446744073709551620", EINVAL,
		"u64 wrap");
	add_bad(t, &n, "nr_classes", "4 4", EINVAL, "two values");
	add_bad(t, &n, "nr_classes", " 4", EINVAL, "leading blank");
	add_bad(t, &n, "nr_classes", "4 ", EINVAL, "trailing blank");
	add_bad(t, &n, "nr_classes", "4x", EINVAL, "trailing garbage");
	add_bad(t, &n, "nr_classes", "4\n\n", EINVAL, "two newlines");
	snprintf(s, sizeof(s), "%.100s4", zeros);
	add_bad(t, &n, "nr_classes", s, EINVAL, "overlong");
	add_bad(t, &n, "nr_classes", "4", EINVAL, "embedded NUL");
	t[n - 1].len = 2;

	/* scores: "P|E CLASS PERF EFF". */
	add_bad(t, &n, "scores", "\n", EINVAL, "empty");
	add_bad(t, &n, "scores", "P 0 255", EINVAL, "three fields");
	add_bad(t, &n, "scores", "P 0 255 255 1", EINVAL, "five fields");
	add_bad(t, &n, "scores", "X 0 1 1", EINVAL, "unknown type");
	add_bad(t, &n, "scores", "p 0 1 1", EINVAL, "lower-case type");
	add_bad(t, &n, "scores", "PE 0 1 1", EINVAL, "long type");
	snprintf(s, sizeof(s), "P %d 1 1", self->nr);
	add_bad(t, &n, "scores", s, EINVAL, "class == nr_classes");
	add_bad(t, &n, "scores", "P 16 1 1", EINVAL, "class 16");
	add_bad(t, &n, "scores", "P -1 1 1", EINVAL, "negative class");
	add_bad(t, &n, "scores", "P 0 256 1", EINVAL, "perf 256");
	add_bad(t, &n, "scores", "P 0 1 256", EINVAL, "eff 256");
	add_bad(t, &n, "scores", "P 0 -1 1", EINVAL, "negative perf");
	add_bad(t, &n, "scores", "E 0 1 -1", EINVAL, "negative eff");
	add_bad(t, &n, "scores", "P 0 +1 1", EINVAL, "plus sign");
	add_bad(t, &n, "scores", "P 0 0x10 1", EINVAL, "hex");
	add_bad(t, &n, "scores", "P 0 4294967551 1", EINVAL, "u32 wrap");
	add_bad(t, &n, "scores", " P 0 1 1", EINVAL, "leading blank");
	add_bad(t, &n, "scores", "P 0 1 1x", EINVAL, "trailing garbage");
	snprintf(s, sizeof(s), "P 0 %.100s1 1", zeros);
	add_bad(t, &n, "scores", s, EINVAL, "overlong");

	/* task_class: "PID CLASS", CLASS -1 clears. */
	add_bad(t, &n, "task_class", "\n", EINVAL, "empty");
	snprintf(s, sizeof(s), "%d", self_pid);
	add_bad(t, &n, "task_class", s, EINVAL, "no class");
	snprintf(s, sizeof(s), "%d 1 1", self_pid);
	add_bad(t, &n, "task_class", s, EINVAL, "three fields");
	add_bad(t, &n, "task_class", "0 1", EINVAL, "PID 0");
	add_bad(t, &n, "task_class", "-1 1", EINVAL, "negative PID");
	add_bad(t, &n, "task_class", "4294967297 1", EINVAL, "PID wrap");
	add_bad(t, &n, "task_class", "2147483648 1", EINVAL, "PID > INT_MAX");
	snprintf(s, sizeof(s), "+%d 1", self_pid);
	add_bad(t, &n, "task_class", s, EINVAL, "plus-signed PID");
	snprintf(s, sizeof(s), "%d %d", self_pid, self->nr);
	add_bad(t, &n, "task_class", s, EINVAL, "class == nr_classes");
	snprintf(s, sizeof(s), "%d -2", self_pid);
	add_bad(t, &n, "task_class", s, EINVAL, "class -2");
	snprintf(s, sizeof(s), "%d 255", self_pid);
	add_bad(t, &n, "task_class", s, EINVAL, "class 255 (none)");
	snprintf(s, sizeof(s), "%d 4294967295", self_pid);
	add_bad(t, &n, "task_class", s, EINVAL, "class -1 as unsigned");
	snprintf(s, sizeof(s), "%d +1", self_pid);
	add_bad(t, &n, "task_class", s, EINVAL, "plus-signed class");
	snprintf(s, sizeof(s), "%d 0x1", self_pid);
	add_bad(t, &n, "task_class", s, EINVAL, "hex class");
	snprintf(s, sizeof(s), "%.100s%d 1", zeros, self_pid);
	add_bad(t, &n, "task_class", s, EINVAL, "overlong");
	snprintf(s, sizeof(s), "%d 1", unused_pid());
	add_bad(t, &n, "task_class", s, ESRCH, "unknown PID");
	if (read_text("/proc/2/comm", s, sizeof(s)) > 0 &&
	    !strcmp(s, "kthreadd\n"))
		add_bad(t, &n, "task_class", "2 1", EINVAL, "kernel thread");

	/* pcpus and ecpus: non-empty cpulists of online, disjoint CPUs. */
	add_bad(t, &n, "pcpus", "\n", EINVAL, "empty");
	add_bad(t, &n, "pcpus", "abc", EINVAL, "not a list");
	add_bad(t, &n, "pcpus", "0-", EINVAL, "open range");
	add_bad(t, &n, "pcpus", "3-1", EINVAL, "reversed range");
	add_bad(t, &n, "pcpus", "-1", EINVAL, "negative CPU");
	add_bad(t, &n, "pcpus", "0 1", EINVAL, "blank inside");
	add_bad(t, &n, "pcpus", "N", EINVAL, "N");
	add_bad(t, &n, "pcpus", "100000", EINVAL, "impossible CPU");
	add_bad(t, &n, "pcpus", ecpus, EINVAL, "the E-core list");
	add_bad(t, &n, "ecpus", pcpus, EINVAL, "the P-core list");
	snprintf(s, sizeof(s), "%s,%d", pcpus, first_cpu(ecpus));
	add_bad(t, &n, "pcpus", s, EINVAL, "overlaps the E-cores");
	off_cpu = first_cpu(offline);
	if (off_cpu >= 0 && !cpu_online(off_cpu)) {
		snprintf(s, sizeof(s), "%s,%d", ecpus, off_cpu);
		add_bad(t, &n, "ecpus", s, EINVAL, "offline CPU");
	}
	s[0] = '\0';
	for (i = 0; i < 300; i++)
		strcat(s, "0,");
	strcat(s, "0");
	add_bad(t, &n, "pcpus", s, EINVAL, "overlong");

	ASSERT_LT(n, (int)ARRAY_SIZE(t));

	for (i = 0; i < n; i++) {
		char path[128];
		size_t len = t[i].len ? t[i].len : strlen(t[i].input);
		int ret;

		snprintf(path, sizeof(path), EMU_DIR "/%s", t[i].file);
		snapshot(before, sizeof(before));
		ret = write_raw(path, t[i].input, len);
		snapshot(after, sizeof(after));

		EXPECT_EQ(-t[i].err, ret) {
			TH_LOG("%s: %s (\"%.40s\"): got %d", t[i].file,
			       t[i].what, t[i].input, ret);
		}
		EXPECT_STREQ(before, after) {
			TH_LOG("%s: %s changed the state", t[i].file, t[i].what);
		}
	}
}

TEST_F(emu, good_input_is_taken)
{
	char s[BUF_SIZE], back[BUF_SIZE], pcpus[256];
	int nr = self->nr > 1 ? self->nr - 1 : 2;

	/* Same class count, newline or not. */
	snprintf(s, sizeof(s), "%d\n", nr);
	ASSERT_EQ(0, emu_write("nr_classes", s));
	ASSERT_LT(0, emu_read("nr_classes", back, sizeof(back)));
	EXPECT_EQ(nr, atoi(back));
	ASSERT_EQ(0, emu_write("nr_classes", self->nr_classes));

	/* A score, read back from the emulation's own file. */
	ASSERT_EQ(0, emu_write("scores", "E 0 17 42\n"));
	ASSERT_LT(0, emu_read("scores", back, sizeof(back)));
	EXPECT_NE(NULL, strstr(back, "E 0 17 42\n"));

	/* Re-applying the same P-core list changes nothing. */
	ASSERT_LT(0, emu_read("pcpus", pcpus, sizeof(pcpus)));
	ASSERT_LT(0, emu_read("profile", s, sizeof(s)));
	ASSERT_EQ(0, emu_write("pcpus", pcpus));
	ASSERT_LT(0, emu_read("profile", back, sizeof(back)));
	EXPECT_STREQ(s, back);
}

TEST_F(emu, score_change_reaches_the_core)
{
	char text[BUF_SIZE], pcpus[256], ecpus[256], last[64], e_want[64];
	int e_perf = -1, e_eff = -1, n;
	const char *l;

	if (access(CORE_SCORES, F_OK))
		SKIP(return, "no " CORE_SCORES);

	ASSERT_LT(0, emu_read("profile", text, sizeof(text)));
	ASSERT_TRUE(find_key(text, "pcpus", pcpus, sizeof(pcpus)));
	ASSERT_TRUE(find_key(text, "ecpus", ecpus, sizeof(ecpus)));

	l = strstr(self->scores, "E 0 ");
	ASSERT_NE(NULL, l);
	n = sscanf(l, "E 0 %d %d", &e_perf, &e_eff);
	ASSERT_EQ(2, n);
	snprintf(e_want, sizeof(e_want), "%d/%d", e_perf, e_eff);

	ASSERT_EQ(0, emu_write("scores", "P 0 200 77"));
	EXPECT_TRUE(wait_core_scores(pcpus, 0, "200/77", last, sizeof(last))) {
		TH_LOG("P-core class 0: %s, want 200/77", last);
	}
	EXPECT_TRUE(wait_core_scores(ecpus, 0, e_want, last, sizeof(last))) {
		TH_LOG("E-core class 0: %s, want %s (unchanged)", last, e_want);
	}

	/* 0 is the hardware asking not to use the CPU: a valid score. */
	ASSERT_EQ(0, emu_write("scores", "P 0 0 0"));
	EXPECT_TRUE(wait_core_scores(pcpus, 0, "0/0", last, sizeof(last))) {
		TH_LOG("P-core class 0: %s, want 0/0", last);
	}
}

TEST_F(emu, class_count_reaches_the_core)
{
	char text[BUF_SIZE], want[256];
	int waited, nr = self->nr == 2 ? 3 : 2, c;

	if (access(CORE_SCORES, F_OK))
		SKIP(return, "no " CORE_SCORES);

	snprintf(want, sizeof(want), "cpu");
	for (c = 0; c < nr; c++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want),
			 " class%d", c);
	strcat(want, "\n");

	ASSERT_EQ(0, emu_write("nr_classes", nr == 2 ? "2" : "3"));
	for (waited = 0; waited <= SCORE_WAIT_MS; waited += POLL_MS) {
		ASSERT_LT(0, read_text(CORE_SCORES, text, sizeof(text)));
		if (!strncmp(text, want, strlen(want)))
			break;
		sleep_ms(POLL_MS);
	}
	EXPECT_EQ(0, strncmp(text, want, strlen(want))) {
		TH_LOG("core header \"%.60s\", want \"%s\"", text, want);
	}
}

TEST_F(emu, emulated_class_becomes_task_class)
{
	char mode[16];
	pid_t child;
	long class = -2;
	int waited;
	char s[64];

	if (read_text(IPCC_SYSCTL, mode, sizeof(mode)) <= 0)
		SKIP(return, "no " IPCC_SYSCTL);
	if (atoi(mode) == 0)
		SKIP(return, "kernel.sched_ipcc is 0");
	if (self->nr < 2)
		SKIP(return, "fewer than 2 classes");

	child = spawn_busy();
	ASSERT_GT(child, 0);

	snprintf(s, sizeof(s), "%d 1", child);
	EXPECT_EQ(0, emu_write("task_class", s));
	EXPECT_TRUE(listed(child, 1));

	for (waited = 0; waited <= CLASS_WAIT_MS; waited += POLL_MS) {
		class = proc_class(child);
		if (class == 1)
			break;
		sleep_ms(POLL_MS);
	}
	EXPECT_EQ(1, class) {
		TH_LOG("/proc/%d/sched ipcc.class is %ld after %d ms", child,
		       class, CLASS_WAIT_MS);
	}

	snprintf(s, sizeof(s), "%d -1", child);
	EXPECT_EQ(0, emu_write("task_class", s));
	EXPECT_FALSE(listed(child, -1));

	reap(child);
}

TEST_F(emu, emulated_class_is_inherited)
{
	pid_t me = getpid(), child;
	int pipefd[2];
	char s[64], c;

	if (self->nr < 3)
		SKIP(return, "fewer than 3 classes");

	snprintf(s, sizeof(s), "%d 2", me);
	ASSERT_EQ(0, emu_write("task_class", s));
	ASSERT_TRUE(listed(me, 2));

	ASSERT_EQ(0, pipe(pipefd));
	child = fork();
	if (!child) {
		close(pipefd[1]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* Until the parent closes its end. */
		if (read(pipefd[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(pipefd[0]);
	ASSERT_GT(child, 0);

	EXPECT_TRUE(listed(child, 2)) {
		TH_LOG("the child of a class-2 task is not of class 2");
	}

	snprintf(s, sizeof(s), "%d -1", me);
	EXPECT_EQ(0, emu_write("task_class", s));
	snprintf(s, sizeof(s), "%d -1", child);
	EXPECT_EQ(0, emu_write("task_class", s));
	EXPECT_FALSE(listed(me, -1));
	EXPECT_FALSE(listed(child, -1));

	close(pipefd[1]);
	waitpid(child, NULL, 0);
}

/* Whether /proc/cpuinfo lists @flag for the first CPU. */
static bool cpu_has_flag(const char *flag)
{
	char line[4096];
	bool found = false;
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *tok, *save;

		if (strncmp(line, "flags", 5))
			continue;
		for (tok = strtok_r(line + 5, " :\t\n", &save); tok;
		     tok = strtok_r(NULL, " \t\n", &save))
			if (!strcmp(tok, flag))
				found = true;
		break;
	}
	fclose(f);
	return found;
}

/*
 * Without Thread Director (QEMU has none) the hardware backend stays out
 * of the way: no debugfs directory, not a line in the kernel log, and
 * the emulation (when booted with it) still owns the classes.
 */
TEST(itd_backend_silent_without_itd)
{
	static char log[1 << 20];
	int n;

	if (cpu_has_flag("itd"))
		SKIP(return, "this CPU has Thread Director");

	EXPECT_NE(0, access("/sys/kernel/debug/ipcc_itd", F_OK));
	EXPECT_EQ(ENOENT, errno);

	n = klogctl(3, log, sizeof(log) - 1);	/* SYSLOG_ACTION_READ_ALL */
	ASSERT_GE(n, 0) {
		TH_LOG("cannot read the kernel log: %s", strerror(errno));
	}
	log[n] = 0;
	EXPECT_EQ(NULL, strstr(log, "ipcc_itd")) {
		TH_LOG("%s", strstr(log, "ipcc_itd"));
	}

	/* The emulation, when on, is the backend the core reads. */
	if (access(EMU_DIR "/nr_classes", F_OK) == 0 &&
	    access(CORE_SCORES, F_OK) == 0) {
		char buf[64], text[BUF_SIZE], *p, *eol;
		int classes = 0;

		ASSERT_LT(0, read_text(EMU_DIR "/nr_classes", buf,
				       sizeof(buf)));
		ASSERT_LT(0, read_text(CORE_SCORES, text, sizeof(text)));
		eol = strchr(text, '\n');
		if (eol)
			*eol = 0;
		for (p = text; (p = strstr(p, " class")); p++)
			classes++;
		EXPECT_EQ(atoi(buf), classes);
	}
}

TEST_HARNESS_MAIN
