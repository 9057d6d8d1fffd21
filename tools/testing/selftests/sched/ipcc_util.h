/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small file helpers shared by the ipcc selftests: whole-file reads, single
 * write() calls (so that a knob's errno reaches the test unchanged),
 * cpulist parsing and the CPU capacities intel_pstate logged.
 */
#ifndef IPCC_UTIL_H
#define IPCC_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/klog.h>
#include <sys/types.h>
#include <string.h>
#include <unistd.h>

#ifndef MAX_CPUS
#define MAX_CPUS	1024
#endif

/* Read @path into @buf (NUL-terminated); return its length or -errno. */
static inline int read_text(const char *path, char *buf, size_t size)
{
	ssize_t n, len = 0;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;

	while ((size_t)len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (!n)
			break;
		len += n;
	}
	buf[len] = '\0';
	close(fd);
	return len;
}

/*
 * Read x86's ITMT switch into @buf as "0" or "1": a sysctl in 6.12, a
 * debugfs boolean ("N"/"Y") in later kernels (7.3). Either exists only
 * while ITMT is supported.
 */
static inline int read_itmt_enabled(char *buf, size_t size)
{
	int ret = read_text("/proc/sys/kernel/sched_itmt_enabled", buf, size);

	if (ret >= 0)
		return ret;
	ret = read_text("/sys/kernel/debug/x86/sched_itmt_enabled", buf, size);
	if (ret > 0 && (buf[0] == 'Y' || buf[0] == 'N')) {
		buf[0] = buf[0] == 'Y' ? '1' : '0';
		buf[1] = '\0';
		ret = 1;
	}
	return ret;
}

/* One write() of @s; return 0, -errno, or -EIO for a short write. */
static inline int write_text(const char *path, const char *s)
{
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;

	n = write(fd, s, strlen(s));
	if (n < 0)
		n = -errno;
	else if ((size_t)n != strlen(s))
		n = -EIO;
	close(fd);
	return n < 0 ? n : 0;
}

/* "0-3,5,7-8" (or an empty string) into @set; -1 when malformed. */
static inline int parse_cpulist(const char *s, cpu_set_t *set)
{
	CPU_ZERO(set);

	while (*s && *s != '\n') {
		char *end;
		long a, b;

		a = strtol(s, &end, 10);
		if (end == s || a < 0 || a >= MAX_CPUS)
			return -1;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a || b >= MAX_CPUS)
				return -1;
			s = end;
		}
		for (; a <= b; a++)
			CPU_SET(a, set);
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -1;
	}

	return 0;
}

#define TRACING		"/sys/kernel/tracing"

/*
 * Write @val to the tracefs file @name, truncating it first; 0 or -errno.
 * ftrace's list files may take a list in several write()s.
 */
static inline int trace_set(const char *name, const char *val)
{
	size_t len = strlen(val), done = 0;
	char path[128];
	int fd;

	snprintf(path, sizeof(path), TRACING "/%s", name);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -errno;
	while (done < len) {
		ssize_t n = write(fd, val + done, len - done);

		if (n <= 0) {
			n = n < 0 ? -errno : -EIO;
			close(fd);
			return n;
		}
		done += n;
	}
	close(fd);
	return 0;
}

/* The CPU a task last ran on: field 39 of /proc/PID/stat. */
static inline int task_cpu(pid_t pid)
{
	char path[64], buf[1024], *p;
	int field;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_text(path, buf, sizeof(buf)) < 0)
		return -1;

	/* Field 2 (comm) may hold blanks: count from its closing paren. */
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	for (field = 2; field < 39; field++) {
		p = strchr(p + 1, ' ');
		if (!p)
			return -1;
	}

	return atoi(p + 1);
}

/* The kernel log buffer as it is now (NUL-terminated), or NULL. */
static inline const char *klog_read(void)
{
	static char log[1 << 20];
	int len = klogctl(3, log, sizeof(log) - 1);

	if (len < 0)
		return NULL;
	log[len] = '\0';
	return log;
}

/*
 * The capacities intel_pstate gave the CPUs, into @cap[0..@n) (-1 where
 * none was logged); returns how many were found. x86 has no
 * cpu_capacity file: with intel_pstate.dyndbg=+p on the command line,
 * intel_pstate logs each CPU's HWP highest performance and the highest
 * of all CPUs, and the capacity is their ratio on the 1024 scale, as
 * arch_set_cpu_capacity() computes it. A CPU's last line counts. 6.12
 * logs "CPU<n>: perf = <p>, max. perf = <max>", 7.3 "CPU<n>: capacity
 * perf = <p>, base perf = <b>, sys max perf = <max>".
 */
static inline int klog_capacities(long *cap, int n)
{
	const char *log = klog_read();
	unsigned int perf, max;
	int cpu, found = 0;
	const char *p;

	for (cpu = 0; cpu < n; cpu++)
		cap[cpu] = -1;
	if (!log)
		return 0;
	for (p = log; (p = strstr(p, "intel_pstate: CPU")); p++) {
		if (sscanf(p, "intel_pstate: CPU%d: perf = %u, max. perf = %u",
			   &cpu, &perf, &max) != 3 &&
		    sscanf(p, "intel_pstate: CPU%d: capacity perf = %u, %*[^,], sys max perf = %u",
			   &cpu, &perf, &max) != 3)
			continue;
		if (cpu < 0 || cpu >= n || !max)
			continue;
		if (cap[cpu] < 0)
			found++;
		cap[cpu] = perf * 1024L / max;
	}
	return found;
}

#endif /* IPCC_UTIL_H */
