/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A QMP client for the selftests that run on the emulated hybrid parts.
 *
 * The test harness connects the guest's third serial port (/dev/ttyS2)
 * to a QMP monitor of the QEMU that runs the guest, so that a test can
 * ask the emulated hardware what it did (x-query-hybrid: HRESETs, class
 * reads, HFI rows) and change what the hardware reports
 * (x-hybrid-set-hfi). Without that port, or on QEMU without the hybrid
 * model, qmp_open() fails and the tests skip.
 *
 * Replies are single-line JSON objects; the helpers below pick the few
 * fields the tests need without a JSON parser.
 */
#ifndef IPCC_QMP_H
#define IPCC_QMP_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define QMP_PORT	"/dev/ttyS2"
#define QMP_REPLY_MAX	65536
#define QMP_MAX_CPUS	64
#define QMP_CLASSES	4

/* What x-query-hybrid says of one vCPU. */
struct qmp_cpu {
	int cpu_index;
	int apic_id;
	char type[4];		/* "p", "e" or "lp" */
	long perf[QMP_CLASSES];
	long eff[QMP_CLASSES];
	long hresets;
	long class_reads;
	long classes[QMP_CLASSES + 1];	/* last: reads that were not valid */
	long hfi_updates;
	long flips;
	char model[16];
};

static int qmp_fd = -1;
static char qmp_buf[QMP_REPLY_MAX];

static inline long qmp_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Read one line (without its newline) into qmp_buf; -1 after @ms. */
static inline int qmp_read_line(int ms)
{
	long end = qmp_now_ms() + ms;
	size_t len = 0;

	for (;;) {
		struct pollfd p = { .fd = qmp_fd, .events = POLLIN };
		long left = end - qmp_now_ms();
		char c;

		if (left <= 0 || poll(&p, 1, left) <= 0)
			return -1;
		if (read(qmp_fd, &c, 1) != 1)
			return -1;
		if (c == '\r')
			continue;
		if (c == '\n') {
			if (!len)
				continue;
			qmp_buf[len] = '\0';
			return len;
		}
		if (len < sizeof(qmp_buf) - 1)
			qmp_buf[len++] = c;
	}
}

static inline int qmp_write(const char *s)
{
	size_t len = strlen(s);

	return write(qmp_fd, s, len) == (ssize_t)len ? 0 : -EIO;
}

/*
 * Send @cmd (one JSON object, "{...}") with an "id" of its own and wait
 * for the reply carrying that id: 0 with the reply in qmp_buf for a
 * "return", -EINVAL for an "error" (its text in qmp_buf), -EIO when none
 * came. Greetings, events and replies to other input are skipped.
 */
static inline int qmp_cmd(const char *cmd)
{
	static unsigned int next_id = 1;
	char line[1024], tag[32];
	size_t len = strlen(cmd);

	if (qmp_fd < 0 || len < 2 || len > sizeof(line) - 32 || cmd[len - 1] != '}')
		return -EIO;
	snprintf(tag, sizeof(tag), "\"id\": %u", next_id);
	snprintf(line, sizeof(line), "%.*s,\"id\":%u}\n", (int)(len - 1), cmd,
		 next_id++);
	if (qmp_write(line))
		return -EIO;
	while (qmp_read_line(5000) > 0) {
		if (!strstr(qmp_buf, tag))
			continue;
		/* Members come in any order: {"id": N, "error": {...}}. */
		if (strstr(qmp_buf, "\"error\": {"))
			return -EINVAL;
		if (strstr(qmp_buf, "\"return\": "))
			return 0;
	}
	return -EIO;
}

/* Open the port and leave capabilities negotiation mode. */
static inline int qmp_open(void)
{
	struct termios t;

	if (qmp_fd >= 0)
		return 0;
	qmp_fd = open(QMP_PORT, O_RDWR | O_NOCTTY);
	if (qmp_fd < 0)
		return -errno;
	if (!tcgetattr(qmp_fd, &t)) {
		cfmakeraw(&t);
		cfsetspeed(&t, B115200);
		tcsetattr(qmp_fd, TCSANOW, &t);
	}
	tcflush(qmp_fd, TCIOFLUSH);
	/*
	 * Whatever reached the monitor before (the greeting echoed by a port
	 * that was not raw yet) may have left its JSON parser inside an
	 * object: close any, and drain the errors that follow.
	 */
	qmp_write("}}}}}}}}\n");
	while (qmp_read_line(300) > 0)
		;
	if (qmp_cmd("{\"execute\":\"qmp_capabilities\"}")) {
		/* Already negotiated by an earlier test binary? */
		if (qmp_cmd("{\"execute\":\"query-status\"}")) {
			close(qmp_fd);
			qmp_fd = -1;
			return -EIO;
		}
	}
	return 0;
}

/* The integer after "@key": in @s (before @end), or -1. */
static inline long qmp_int(const char *s, const char *end, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\": ", key);
	p = strstr(s, pat);
	if (!p || (end && p >= end))
		return -1;
	return strtol(p + strlen(pat), NULL, 10);
}

/* The string after "@key": into @out. */
static inline void qmp_str(const char *s, const char *end, const char *key,
			   char *out, size_t size)
{
	char pat[64];
	const char *p;
	size_t n = 0;

	out[0] = '\0';
	snprintf(pat, sizeof(pat), "\"%s\": \"", key);
	p = strstr(s, pat);
	if (!p || (end && p >= end))
		return;
	p += strlen(pat);
	while (*p && *p != '"' && n < size - 1)
		out[n++] = *p++;
	out[n] = '\0';
}

/* The @n integers of the array after "@key": into @out; 0 or -1. */
static inline int qmp_ints(const char *s, const char *end, const char *key,
			   long *out, int n)
{
	char pat[64];
	const char *p;
	int i;

	snprintf(pat, sizeof(pat), "\"%s\": [", key);
	p = strstr(s, pat);
	if (!p || (end && p >= end))
		return -1;
	p += strlen(pat);
	for (i = 0; i < n; i++) {
		char *e;

		out[i] = strtol(p, &e, 10);
		if (e == p)
			return -1;
		p = e;
		while (*p == ',' || *p == ' ')
			p++;
	}
	return 0;
}

/*
 * x-query-hybrid into @cpus; the count, or -errno. The reply is an array
 * of flat objects (their members hold arrays, no objects), in any key
 * order: each element runs from a '{' to the next '}'.
 */
static inline int qmp_query(struct qmp_cpu *cpus, int max)
{
	const char *p;
	int n = 0, ret;

	ret = qmp_cmd("{\"execute\":\"x-query-hybrid\"}");
	if (ret)
		return ret;
	p = strchr(qmp_buf, '[');
	while (p && (p = strchr(p, '{')) && n < max) {
		const char *end = strchr(p, '}');
		struct qmp_cpu *c = &cpus[n++];

		if (!end)
			return -EIO;
		c->cpu_index = qmp_int(p, end, "cpu-index");
		c->apic_id = qmp_int(p, end, "apic-id");
		qmp_str(p, end, "core-type", c->type, sizeof(c->type));
		qmp_ints(p, end, "perf", c->perf, QMP_CLASSES);
		qmp_ints(p, end, "eff", c->eff, QMP_CLASSES);
		c->hresets = qmp_int(p, end, "hresets");
		c->class_reads = qmp_int(p, end, "class-reads");
		qmp_ints(p, end, "classes", c->classes, QMP_CLASSES + 1);
		c->hfi_updates = qmp_int(p, end, "hfi-updates");
		c->flips = qmp_int(p, end, "flips");
		qmp_str(p, end, "itd-model", c->model, sizeof(c->model));
		p = end;
	}
	return n;
}

/* Linux CPU of each APIC ID (< @max), from /proc/cpuinfo; -1 where none. */
static inline void qmp_cpus_by_apic(int *cpu_of_apic, int max)
{
	static char buf[1 << 17];
	char *p = buf, *line;
	int cpu = -1, i, fd;
	ssize_t n, len = 0;

	for (i = 0; i < max; i++)
		cpu_of_apic[i] = -1;
	fd = open("/proc/cpuinfo", O_RDONLY);
	if (fd < 0)
		return;
	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	while ((line = strsep(&p, "\n")) != NULL) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		if (!strncmp(line, "processor", 9)) {
			cpu = atoi(colon + 1);
		} else if (!strncmp(line, "apicid", 6)) {
			int apic = atoi(colon + 1);

			if (apic >= 0 && apic < max)
				cpu_of_apic[apic] = cpu;
		}
	}
}

/*
 * The Linux CPUs whose core type the hardware reports as @type ("p", "e"
 * or "lp") into @set, and its Thread Director model into @model; the
 * number of hybrid vCPUs, or -errno without a hybrid part.
 */
static inline int qmp_type_cpus(const char *type, cpu_set_t *set,
				char *model, size_t model_size)
{
	static struct qmp_cpu cpus[QMP_MAX_CPUS];
	int apic[256], n, i;

	CPU_ZERO(set);
	if (qmp_open())
		return -EIO;
	n = qmp_query(cpus, QMP_MAX_CPUS);
	if (n <= 0)
		return n ? n : -ENODEV;
	qmp_cpus_by_apic(apic, 256);
	for (i = 0; i < n; i++) {
		int a = cpus[i].apic_id;

		if (!strcmp(cpus[i].type, type) && a >= 0 && a < 256 && apic[a] >= 0)
			CPU_SET(apic[a], set);
	}
	if (model)
		snprintf(model, model_size, "%s", cpus[0].model);
	return n;
}

#endif /* IPCC_QMP_H */
