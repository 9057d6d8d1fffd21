// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile input to every writable IPC class (IPCC) knob.
 *
 * The knobs: the sysctl kernel.sched_ipcc; debounce_ticks, override,
 * swap_threshold, misfit_threshold and cooldown_ms in
 * /sys/kernel/debug/sched/ipcc/. Each is a variant of the "knob" fixture,
 * tested for:
 *
 * - bad_input: a table of malformed, boundary, overflowing (2^32, 2^64,
 *   values that wrap to a valid one), non-ASCII, NUL-containing, blank
 *   variant, overlong, 1 MiB and unreadable-buffer writes. Each must fail
 *   with the errno the handler documents and change nothing at all (every
 *   knob and the target task's class are compared).
 * - good_boundary: the accepted extremes (min, max, longest write,
 *   blank variants the grammar allows) take effect; the value is restored.
 * - partial_write: pwrite() at an offset other than 0 (EINVAL for the
 *   sysctl, ESPIPE for the debugfs files, which are seq_files) and a
 *   second write() on the same open file (EINVAL) are refused; writev()
 *   of two values is one refused write for the sysctl and a short write
 *   of the first value for the debugfs files.
 * - concurrent_writes: threads hammer valid and invalid values while a
 *   reader checks every value it sees; in the end the knob holds one of
 *   the valid values written and reads back stably.
 * - unprivileged: a child with uid/gid 65534 and no capabilities can
 *   neither open the knob for writing nor write through a file root
 *   opened, nor chmod it, nor pin any task's class; 0600 files stay
 *   unreadable to it.
 *
 * read_only_files: sched/ipcc/scores and stats, which have no write
 * handler, refuse writes even from root and keep their 0444 modes.
 *
 * The override variant pins classes only when the kernel reports some
 * (the "classN" columns of sched/ipcc/scores) and kernel.sched_ipcc is on;
 * otherwise clearing a pin is the only valid write it tests.
 *
 * Needs root; skipped without CONFIG_SCHED_IPCC. Every value changed is
 * restored.
 *
 * Each test was shown failing on adl-hw, on kernels broken on purpose
 * (2026-12-04; the handlers are in kernel/sched/ipcc_debug.c), for the
 * variants named:
 *   bad_input         sysctl: without its strict parser; debounce_ticks:
 *                     taking 0; override: 0 for a PID with no task
 *   good_boundary     sysctl: maximum 1; swap_threshold: maximum 1023;
 *                     debounce_ticks: 255 refused; override: clearing
 *                     leaving the task pinned
 *   partial_write     debounce_ticks, misfit_threshold, cooldown_ms,
 *                     override: without the *ppos check; sysctl: without
 *                     it and without the strict parser
 *   concurrent_writes cooldown_ms: set through an invalid value held for
 *                     200 us
 *   unprivileged      debounce_ticks, swap_threshold, misfit_threshold,
 *                     cooldown_ms, override: without capable(); sysctl:
 *                     mode 0666 and without capable() (at 0644 the sysctl
 *                     core refuses the write before the handler)
 *   read_only_files   stats created 0644
 * A knob's setter checks its range again, so a knob table's wrong minimum
 * alone (debounce_ticks taking 0) passed: both had to be broken.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "ipcc_util.h"

#define DEBUGFS_MNT	"/sys/kernel/debug"
#define SYSCTL_DIR	"/proc/sys/kernel"
#define SYSCTL_PATH	SYSCTL_DIR "/sched_ipcc"
#define CORE_DIR	DEBUGFS_MNT "/sched/ipcc"

/* The overflow uid and gid: nobody. */
#define NOBODY		65534
#define HUGE_LEN	0x100000
#define TEXT_SIZE	16384
#define SNAP_SIZE	65536
#define IN_SIZE		640
/* A knob's value as read back or written whole. */
#define VAL_SIZE	128
#define MAX_ROWS	192
#define WRITERS		4

#define P32		"4294967296"
#define P64		"18446744073709551616"

enum knob_kind {
	K_UINT,		/* one decimal in min..max */
	K_OVERRIDE,	/* sched/ipcc/override: "PID CLASS" */
};

/* The state of one knob's test. */
struct knob_ctx {
	char path[128];
	char before[SNAP_SIZE];	/* every knob before the test */
	char cur[VAL_SIZE];	/* the knob's state, as knob_state() shows it */
	char v1[VAL_SIZE];	/* two valid values: writes ... */
	char v2[VAL_SIZE];
	char back1[VAL_SIZE];	/* ... and their knob_state() */
	char back2[VAL_SIZE];
	pid_t target;		/* the task the PID knobs are aimed at */
	int nr;			/* classes in the core */
	bool pin_ok;		/* whether override can pin at all */
};

FIXTURE(knob) {
	struct knob_ctx k;
};

/* One knob: where it is and what it takes. */
struct knob_def {
	const char *dir;
	const char *name;
	enum knob_kind kind;
	unsigned int min, max;	/* K_UINT */
	mode_t mode;		/* the mode the source gives the file */
	size_t max_len;		/* longest write taken, without newline */
	size_t max_len_nl;	/* longest write taken, newline included */
	bool iter;		/* write_iter (sysctl): writev() is one write */
	int pwrite_err;		/* pwrite() errno: ESPIPE for seq_files */
	int iters;		/* writes per thread in concurrent_writes */
};

FIXTURE_VARIANT(knob) {
	const struct knob_def *d;
};

/*
 * The sysctl is parsed twice: by the strict parser (32 bytes), then by
 * proc_dointvec_minmax(), which refuses numbers of 21 or more characters.
 */
static const struct knob_def def_sysctl = {
	.dir = SYSCTL_DIR, .name = "sched_ipcc", .kind = K_UINT,
	.min = 0, .max = 2, .mode = 0644, .max_len = 20, .max_len_nl = 21,
	.iter = true, .iters = 30,
	.pwrite_err = EINVAL,
};

FIXTURE_VARIANT_ADD(knob, sysctl) {
	.d = &def_sysctl,
};

static const struct knob_def def_debounce_ticks = {
	.dir = CORE_DIR, .name = "debounce_ticks", .kind = K_UINT,
	.min = 1, .max = 255, .mode = 0644, .max_len = 32, .max_len_nl = 32,
	.iters = 150,
	.pwrite_err = ESPIPE,
};

FIXTURE_VARIANT_ADD(knob, debounce_ticks) {
	.d = &def_debounce_ticks,
};

static const struct knob_def def_swap_threshold = {
	.dir = CORE_DIR, .name = "swap_threshold", .kind = K_UINT,
	.min = 0, .max = 1024, .mode = 0644, .max_len = 32, .max_len_nl = 32,
	.iters = 150,
	.pwrite_err = ESPIPE,
};

FIXTURE_VARIANT_ADD(knob, swap_threshold) {
	.d = &def_swap_threshold,
};

static const struct knob_def def_misfit_threshold = {
	.dir = CORE_DIR, .name = "misfit_threshold", .kind = K_UINT,
	.min = 0, .max = 1024, .mode = 0644, .max_len = 32, .max_len_nl = 32,
	.iters = 150,
	.pwrite_err = ESPIPE,
};

FIXTURE_VARIANT_ADD(knob, misfit_threshold) {
	.d = &def_misfit_threshold,
};

static const struct knob_def def_cooldown_ms = {
	.dir = CORE_DIR, .name = "cooldown_ms", .kind = K_UINT,
	.min = 0, .max = 1000, .mode = 0644, .max_len = 32, .max_len_nl = 32,
	.iters = 150,
	.pwrite_err = ESPIPE,
};

FIXTURE_VARIANT_ADD(knob, cooldown_ms) {
	.d = &def_cooldown_ms,
};

static const struct knob_def def_override = {
	.dir = CORE_DIR, .name = "override", .kind = K_OVERRIDE,
	.mode = 0600, .max_len = 32, .max_len_nl = 32, .iters = 150,
	.pwrite_err = ESPIPE,
};

FIXTURE_VARIANT_ADD(knob, override) {
	.d = &def_override,
};

/*
 * One table row: a write and the errno it must fail with. The bytes are
 * in @in, or at @buf when @use_buf (huge and unreadable buffers).
 */
struct row {
	char in[IN_SIZE];
	size_t len;
	const char *buf;
	bool use_buf;
	int err;
	char what[48];
};

static struct row rows[MAX_ROWS];
static int nrows;
static char huge[HUGE_LEN + 1];

/* Everything the knobs show, compared around every rejected write. */
static const char * const snap_files[] = {
	SYSCTL_PATH,
	CORE_DIR "/debounce_ticks", CORE_DIR "/swap_threshold",
	CORE_DIR "/misfit_threshold", CORE_DIR "/cooldown_ms",
	CORE_DIR "/override",
};

static void add_row(int err, const char *what, const char *fmt, ...)
{
	struct row *r = &rows[nrows];
	va_list ap;

	if (nrows == MAX_ROWS)
		return;
	va_start(ap, fmt);
	vsnprintf(r->in, sizeof(r->in), fmt, ap);
	va_end(ap);
	r->len = strlen(r->in);
	r->use_buf = false;
	r->err = err;
	snprintf(r->what, sizeof(r->what), "%s", what);
	nrows++;
}

/* A row of @len raw bytes, NULs included. */
static void add_bytes(int err, const char *what, const void *in, size_t len)
{
	struct row *r = &rows[nrows];

	if (nrows == MAX_ROWS || len > sizeof(r->in))
		return;
	memcpy(r->in, in, len);
	r->len = len;
	r->use_buf = false;
	r->err = err;
	snprintf(r->what, sizeof(r->what), "%s", what);
	nrows++;
}

/* A row writing @len bytes from @buf, which may be unmapped or NULL. */
static void add_buf(int err, const char *what, const char *buf, size_t len)
{
	struct row *r = &rows[nrows];

	if (nrows == MAX_ROWS)
		return;
	r->in[0] = '\0';
	r->buf = buf;
	r->len = len;
	r->use_buf = true;
	r->err = err;
	snprintf(r->what, sizeof(r->what), "%s", what);
	nrows++;
}

/* @big + @add in decimal, for numbers beyond 64 bits. */
static void dec_add(char *out, size_t size, const char *big,
		    unsigned long long add)
{
	char rev[64];
	int i, n = 0;

	for (i = strlen(big) - 1; (i >= 0 || add) && n < 63; i--) {
		unsigned long long d = add + (i >= 0 ? big[i] - '0' : 0);

		rev[n++] = '0' + d % 10;
		add = d / 10;
	}
	for (i = 0; i < n && (size_t)i < size - 1; i++)
		out[i] = rev[n - 1 - i];
	out[i] = '\0';
}

/*
 * @v with zeros inserted before its first digit, @total bytes in all
 * (a trailing newline when @nl), into @out (at least @total + 1 bytes).
 */
static void pad_value(char *out, const char *v, size_t total, bool nl)
{
	size_t len = strlen(v), d = strcspn(v, "0123456789");
	size_t body = nl ? total - 1 : total;
	size_t zeros = body > len ? body - len : 0;

	memcpy(out, v, d);
	memset(out + d, '0', zeros);
	memcpy(out + d + zeros, v + d, len - d);
	if (nl)
		out[d + zeros + len - d] = '\n';
	out[total > len ? total : len + nl] = '\0';
}

/* @in as a C string literal, cut to fit @out. */
static const char *show(const char *in, size_t len, char *out, size_t size)
{
	size_t i, n = 0;

	if (!in)
		return "(unmapped)";
	for (i = 0; i < len && n + 6 < size; i++) {
		unsigned char c = in[i];

		if (c == '\n')
			n += snprintf(out + n, size - n, "\\n");
		else if (c == '\t')
			n += snprintf(out + n, size - n, "\\t");
		else if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
			n += snprintf(out + n, size - n, "\\x%02x", c);
		else
			out[n++] = c;
	}
	out[n] = '\0';
	if (i < len)
		snprintf(out + n, size - n, "...(%zu bytes)", len);

	return out;
}

/* One write of @len bytes, at @off when not negative; 0 or -errno. */
static int put(const char *path, const void *buf, size_t len, off_t off)
{
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (off < 0)
		n = write(fd, buf, len);
	else
		n = pwrite(fd, buf, len, off);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	close(fd);

	return err;
}

static int put_str(const char *path, const char *s)
{
	return put(path, s, strlen(s), -1);
}

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && s[n - 1] == '\n')
		s[--n] = '\0';
}

/* In "KEY REST" lines, the REST of the first line starting with @key. */
static bool find_line(const char *text, const char *key, char *out,
		      size_t size)
{
	size_t n = strlen(key);
	const char *l = text;

	while (l && *l) {
		if (!strncmp(l, key, n)) {
			size_t len = strcspn(l + n, "\n");

			snprintf(out, size, "%.*s", (int)len, l + n);
			return true;
		}
		l = strchr(l, '\n');
		if (l)
			l++;
	}

	return false;
}

static long read_num(const char *path)
{
	char buf[64];

	if (read_text(path, buf, sizeof(buf)) <= 0)
		return -1;

	return strtol(buf, NULL, 10);
}

/* The "ipcc.*" lines of /proc/@pid/sched. */
static void proc_ipcc(pid_t pid, char *out, size_t size)
{
	char path[64], text[TEXT_SIZE], val[64];

	snprintf(path, sizeof(path), "/proc/%d/sched", pid);
	out[0] = '\0';
	if (read_text(path, text, sizeof(text)) < 0)
		return;
	if (find_line(text, "ipcc.class ", val, sizeof(val)))
		snprintf(out, size, "ipcc.class%s\n", val);
	if (find_line(text, "ipcc.overridden ", val, sizeof(val)))
		snprintf(out + strlen(out), size - strlen(out),
			 "ipcc.overridden%s\n", val);
}

/* Every knob and @pid's class, as one string. */
static void snapshot(pid_t pid, char *buf, size_t size)
{
	size_t len = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(snap_files) && len < size; i++) {
		char one[TEXT_SIZE];

		if (read_text(snap_files[i], one, sizeof(one)) < 0)
			snprintf(one, sizeof(one), "<absent>\n");
		len += snprintf(buf + len, size - len, "[%s]\n%s", snap_files[i],
				one);
	}
	if (pid > 0 && len < size)
		proc_ipcc(pid, buf + len, size - len);
}

/* The first line where @a and @b differ, for the log. */
static const char *first_diff(const char *a, const char *b, char *out,
			      size_t size)
{
	const char *la = a, *lb = b, *file = "";

	while (*la && *lb) {
		size_t na = strcspn(la, "\n"), nb = strcspn(lb, "\n");

		if (*la == '[')
			file = la;
		if (na != nb || strncmp(la, lb, na)) {
			snprintf(out, size, "%.*s: \"%.*s\" became \"%.*s\"",
				 (int)strcspn(file, "\n"), file, (int)na, la,
				 (int)nb, lb);
			return out;
		}
		la += na + (la[na] == '\n');
		lb += nb + (lb[nb] == '\n');
	}
	snprintf(out, size, "lengths differ");
	return out;
}

static void knob_state(struct knob_ctx *k,
		       const struct knob_def *d, char *out,
		       size_t size)
{
	char text[TEXT_SIZE], key[32];

	if (read_text(k->path, text, sizeof(text)) < 0) {
		snprintf(out, size, "<unreadable>");
		return;
	}

	switch (d->kind) {
	case K_UINT:
		chomp(text);
		snprintf(out, size, "%s", text);
		break;
	case K_OVERRIDE:
		snprintf(key, sizeof(key), "%d ", k->target);
		if (!find_line(text, key, out, size))
			snprintf(out, size, "-");
		break;
	}
}

/* Put the knob back to its state before the test. */
static void restore(struct knob_ctx *k,
		    const struct knob_def *d)
{
	char now[IN_SIZE], s[64];

	knob_state(k, d, now, sizeof(now));
	if (!strcmp(now, k->cur))
		return;

	switch (d->kind) {
	case K_UINT:
		put_str(k->path, k->cur);
		break;
	case K_OVERRIDE:
		snprintf(s, sizeof(s), "%d -1", k->target);
		put_str(k->path, s);
		break;
	}
}

/* Number of "classN" columns of the core's scores file. */
static int core_nr_classes(void)
{
	char text[TEXT_SIZE];
	const char *p;
	int nr = 0;

	if (read_text(CORE_DIR "/scores", text, sizeof(text)) < 0)
		return -1;
	text[strcspn(text, "\n")] = '\0';
	for (p = text; (p = strstr(p, " class")); p++)
		nr++;

	return nr;
}

static pid_t spawn_sleeper(void)
{
	pid_t pid = fork();

	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			pause();
	}

	return pid;
}

FIXTURE_SETUP(knob)
{
	struct knob_ctx *k = &self->k;
	const struct knob_def *d = variant->d;
	unsigned int c, a, b;
	char text[TEXT_SIZE];

	k->target = 0;
	k->nr = 0;
	if (geteuid())
		SKIP(return, "must run as root");
	if (access(SYSCTL_PATH, F_OK))
		SKIP(return, "no %s: no CONFIG_SCHED_IPCC", SYSCTL_PATH);
	if (access(CORE_DIR, F_OK))
		mount("debugfs", DEBUGFS_MNT, "debugfs", 0, NULL);
	if (access(CORE_DIR, F_OK))
		SKIP(return, "no %s: no CONFIG_DEBUG_FS", CORE_DIR);

	snprintf(k->path, sizeof(k->path), "%s/%s", d->dir, d->name);
	ASSERT_LE(0, read_text(k->path, text, sizeof(text)));
	k->nr = core_nr_classes();
	ASSERT_LE(0, k->nr);
	k->pin_ok = k->nr > 0 && read_num(SYSCTL_PATH) > 0;

	k->target = spawn_sleeper();
	ASSERT_LT(0, k->target);

	knob_state(k, d, k->cur, sizeof(k->cur));
	switch (d->kind) {
	case K_UINT:
		/* Two valid values other than the current one. */
		c = strtoul(k->cur, NULL, 10);
		a = c < d->max ? c + 1 : c - 1;
		b = d->max != c && d->max != a ? d->max :
		    d->min != c && d->min != a ? d->min :
		    (c + a) / 2;
		snprintf(k->v1, sizeof(k->v1), "%u", a);
		snprintf(k->v2, sizeof(k->v2), "%u", b);
		snprintf(k->back1, sizeof(k->back1), "%u", a);
		snprintf(k->back2, sizeof(k->back2), "%u", b);
		break;
	case K_OVERRIDE:
		c = k->pin_ok ? k->nr : 0;
		ASSERT_STREQ("-", k->cur);
		snprintf(k->v1, sizeof(k->v1), "%d %d", k->target,
			 c > 1 ? 1 : c ? 0 : -1);
		snprintf(k->v2, sizeof(k->v2), "%d %d", k->target,
			 c > 1 ? 0 : -1);
		snprintf(k->back1, sizeof(k->back1), "%s",
			 c > 1 ? "1" : c ? "0" : "-");
		snprintf(k->back2, sizeof(k->back2), "%s",
			 c > 1 ? "0" : "-");
		break;
	}
	snapshot(k->target, k->before, sizeof(k->before));
}

FIXTURE_TEARDOWN(knob)
{
	struct knob_ctx *k = &self->k;
	const struct knob_def *d = variant->d;
	char after[SNAP_SIZE], diff[256];

	if (k->target <= 0)
		return;
	restore(k, d);
	snapshot(k->target, after, sizeof(after));
	EXPECT_EQ(0, strcmp(k->before, after)) {
		TH_LOG("not restored: %s",
		       first_diff(k->before, after, diff, sizeof(diff)));
	}
	kill(k->target, SIGKILL);
	waitpid(k->target, NULL, 0);
}

/* Rows every knob gets; @v is a valid value other than the current. */
static void generic_rows(const struct knob_def *d, const char *v,
			 const char *fault)
{
	size_t len = strlen(v);
	char s[IN_SIZE];

	add_buf(EINVAL, "empty write", "", 0);
	add_row(EINVAL, "newline only", "\n");
	add_row(EINVAL, "blank only", " ");
	add_row(EINVAL, "leading blank", " %s", v);
	add_row(EINVAL, "trailing blank", "%s ", v);
	add_row(EINVAL, "leading tab", "\t%s", v);
	add_row(EINVAL, "trailing tab", "%s\t", v);
	add_row(EINVAL, "CR LF", "%s\r\n", v);
	add_row(EINVAL, "CR", "%s\r", v);
	add_row(EINVAL, "two newlines", "%s\n\n", v);
	add_row(EINVAL, "leading newline", "\n%s", v);
	add_row(EINVAL, "newline, blank", "%s\n ", v);
	add_row(EINVAL, "vertical tab", "%s\v", v);
	add_row(EINVAL, "form feed", "\f%s", v);
	add_row(EINVAL, "two values", "%s\n%s", v, v);

	add_bytes(EINVAL, "NUL only", "", 1);
	memcpy(s, v, len + 1);
	add_bytes(EINVAL, "trailing NUL", s, len + 1);
	s[len + 1] = '\n';
	add_bytes(EINVAL, "NUL, newline", s, len + 2);
	s[0] = '\0';
	memcpy(s + 1, v, len);
	add_bytes(EINVAL, "leading NUL", s, len + 1);
	memcpy(s, v, len);
	s[len] = '\0';
	memcpy(s + len + 1, v, len);
	add_bytes(EINVAL, "NUL between values", s, 2 * len + 1);

	add_row(EINVAL, "UTF-8 BOM", "\xef\xbb\xbf%s", v);
	add_row(EINVAL, "UTF-8 no-break space", "%s\xc2\xa0", v);
	add_row(EINVAL, "Latin-1 no-break space", "%s\xa0", v);
	add_row(EINVAL, "byte 0xff", "%s\xff", v);
	add_row(EINVAL, "byte 0x80", "\x80%s", v);
	add_row(EINVAL, "DEL", "%s\x7f", v);
	add_row(EINVAL, "escape", "\x1b%s", v);

	/* Leading zeros keep a value valid: only the length is wrong. */
	pad_value(s, v, d->max_len + 1, false);
	add_row(EINVAL, "longest + 1", "%s", s);
	pad_value(s, v, d->max_len_nl + 1, true);
	add_row(EINVAL, "longest + 1 with newline", "%s", s);
	pad_value(huge, v, HUGE_LEN, false);
	add_buf(EINVAL, "1 MiB, zero-padded", huge, HUGE_LEN);

	add_buf(EFAULT, "unmapped buffer", fault, len);
	add_buf(EFAULT, "NULL buffer", NULL, 1);
}

/* One decimal in min..max; @val is valid and not the current value. */
static void uint_rows(const struct knob_def *d, unsigned int val)
{
	char s[64];

	add_row(EINVAL, "max + 1", "%u", d->max + 1);
	if (d->min)
		add_row(EINVAL, "min - 1", "%u", d->min - 1);
	add_row(EINVAL, "-1", "-1");
	add_row(EINVAL, "-0", "-0");
	add_row(EINVAL, "minus sign", "-%u", val);
	add_row(EINVAL, "plus sign", "+%u", val);
	add_row(EINVAL, "hex", "0x%x", val);
	add_row(EINVAL, "HEX", "0X%X", val);
	add_row(EINVAL, "binary prefix", "0b1");
	add_row(EINVAL, "octal prefix", "0o1");
	add_row(EINVAL, "decimal point", "%u.0", val);
	add_row(EINVAL, "exponent", "%ue0", val);
	add_row(EINVAL, "unit suffix", "%uk", val);
	add_row(EINVAL, "blank-separated values", "%u %u", val, val);
	add_row(EINVAL, "comma", "%u,%u", val, val);
	add_row(EINVAL, "digit separator", "1_0");
	add_row(EINVAL, "word", "max");
	add_row(EINVAL, "INT_MAX", "2147483647");
	add_row(EINVAL, "2^31", "2147483648");
	add_row(EINVAL, "UINT_MAX", "4294967295");
	add_row(EINVAL, "2^32", P32);
	dec_add(s, sizeof(s), P32, val);
	add_row(EINVAL, "2^32 + value (u32 wrap)", "%s", s);
	add_row(EINVAL, "value - 2^32 (s32 wrap)", "-%llu",
		(1ULL << 32) - val);
	add_row(EINVAL, "2^63", "9223372036854775808");
	add_row(EINVAL, "2^64 - 1", "18446744073709551615");
	add_row(EINVAL, "2^64", P64);
	dec_add(s, sizeof(s), P64, val);
	add_row(EINVAL, "2^64 + value (u64 wrap)", "%s", s);
	add_row(EINVAL, "10^30", "1000000000000000000000000000000");
	add_row(EINVAL, "fullwidth digit one", "\xef\xbc\x91");
	add_row(EINVAL, "Arabic-Indic digit one", "\xd9\xa1");
	add_row(EINVAL, "superscript one", "\xc2\xb9");
}

/* "PID CLASS" of override; @nr classes are valid. */
static void pid_class_rows(pid_t t, int nr)
{
	char s[64], comm[32];
	long pid_max;

	add_row(EINVAL, "PID only", "%d", t);
	add_row(EINVAL, "class only", "-1");
	add_row(EINVAL, "three fields", "%d 0 0", t);
	add_row(EINVAL, "clear and a field", "%d -1 0", t);
	add_row(EINVAL, "class == nr_classes", "%d %d", t, nr);
	add_row(EINVAL, "class 16", "%d 16", t);
	add_row(EINVAL, "class 255 (unclassified)", "%d 255", t);
	add_row(EINVAL, "class 256 (u8 wrap)", "%d 256", t);
	add_row(EINVAL, "class -2", "%d -2", t);
	add_row(EINVAL, "class --1", "%d --1", t);
	add_row(EINVAL, "class -01", "%d -01", t);
	add_row(EINVAL, "class -0", "%d -0", t);
	add_row(EINVAL, "class +0", "%d +0", t);
	add_row(EINVAL, "hex class", "%d 0x0", t);
	add_row(EINVAL, "class UINT_MAX", "%d 4294967295", t);
	add_row(EINVAL, "class 2^32 (u32 wrap)", "%d " P32, t);
	add_row(EINVAL, "class 2^64 (u64 wrap)", "%d " P64, t);
	add_row(EINVAL, "class 1 - 2^32 (s32 wrap)", "%d -4294967295", t);
	add_row(EINVAL, "PID 0", "0 -1");
	add_row(EINVAL, "PID -1", "-1 -1");
	add_row(EINVAL, "plus-signed PID", "+%d -1", t);
	add_row(EINVAL, "negative PID", "-%d -1", t);
	add_row(EINVAL, "hex PID", "0x%x -1", t);
	add_row(EINVAL, "PID 2^31", "2147483648 -1");
	dec_add(s, sizeof(s), P32, t);
	add_row(EINVAL, "PID + 2^32 (u32 wrap)", "%s -1", s);
	dec_add(s, sizeof(s), P64, t);
	add_row(EINVAL, "PID + 2^64 (u64 wrap)", "%s -1", s);
	add_row(EINVAL, "comma separator", "%d,-1", t);
	add_row(EINVAL, "newline separator", "%d\n-1", t);
	add_row(EINVAL, "CR separator", "%d\r-1", t);
	add_row(EINVAL, "VT separator", "%d\v-1", t);
	add_row(EINVAL, "no-break space separator", "%d\xc2\xa0-1", t);
	snprintf(s, sizeof(s), "%d", t);
	memcpy(s + strlen(s) + 1, "-1", 3);
	add_bytes(EINVAL, "NUL separator", s, strlen(s) + 3);

	/* PIDs are below pid_max: pid_max itself names no task. */
	pid_max = read_num("/proc/sys/kernel/pid_max");
	if (pid_max > 0)
		add_row(ESRCH, "PID of no task (pid_max)", "%ld -1", pid_max);
	add_row(ESRCH, "PID INT_MAX", "2147483647 -1");
	if (read_text("/proc/2/comm", comm, sizeof(comm)) > 0 &&
	    !strcmp(comm, "kthreadd\n"))
		add_row(EINVAL, "kernel thread", "2 -1");
}

static void build_rows(struct knob_ctx *k,
		       const struct knob_def *d, const char *fault)
{
	nrows = 0;
	generic_rows(d, k->v1, fault);
	switch (d->kind) {
	case K_UINT:
		uint_rows(d, strtoul(k->v1, NULL, 10));
		break;
	case K_OVERRIDE:
		pid_class_rows(k->target, k->nr);
		break;
	}
}

TEST_F_TIMEOUT(knob, bad_input, 300)
{
	struct knob_ctx *k = &self->k;
	const struct knob_def *d = variant->d;
	char after[SNAP_SIZE], diff[256], s[128];
	void *fault;
	int i, ret;

	fault = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, fault);
	build_rows(k, d, fault);
	ASSERT_LT(nrows, MAX_ROWS);
	TH_LOG("%s: %d bad writes", d->name, nrows);

	for (i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
		const char *buf = r->use_buf ? r->buf : r->in;

		ret = put(k->path, buf, r->len, -1);
		snapshot(k->target, after, sizeof(after));

		if (r->use_buf)
			snprintf(s, sizeof(s), "%zu bytes", r->len);
		else
			show(buf, r->len, s, sizeof(s));
		EXPECT_EQ(-r->err, ret) {
			TH_LOG("%s: %s \"%s\": got %d (%s)", d->name,
			       r->what, s, ret,
			       ret < 0 ? strerror(-ret) : "accepted");
		}
		EXPECT_EQ(0, strcmp(k->before, after)) {
			TH_LOG("%s: %s \"%s\" changed %s", d->name, r->what,
			       s, first_diff(k->before, after, diff,
					     sizeof(diff)));
			restore(k, d);
			snapshot(k->target, k->before, sizeof(k->before));
		}
	}
	munmap(fault, 4096);
}

struct good {
	char in[IN_SIZE];
	char back[VAL_SIZE];
};

static int add_good(struct good *g, int n, const char *in, const char *back)
{
	snprintf(g[n].in, sizeof(g[n].in), "%s", in);
	snprintf(g[n].back, sizeof(g[n].back), "%s", back);
	return n + 1;
}

TEST_F_TIMEOUT(knob, good_boundary, 300)
{
	struct knob_ctx *k = &self->k;
	const struct knob_def *d = variant->d;
	static struct good g[16];
	char s[IN_SIZE], t[VAL_SIZE], now[VAL_SIZE], shown[96];
	pid_t pid = k->target;
	int n = 0, i, ret, top;

	/* The valid values, with and without newline, and longest. */
	n = add_good(g, n, k->v1, k->back1);
	snprintf(s, sizeof(s), "%s\n", k->v2);
	n = add_good(g, n, s, k->back2);
	pad_value(s, k->v1, d->max_len, false);
	n = add_good(g, n, s, k->back1);
	pad_value(s, k->v2, d->max_len_nl, true);
	n = add_good(g, n, s, k->back2);

	switch (d->kind) {
	case K_UINT:
		snprintf(t, sizeof(t), "%u", d->min);
		n = add_good(g, n, t, t);
		snprintf(t, sizeof(t), "%u", d->max);
		n = add_good(g, n, t, t);
		snprintf(s, sizeof(s), "%u\n", d->max);
		n = add_good(g, n, s, t);
		/* Decimal even with a leading zero: 010 is 10, not 8. */
		if (d->max >= 10 && d->min <= 10)
			n = add_good(g, n, "010", "10");
		break;
	case K_OVERRIDE:
		top = k->pin_ok ? k->nr : 0;
		if (top) {
			snprintf(s, sizeof(s), "%d\t%d", pid, top - 1);
			snprintf(t, sizeof(t), "%d", top - 1);
			n = add_good(g, n, s, t);
			snprintf(s, sizeof(s), "%d \t 0\n", pid);
			n = add_good(g, n, s, "0");
		}
		snprintf(s, sizeof(s), "000%d -1", pid);
		n = add_good(g, n, s, "-");
		break;
	}

	for (i = 0; i < n; i++) {
		ret = put_str(k->path, g[i].in);
		EXPECT_EQ(0, ret) {
			TH_LOG("%s: \"%s\" refused: %s", d->name,
			       show(g[i].in, strlen(g[i].in), shown,
				    sizeof(shown)), strerror(-ret));
		}
		knob_state(k, d, now, sizeof(now));
		EXPECT_STREQ(g[i].back, now) {
			TH_LOG("%s: \"%s\" reads back as \"%s\"", d->name,
			       show(g[i].in, strlen(g[i].in), shown,
				    sizeof(shown)), now);
		}
	}

	restore(k, d);
	knob_state(k, d, now, sizeof(now));
	EXPECT_STREQ(k->cur, now);
}

TEST_F_TIMEOUT(knob, partial_write, 300)
{
	struct knob_ctx *k = &self->k;
	const struct knob_def *d = variant->d;
	char after[SNAP_SIZE], now[IN_SIZE], diff[256];
	size_t l1 = strlen(k->v1), l2 = strlen(k->v2);
	struct iovec iov[2];
	ssize_t n;
	int fd;

	/*
	 * At an offset other than 0: nothing is a value's tail. seq_files
	 * do not take pwrite() at all.
	 */
	EXPECT_EQ(-d->pwrite_err, put(k->path, k->v1, l1, 1));
	EXPECT_EQ(-d->pwrite_err, put(k->path, k->v1, l1, 4096));
	snapshot(k->target, after, sizeof(after));
	EXPECT_EQ(0, strcmp(k->before, after)) {
		TH_LOG("pwrite() at an offset changed %s",
		       first_diff(k->before, after, diff, sizeof(diff)));
	}

	/* Two write()s on one open file: the second is refused. */
	fd = open(k->path, O_WRONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ((ssize_t)l1, write(fd, k->v1, l1));
	n = write(fd, k->v2, l2);
	EXPECT_EQ(-1, n) {
		TH_LOG("second write() on one file: %zd, not -EINVAL", n);
	}
	EXPECT_EQ(EINVAL, n < 0 ? errno : 0);
	close(fd);
	knob_state(k, d, now, sizeof(now));
	EXPECT_STREQ(k->back1, now);
	restore(k, d);

	/*
	 * writev() of two values: one write of both for the sysctl (so an
	 * invalid one), one write() per buffer for debugfs files, of which
	 * the second is at an offset: a short write of the first value.
	 */
	iov[0].iov_base = k->v1;
	iov[0].iov_len = l1;
	iov[1].iov_base = k->v2;
	iov[1].iov_len = l2;
	fd = open(k->path, O_WRONLY);
	ASSERT_LE(0, fd);
	n = writev(fd, iov, 2);
	close(fd);
	knob_state(k, d, now, sizeof(now));
	if (d->iter) {
		EXPECT_EQ(-1, n);
		EXPECT_STREQ(k->cur, now);
	} else {
		EXPECT_EQ((ssize_t)l1, n) {
			TH_LOG("writev(\"%s\", \"%s\") wrote %zd bytes",
			       k->v1, k->v2, n);
		}
		EXPECT_STREQ(k->back1, now);
	}
	restore(k, d);
}

struct hammer {
	const char *path;
	const char *valid[2];
	const struct row *bad;
	int nbad;
	int iters;
	int id;
	/* results */
	int valid_refused;
	int bad_taken;
	int wrong_errno;
	char first_error[160];
};

static void *writer(void *arg)
{
	struct hammer *h = arg;
	char s[64];
	int i, ret;

	for (i = 0; i < h->iters; i++) {
		int k = i / 2 + h->id;

		if (i & 1) {
			const struct row *r = &h->bad[k % h->nbad];

			ret = put(h->path, r->in, r->len, -1);
			if (ret == -r->err)
				continue;
			if (!ret)
				h->bad_taken++;
			else
				h->wrong_errno++;
			if (!h->first_error[0])
				snprintf(h->first_error,
					 sizeof(h->first_error),
					 "%s \"%s\": %d", r->what,
					 show(r->in, r->len, s, sizeof(s)),
					 ret);
		} else {
			ret = put_str(h->path, h->valid[k % 2]);
			if (!ret)
				continue;
			h->valid_refused++;
			if (!h->first_error[0])
				snprintf(h->first_error,
					 sizeof(h->first_error),
					 "valid \"%s\": %d", h->valid[k % 2],
					 ret);
		}
	}

	return NULL;
}

struct watch {
	struct knob_ctx *k;
	const struct knob_def *d;
	bool stop;
	int reads;
	int odd;
	char odd_value[IN_SIZE];
};

/* Every value read must be the old one or one the writers write. */
static void *reader(void *arg)
{
	struct watch *w = arg;
	char now[IN_SIZE];

	while (!__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE)) {
		knob_state(w->k, w->d, now, sizeof(now));
		w->reads++;
		if (strcmp(now, w->k->cur) && strcmp(now, w->k->back1) &&
		    strcmp(now, w->k->back2)) {
			if (!w->odd++)
				snprintf(w->odd_value, sizeof(w->odd_value),
					 "%s", now);
		}
		usleep(2000);
	}

	return NULL;
}

TEST_F_TIMEOUT(knob, concurrent_writes, 600)
{
	struct knob_ctx *k = &self->k;
	const struct knob_def *d = variant->d;
	struct hammer h[WRITERS];
	struct watch w = { .k = k, .d = d };
	struct row *bad;
	char now[IN_SIZE], again[IN_SIZE], s[96];
	pthread_t tw[WRITERS], tr;
	int i, j, nbad = 0;
	void *fault;

	/* A mix of invalid rows of the table, each in a plain buffer. */
	fault = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, fault);
	build_rows(k, d, fault);
	bad = calloc(nrows, sizeof(*bad));
	ASSERT_NE(NULL, bad);
	for (i = 0, j = 0; i < nrows; i++) {
		if (rows[i].use_buf || (j++ % 3))
			continue;
		bad[nbad++] = rows[i];
	}
	ASSERT_LT(0, nbad);

	for (i = 0; i < WRITERS; i++) {
		memset(&h[i], 0, sizeof(h[i]));
		h[i].path = k->path;
		h[i].valid[0] = k->v1;
		h[i].valid[1] = k->v2;
		h[i].bad = bad;
		h[i].nbad = nbad;
		h[i].iters = d->iters * 2;
		h[i].id = i;
	}

	ASSERT_EQ(0, pthread_create(&tr, NULL, reader, &w));
	for (i = 0; i < WRITERS; i++)
		ASSERT_EQ(0, pthread_create(&tw[i], NULL, writer, &h[i]));
	for (i = 0; i < WRITERS; i++)
		pthread_join(tw[i], NULL);
	__atomic_store_n(&w.stop, true, __ATOMIC_RELEASE);
	pthread_join(tr, NULL);

	for (i = 0; i < WRITERS; i++) {
		EXPECT_EQ(0, h[i].valid_refused);
		EXPECT_EQ(0, h[i].bad_taken);
		EXPECT_EQ(0, h[i].wrong_errno);
		if (h[i].first_error[0])
			TH_LOG("writer %d: %s", i, h[i].first_error);
	}
	EXPECT_EQ(0, w.odd) {
		TH_LOG("%d of %d reads showed \"%s\"", w.odd, w.reads,
		       show(w.odd_value, strlen(w.odd_value), s, sizeof(s)));
	}

	/* The last write wins: one of the valid values, read back stably. */
	knob_state(k, d, now, sizeof(now));
	knob_state(k, d, again, sizeof(again));
	EXPECT_STREQ(now, again);
	EXPECT_TRUE(!strcmp(now, k->back1) || !strcmp(now, k->back2)) {
		TH_LOG("%s holds \"%s\", written were \"%s\" and \"%s\"",
		       d->name, now, k->back1, k->back2);
	}
	free(bad);
	munmap(fault, 4096);
}

/* setresuid()/setresgid() to nobody, no groups, no capabilities. */
static int drop_privileges(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		return -errno;
	memset(data, 0, sizeof(data));
	if (syscall(SYS_capset, &hdr, data))
		return -errno;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;

	memset(data, 0xff, sizeof(data));
	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	if (data[0].effective || data[1].effective || data[0].permitted ||
	    data[1].permitted || geteuid() != NOBODY || getegid() != NOBODY)
		return -EPERM;

	return 0;
}

#define UNPRIV_WRITES	4

struct unpriv {
	int dropped;		/* 0 or -errno of drop_privileges() */
	int open_w;		/* errno of opening for writing, 0 if it opened */
	int open_rw;
	int open_r;
	int chmod;
	int nw;
	char in[UNPRIV_WRITES][IN_SIZE + 2];
	int write[UNPRIV_WRITES];	/* errno of writes through root's fds */
	long long overridden;	/* its own ipcc.overridden afterwards */
};

static int open_err(int dfd, const char *name, int flags)
{
	int fd = openat(dfd, name, flags);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/*
 * The unprivileged child: files root opened for it first, then its own
 * attempts. It writes valid values only: refusing those is the point.
 * Its lookups start at a directory root opened for it, as the debugfs
 * mount itself (0700) would stop it before the files' own modes count.
 */
static void unpriv_child(struct knob_ctx *k, const struct knob_def *d,
			 struct unpriv *u)
{
	int dfd, fd[UNPRIV_WRITES], i, cls;
	char text[TEXT_SIZE], val[64];

	cls = d->kind == K_OVERRIDE && !k->pin_ok ? -1 : 0;
	u->nw = 0;
	snprintf(u->in[u->nw++], sizeof(u->in[0]), "%s", k->v1);
	snprintf(u->in[u->nw++], sizeof(u->in[0]), "%s\n", k->v2);
	if (d->kind == K_OVERRIDE) {
		/* Itself, and its root parent. */
		snprintf(u->in[u->nw++], sizeof(u->in[0]), "%d %d", getpid(),
			 cls);
		snprintf(u->in[u->nw++], sizeof(u->in[0]), "%d %d", getppid(),
			 cls);
	}

	dfd = open(d->dir, O_PATH | O_DIRECTORY);
	for (i = 0; i < u->nw; i++)
		fd[i] = openat(dfd, d->name, O_WRONLY);

	u->dropped = drop_privileges();
	if (u->dropped)
		_exit(1);

	u->open_w = open_err(dfd, d->name, O_WRONLY);
	u->open_rw = open_err(dfd, d->name, O_RDWR);
	u->open_r = open_err(dfd, d->name, O_RDONLY);
	u->chmod = fchmodat(dfd, d->name, 0666, 0) ? errno : 0;
	for (i = 0; i < u->nw; i++) {
		if (fd[i] < 0)
			u->write[i] = EBADF;
		else if (write(fd[i], u->in[i], strlen(u->in[i])) < 0)
			u->write[i] = errno;
		else
			u->write[i] = 0;
	}

	u->overridden = -2;
	if (read_text("/proc/self/sched", text, sizeof(text)) > 0 &&
	    find_line(text, "ipcc.overridden", val, sizeof(val)))
		u->overridden = strtoll(val + strspn(val, " :"), NULL, 10);
	_exit(0);
}

TEST_F_TIMEOUT(knob, unprivileged, 120)
{
	struct knob_ctx *k = &self->k;
	const struct knob_def *d = variant->d;
	char after[SNAP_SIZE], diff[256], mine[TEXT_SIZE], theirs[TEXT_SIZE];
	struct unpriv *u;
	struct stat st;
	int status, i;
	pid_t child;

	ASSERT_EQ(0, stat(k->path, &st));
	EXPECT_EQ(d->mode, st.st_mode & 07777) {
		TH_LOG("%s has mode %o", k->path, st.st_mode & 07777);
	}

	proc_ipcc(getpid(), mine, sizeof(mine));
	u = mmap(NULL, sizeof(*u), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, u);
	memset(u, 0, sizeof(*u));

	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		unpriv_child(k, d, u);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_EQ(0, u->dropped) {
		TH_LOG("cannot drop privileges: %s", strerror(-u->dropped));
	}
	ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));

	EXPECT_EQ(EACCES, u->open_w);
	EXPECT_EQ(EACCES, u->open_rw);
	/* World-readable knobs stay readable; 0600 ones are root's. */
	EXPECT_EQ(d->mode & 0004 ? 0 : EACCES, u->open_r);
	EXPECT_EQ(EPERM, u->chmod);
	for (i = 0; i < u->nw; i++) {
		EXPECT_EQ(EPERM, u->write[i]) {
			TH_LOG("write of \"%s\" through root's file: %s",
			       u->in[i], strerror(u->write[i]));
		}
	}
	if (u->overridden != -2)
		EXPECT_EQ(0, u->overridden);

	snapshot(k->target, after, sizeof(after));
	EXPECT_EQ(0, strcmp(k->before, after)) {
		TH_LOG("the unprivileged child changed %s",
		       first_diff(k->before, after, diff, sizeof(diff)));
	}
	proc_ipcc(getpid(), theirs, sizeof(theirs));
	EXPECT_STREQ(mine, theirs);
	munmap(u, sizeof(*u));
}

/*
 * Files without a write handler refuse writes even from root, and the
 * read-only files keep the modes the sources give them.
 */
TEST(read_only_files)
{
	static const struct {
		const char *path;
		mode_t mode;
	} files[] = {
		{ CORE_DIR "/scores", 0444 },
		{ CORE_DIR "/stats", 0444 },
	};
	char before[SNAP_SIZE], after[SNAP_SIZE], diff[256];
	struct stat st;
	unsigned int i;
	int tested = 0;

	if (geteuid())
		SKIP(return, "must run as root");
	if (access(SYSCTL_PATH, F_OK))
		SKIP(return, "no %s: no CONFIG_SCHED_IPCC", SYSCTL_PATH);
	if (access(CORE_DIR, F_OK))
		mount("debugfs", DEBUGFS_MNT, "debugfs", 0, NULL);
	if (access(CORE_DIR, F_OK))
		SKIP(return, "no %s", CORE_DIR);

	snapshot(0, before, sizeof(before));
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		if (stat(files[i].path, &st))
			continue;
		tested++;
		EXPECT_EQ(files[i].mode, st.st_mode & 07777) {
			TH_LOG("%s has mode %o", files[i].path,
			       st.st_mode & 07777);
		}
		EXPECT_EQ(-EINVAL, put_str(files[i].path, "0\n")) {
			TH_LOG("%s takes writes", files[i].path);
		}
	}
	EXPECT_LE(2, tested);
	snapshot(0, after, sizeof(after));
	EXPECT_EQ(0, strcmp(before, after)) {
		TH_LOG("a write to a read-only file changed %s",
		       first_diff(before, after, diff, sizeof(diff)));
	}
}

TEST_HARNESS_MAIN
