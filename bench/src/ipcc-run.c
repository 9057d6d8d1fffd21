// SPDX-License-Identifier: GPL-2.0
/*
 * ipcc-run: the in-guest driver of the ipcc placement benchmark.
 *
 * usage: ipcc-run SPEC OUT [ROTATE]
 *
 * SPEC is a small text file the host writes (bench/run.py), one item a line,
 * '#' comments:
 *
 *   duration_ms MS           length of the run (required)
 *   interval_ms MS           sampling interval (default 20)
 *   worker PATH              worker binary (default ipcc-worker, looked up
 *                            in PATH)
 *   task ID NAME CLASS DUTY PERIOD_MS PIN [WORK_MS]
 *                            one worker; ID 0..N-1 in order, CLASS the
 *                            kind of work it executes (0..5, see
 *                            ipcc-worker), DUTY percent, PIN a cpulist it
 *                            starts pinned to or "-"; WORK_MS > 0 makes
 *                            it a fixed-work task (below)
 *   program ID ARG0 ARG1 ...  task ID runs this program instead of a
 *                            worker (after its task line; up to 15
 *                            words): a real, unmodified program such as
 *                            stress-ng, whose work the hardware
 *                            classifies as it executes it.  CLASS is then
 *                            only the kind of work the truth scores it by
 *                            (0..15), DUTY and PERIOD are not used, and
 *                            no class event may name it.  The program may
 *                            fork its work into one child (stress-ng's
 *                            stressor): the first child it starts is the
 *                            process sampled.  The run starts (t=0) when
 *                            every program has that child, each held
 *                            stopped until then, with the run time every
 *                            task had before t=0 left out (start-up under
 *                            emulation takes about a second); a program
 *                            still without one after 30 s reads as not
 *                            running (CPU -1, run time 0) until it has
 *   speed CLASS P_OVER_E SMT  the true speed of CLASS's kind of work on a
 *                            P-core relative to an E-core, and a thread's
 *                            speed beside a busy SMT sibling (a fraction);
 *                            needed for fixed-work tasks (bench/truth.py)
 *   hardware PATH            the core types, as `ipcc-qmp profile` prints
 *                            them (lines "pcpus LIST", "ecpus LIST",
 *                            "lpcpus LIST"; LP E-cores count as E-cores)
 *   event T_MS class ID CLASS   task ID switches to work of CLASS at T_MS
 *   event T_MS unpin ID         allow task ID on every online CPU at T_MS
 *
 * It forks every worker (starting with task ROTATE modulo the number of
 * tasks, 0 by default, so that repetitions can vary the fork order the
 * kernel's initial placement depends on), sets its affinity before the
 * worker execs (with
 * its class as an argument: the worker executes that kind of work, and the
 * hardware's Thread Director classifies it; nothing here tells the kernel
 * a class), starts them all at once (t=0), then every interval samples
 * each worker's CPU (/proc/PID/stat field 39), state (field 3) and total
 * run time (/proc/PID/schedstat, ns), and applies the events that are due
 * (before that tick's sample): a class change is a SIGUSR1 to the worker
 * with the new class as the sigqueue() value (blocked until the worker
 * has its handler).
 *
 * Fixed work: the emulated CPUs all run at one speed, so the driver plays
 * the part of the hardware's true speeds.  Every interval a fixed-work
 * task advances by its run time there times the true speed of its kind of
 * work on the core type of its CPU (E-core 1), times, when other tasks of
 * the run used an SMT sibling of that CPU, 1 - (1 - SMT) * b, b the
 * siblings' run time over the task's own (at most 1).  When the work is
 * done (interpolated inside the interval) the driver stops the worker
 * (SIGTERM) and samples it no more; the run ends at duration_ms or when
 * every fixed-work task is done, whichever comes first.  The work is in
 * milliseconds of run time on an E-core with idle siblings.
 *
 * At the end it reads the final CPU times, stops the
 * workers (SIGTERM) and collects their own reports.  Everything goes to
 * OUT, written after the run so that no output disturbs it:
 *
 *   # ipcc-run 2                         (1: samples stamped with
 *                                        their sweep's start, no idle)
 *   meta,duration_ms,INTERVAL_MS,CLK_TCK
 *   task,ID,PID,NAME,CLASS,DUTY
 *   event,T_MS_APPLIED,KIND,ID,ARG
 *   idle,T_MS,TICKS0,TICKS1,...          every CPU's idle time (idle and
 *                                        iowait of /proc/stat, clock
 *                                        ticks; -1 offline), every tenth
 *                                        sweep and after the last
 *   s,T_MS,PID,CPU,STATE,RUN_NS          one per worker per sample, T_MS
 *                                        when its run time was read (a
 *                                        finished fixed-work task: its
 *                                        last values, STATE X, at the
 *                                        sweep's start)
 *   fixed,ID,WORK_MS                     a fixed-work task
 *   done,ID,T_MS,RUN_MS                  it finished its work at T_MS,
 *                                        having run RUN_MS
 *   end,PID,UTIME,STIME,RUN_NS,WAIT_NS,SLICES,IPCC_CLASS
 *   worker PID work=W cpus=CPU:NS,...     the worker's own report
 *
 * T_MS are milliseconds (3 decimals) since the start.  UTIME and STIME are
 * in clock ticks (CLK_TCK per second); IPCC_CLASS is the class the scheduler
 * holds for the task (/proc/PID/sched "ipcc.class"), -2 when unreadable.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_TASKS	256
#define MAX_EVENTS	1024
#define NR_KINDS	16	/* kinds of work the truth can score */
#define NR_WORKER_KINDS	6	/* the kinds ipcc-worker executes */
#define MAX_ARGS	16
#define MAX_CPUS	256
/* A run-time reading counts when it took at most this long; tries. */
#define READ_WINDOW_NS	100000
#define READ_TRIES	10

struct task {
	int id, cls, cls0, duty, period;
	char name[64];
	char pin[256];
	pid_t pid;		/* what the driver forked */
	pid_t spid;		/* what it samples: pid, or the program's child */
	char *argv[MAX_ARGS];	/* a program task's command, NULL-terminated */
	int fd_stat, fd_sched;
	char end[160];
	/* Fixed work (work_ms > 0): progress in ms of E-core run time. */
	double work_ms, prog_ms, done_ms, done_run_ms;
	int done, cls_run;	/* cls_run: the kind it ran since the last sample */
	int unpinned;		/* its unpin event was applied */
	uint64_t run0;		/* run time (ns) before the start, left out */
};

struct event {
	long t_ms;
	int kind;	/* 0 class, 1 unpin */
	int id, arg;
	int done;
	double applied_ms;
};

struct sample {
	float t_ms;
	short cpu;
	char state;
	uint64_t run_ns;
};

static struct task tasks[MAX_TASKS];
static struct event events[MAX_EVENTS];

/*
 * Idle time of every CPU (/proc/stat, clock ticks), read every
 * IDLE_EVERY sweeps and at the last: what the CPUs did besides the tasks
 * is the rest of their time (the host's "other work").
 */
#define IDLE_EVERY	10
struct idle_reading {
	float t_ms;
	int ncpus;
	unsigned long long ticks[MAX_CPUS];
};
static struct idle_reading *idle;
static int nidle, fd_procstat = -1;
static int ntasks, nevents, nfixed, nprograms;
static long duration_ms, interval_ms = 20;
static char worker[256] = "ipcc-worker";
static char hardware[256];

/* The truth for fixed work: P/E speed and SMT factor of each kind. */
static double p_over_e[NR_KINDS], smt_factor[NR_KINDS];
static int have_speed[NR_KINDS];
/* Core type of each CPU ('P', 'E' or 0) and its SMT siblings. */
static char cpu_type[MAX_CPUS];
static cpu_set_t siblings[MAX_CPUS];
/* Every CPU the driver may use: what an unpinned task gets. */
static cpu_set_t all;

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "ipcc-run: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	exit(1);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int parse_cpulist(const char *s, cpu_set_t *set)
{
	CPU_ZERO(set);
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b;

		if (end == s)
			return -1;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1)
				return -1;
			s = end;
		}
		for (; a <= b; a++)
			if (a >= 0 && a < CPU_SETSIZE)
				CPU_SET(a, set);
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -1;
		else
			break;
	}
	return 0;
}

static void read_spec(const char *path)
{
	char line[512];
	FILE *f = fopen(path, "r");

	if (!f)
		die("cannot open %s", path);
	while (fgets(line, sizeof(line), f)) {
		char kind[16];
		struct task *t;
		struct event *e;
		double pe, smt;
		int cls, n;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "duration_ms %ld", &duration_ms) == 1)
			continue;
		if (sscanf(line, "interval_ms %ld", &interval_ms) == 1)
			continue;
		if (sscanf(line, "worker %255s", worker) == 1)
			continue;
		if (sscanf(line, "hardware %255s", hardware) == 1)
			continue;
		if (sscanf(line, "speed %d %lf %lf", &cls, &pe, &smt) == 3) {
			if (cls < 0 || cls >= NR_KINDS || pe <= 0 || smt <= 0 ||
			    smt > 1)
				die("bad speed line: %s", line);
			p_over_e[cls] = pe;
			smt_factor[cls] = smt;
			have_speed[cls] = 1;
			continue;
		}
		if (!strncmp(line, "task ", 5)) {
			if (ntasks >= MAX_TASKS)
				die("too many tasks%s", "");
			t = &tasks[ntasks];
			n = sscanf(line, "task %d %63s %d %d %d %255s %lf",
				   &t->id, t->name, &t->cls, &t->duty,
				   &t->period, t->pin, &t->work_ms);
			if (n < 6 || t->id != ntasks || t->cls < 0 ||
			    t->cls >= NR_KINDS || t->work_ms < 0)
				die("bad task line: %s", line);
			t->cls0 = t->cls;
			t->cls_run = t->cls;
			if (t->work_ms > 0)
				nfixed++;
			ntasks++;
			continue;
		}
		if (!strncmp(line, "program ", 8)) {
			char *tok, *save = NULL;
			int id, a = 0;

			if (sscanf(line, "program %d %n", &id, &n) < 1 ||
			    id < 0 || id >= ntasks || tasks[id].argv[0])
				die("bad program line: %s", line);
			t = &tasks[id];
			for (tok = strtok_r(line + n, " \t\n", &save); tok;
			     tok = strtok_r(NULL, " \t\n", &save)) {
				if (a >= MAX_ARGS - 1)
					die("too many words: %s", line);
				t->argv[a] = strdup(tok);
				if (!t->argv[a++])
					die("out of memory%s", "");
			}
			if (!a)
				die("bad program line: %s", line);
			nprograms++;
			continue;
		}
		if (!strncmp(line, "event ", 6)) {
			if (nevents >= MAX_EVENTS)
				die("too many events%s", "");
			e = &events[nevents];
			e->arg = 0;
			if (sscanf(line, "event %ld %15s %d %d", &e->t_ms, kind,
				   &e->id, &e->arg) < 3)
				die("bad event line: %s", line);
			if (!strcmp(kind, "class"))
				e->kind = 0;
			else if (!strcmp(kind, "unpin"))
				e->kind = 1;
			else
				die("bad event kind: %s", kind);
			if (e->id < 0 || e->id >= MAX_TASKS)
				die("bad event task: %s", line);
			if (!e->kind && (e->arg < 0 || e->arg >= NR_WORKER_KINDS))
				die("bad event class: %s", line);
			nevents++;
			continue;
		}
		die("bad spec line: %s", line);
	}
	fclose(f);
	if (duration_ms <= 0 || interval_ms <= 0 || !ntasks)
		die("spec %s needs duration_ms and tasks", path);
	for (int i = 0; i < nevents; i++) {
		if (events[i].id >= ntasks)
			die("event for an unknown task in %s", path);
		if (!events[i].kind && tasks[events[i].id].argv[0])
			die("a class event for a program task in %s", path);
	}
	/* A program's kind only scores it; a worker executes its kind. */
	for (int i = 0; i < ntasks; i++)
		if (!tasks[i].argv[0] && tasks[i].cls >= NR_WORKER_KINDS)
			die("a worker of a kind ipcc-worker lacks in %s", path);
	if (nfixed && !hardware[0])
		die("fixed-work tasks need a hardware line in %s", path);
	for (int i = 0; i < nevents; i++)
		if (tasks[events[i].id].work_ms > 0 &&
		    !have_speed[events[i].arg])
			die("no speed line for a class in %s", path);
	for (int i = 0; i < ntasks; i++)
		if (tasks[i].work_ms > 0 && !have_speed[tasks[i].cls])
			die("no speed line for a class in %s", path);
}

/* Core types from `ipcc-qmp profile`'s output, siblings from sysfs. */
static void read_hardware(void)
{
	char line[512], path[96];
	FILE *f = fopen(hardware, "r");

	if (!f)
		die("cannot open %s", hardware);
	while (fgets(line, sizeof(line), f)) {
		char key[16], list[480];
		cpu_set_t set;
		char type;

		if (sscanf(line, "%15s %479s", key, list) != 2)
			continue;
		if (!strcmp(key, "pcpus"))
			type = 'P';
		else if (!strcmp(key, "ecpus") || !strcmp(key, "lpcpus"))
			type = 'E';
		else
			continue;
		if (parse_cpulist(list, &set))
			die("bad cpulist in %s", hardware);
		for (int c = 0; c < MAX_CPUS; c++)
			if (CPU_ISSET(c, &set))
				cpu_type[c] = type;
	}
	fclose(f);
	for (int c = 0; c < MAX_CPUS; c++) {
		CPU_ZERO(&siblings[c]);
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
			 c);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(line, sizeof(line), f) &&
		    parse_cpulist(line, &siblings[c]))
			CPU_ZERO(&siblings[c]);
		CPU_CLR(c, &siblings[c]);
		fclose(f);
	}
}

/* Stop a task: the process forked, and a program's child, if it has one. */
static void stop_task(struct task *t)
{
	kill(t->pid, SIGTERM);
	if (t->spid && t->spid != t->pid)
		kill(t->spid, SIGTERM);
}

/*
 * Advance the fixed-work tasks over the interval from samples @prev to
 * @cur (@ntasks each; @prev NULL for the first, from the start with no run
 * time): see the header.  Returns how many are still running.
 */
static int advance(struct sample *prev, struct sample *cur)
{
	static const struct sample start;
	static double busy[MAX_CPUS];
	int left = 0;

	memset(busy, 0, sizeof(busy));
	for (int i = 0; i < ntasks; i++) {
		const struct sample *a = prev ? &prev[i] : &start;
		struct sample *b = &cur[i];

		if (b->cpu >= 0 && b->cpu < MAX_CPUS && b->run_ns > a->run_ns)
			busy[b->cpu] += (b->run_ns - a->run_ns) / 1e6;
	}
	for (int i = 0; i < ntasks; i++) {
		struct task *t = &tasks[i];
		const struct sample *a = prev ? &prev[i] : &start;
		struct sample *b = &cur[i];
		double d, sib = 0, f, v, step;
		int cls = t->cls_run;

		t->cls_run = t->cls;
		if (t->work_ms <= 0 || t->done)
			continue;
		d = b->run_ns > a->run_ns ? (b->run_ns - a->run_ns) / 1e6 : 0;
		if (b->cpu < 0 || b->cpu >= MAX_CPUS || d <= 0) {
			left++;
			continue;
		}
		for (int c = 0; c < MAX_CPUS; c++)
			if (CPU_ISSET(c, &siblings[b->cpu]))
				sib += busy[c];
		f = 1.0 - (1.0 - smt_factor[cls]) * (sib < d ? sib / d : 1.0);
		v = cpu_type[b->cpu] == 'P' ? p_over_e[cls] : 1.0;
		step = d * v * f;
		if (t->prog_ms + step < t->work_ms) {
			t->prog_ms += step;
			left++;
			continue;
		}
		/* Done inside its interval, if it ran evenly there. */
		f = (t->work_ms - t->prog_ms) / step;
		t->done_ms = b->t_ms - (b->t_ms - a->t_ms) * (1.0 - f);
		t->done_run_ms = a->run_ns / 1e6 + d * f;
		t->prog_ms = t->work_ms;
		t->done = 1;
		stop_task(t);
	}
	return left;
}

static int read_fd(int fd, char *buf, size_t size)
{
	ssize_t n = pread(fd, buf, size - 1, 0);

	if (n < 0)
		n = 0;
	buf[n] = '\0';
	return n;
}

/* Fields of /proc/PID/stat after "(comm)": field 3 is the first. */
static const char *stat_field(const char *buf, int field)
{
	const char *p = strrchr(buf, ')');
	int f = 2;

	if (!p)
		return NULL;
	p++;
	while (*p && f < field) {
		while (*p == ' ')
			p++;
		f++;
		if (f == field)
			return p;
		while (*p && *p != ' ')
			p++;
	}
	return NULL;
}

/* The process a task's samples and results name. */
static pid_t sampled(const struct task *t)
{
	return t->spid ? t->spid : t->pid;
}

static void open_proc(struct task *t, pid_t pid)
{
	char path[64];

	t->spid = pid;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	t->fd_stat = open(path, O_RDONLY);
	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	t->fd_sched = open(path, O_RDONLY);
}

/* The lowest-numbered child process of @parent, or 0 (a scan of /proc). */
static pid_t find_child(pid_t parent)
{
	char path[300], buf[512];
	pid_t found = 0;
	struct dirent *d;
	DIR *dir = opendir("/proc");

	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		pid_t pid = atoi(d->d_name);
		const char *p;
		int fd, n;

		if (pid <= 0 || (found && pid >= found))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", d->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read_fd(fd, buf, sizeof(buf));
		close(fd);
		p = n > 0 ? stat_field(buf, 4) : NULL;
		if (p && atoi(p) == parent)
			found = pid;
	}
	closedir(dir);
	return found;
}

/*
 * Sample task @t into @s, stamped with the time its run time was read (ms
 * since @t0): a sweep over every task takes a while under emulation, and
 * longer when the driver is preempted part way, so each sample keeps its
 * own time rather than the sweep's.
 */
static void sample_task(struct task *t, struct sample *s, int64_t t0)
{
	char buf[1024];
	const char *p;

	s->cpu = -1;
	s->state = '?';
	s->run_ns = 0;
	if (t->argv[0] && !t->spid) {
		pid_t child = find_child(t->pid);

		if (!child) {
			s->state = 'S';	/* still starting */
			s->t_ms = (now_ns() - t0) / 1e6;
			return;
		}
		open_proc(t, child);
		/* Forked before its parent's unpin: unpin it too. */
		if (t->unpinned)
			sched_setaffinity(child, sizeof(all), &all);
	}
	if (read_fd(t->fd_stat, buf, sizeof(buf)) > 0) {
		p = stat_field(buf, 3);
		if (p)
			s->state = *p;
		p = stat_field(buf, 39);
		if (p)
			s->cpu = atoi(p);
	}
	/*
	 * The run time and the time it was read at, bracketed by two clock
	 * reads: the emulator deschedules vCPUs while guest time goes on, so
	 * two reads in a row can be milliseconds apart.  Read again while
	 * they are further apart than READ_WINDOW_NS.
	 */
	s->t_ms = (now_ns() - t0) / 1e6;
	for (int n = 0; n < READ_TRIES; n++) {
		int64_t before = now_ns(), after;

		if (read_fd(t->fd_sched, buf, sizeof(buf)) <= 0)
			break;
		after = now_ns();
		s->run_ns = strtoull(buf, NULL, 10);
		s->t_ms = (before + (after - before) / 2 - t0) / 1e6;
		if (after - before <= READ_WINDOW_NS)
			break;
	}
	s->run_ns = s->run_ns > t->run0 ? s->run_ns - t->run0 : 0;
}

/* Read every CPU's idle and iowait ticks into the next idle reading. */
static void sample_idle(int64_t t0)
{
	static char buf[65536];
	struct idle_reading *r = &idle[nidle];
	char *line, *save;

	if (fd_procstat < 0 || read_fd(fd_procstat, buf, sizeof(buf)) <= 0)
		return;
	r->t_ms = (now_ns() - t0) / 1e6;
	r->ncpus = 0;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long long v[5];
		int cpu;

		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
			continue;
		if (sscanf(line + 3, "%d %llu %llu %llu %llu %llu", &cpu, &v[0],
			   &v[1], &v[2], &v[3], &v[4]) != 6 ||
		    cpu < 0 || cpu >= MAX_CPUS)
			continue;
		while (r->ncpus < cpu)
			r->ticks[r->ncpus++] = ~0ULL;	/* offline */
		r->ticks[r->ncpus++] = v[3] + v[4];
	}
	nidle++;
}

static int sched_class_of(pid_t pid)
{
	char path[64], line[256];
	int cls = -2;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/sched", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return cls;
	while (fgets(line, sizeof(line), f)) {
		char *c = strchr(line, ':');

		if (!strncmp(line, "ipcc.class", 10) && c)
			cls = atoi(c + 1);
	}
	fclose(f);
	return cls;
}

/*
 * Real programs take a while to start (a dynamically linked stress-ng
 * under emulation: about a second) before they fork their work.  Hold
 * each child that does the work (SIGSTOP) until every program has one,
 * then start them together at t=0, with the run time everything had so
 * far left out.  Workers were released with the programs and run
 * meanwhile.  A program without a child after 30 s is sampled once it
 * has one.
 */
static void start_programs(void)
{
	int64_t until = now_ns() + 30000000000LL;
	int i, left;

	do {
		struct timespec ms = { 0, 1000000 };

		left = 0;
		for (i = 0; i < ntasks; i++) {
			struct task *t = &tasks[i];
			pid_t child;

			if (!t->argv[0] || t->spid)
				continue;
			child = find_child(t->pid);
			if (!child) {
				left++;
				continue;
			}
			kill(child, SIGSTOP);
			open_proc(t, child);
		}
		if (left)
			nanosleep(&ms, NULL);
	} while (left && now_ns() < until);
	if (left)
		fprintf(stderr, "ipcc-run: %d programs had no child after 30 s\n", left);
	for (i = 0; i < ntasks; i++) {
		struct sample s = { 0 };

		sample_task(&tasks[i], &s, now_ns());
		tasks[i].run0 = s.run_ns;
	}
	for (i = 0; i < ntasks; i++)
		if (tasks[i].argv[0] && tasks[i].spid)
			kill(tasks[i].spid, SIGCONT);
}

int main(int argc, char **argv)
{
	int gate[2], i, k, nsamples, rotate = 0;
	char dir[64], path[128], buf[1024];
	struct sample *samples;
	sigset_t usr1;
	int64_t t0;
	FILE *out;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: ipcc-run SPEC OUT [ROTATE]\n");
		return 2;
	}
	if (argc == 4)
		rotate = atoi(argv[3]);
	read_spec(argv[1]);
	if (rotate < 0)
		die("bad rotation %s", argv[3]);
	if (nfixed)
		read_hardware();
	out = fopen(argv[2], "w");
	if (!out)
		die("cannot write %s", argv[2]);
	nsamples = duration_ms / interval_ms + 2;
	samples = calloc((size_t)nsamples * ntasks, sizeof(*samples));
	idle = calloc(nsamples / IDLE_EVERY + 2, sizeof(*idle));
	if (!samples || !idle)
		die("out of memory%s", "");
	fd_procstat = open("/proc/stat", O_RDONLY);
	snprintf(dir, sizeof(dir), "/tmp/ipcc-run.%d", (int)getpid());
	mkdir(dir, 0700);
	sched_getaffinity(0, sizeof(all), &all);

	if (pipe(gate))
		die("pipe: %s", strerror(errno));
	/*
	 * Workers start with SIGUSR1 blocked (the mask survives the exec):
	 * a class change that comes before the worker's handler stays
	 * pending instead of killing it.
	 */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	for (k = 0; k < ntasks; k++) {
		struct task *t;
		char a1[16], a2[16], a3[16];
		pid_t pid;

		i = (k + rotate) % ntasks;
		t = &tasks[i];

		snprintf(path, sizeof(path), "%s/w%d", dir, i);
		pid = fork();
		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (!pid) {
			int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
			char c;

			close(gate[1]);
			sigprocmask(SIG_BLOCK, &usr1, NULL);
			if (fd >= 0) {
				dup2(fd, 1);
				close(fd);
			}
			/* Wait for the start: EOF when the driver closes. */
			while (read(gate[0], &c, 1) < 0 && errno == EINTR)
				;
			close(gate[0]);
			if (t->argv[0]) {
				execvp(t->argv[0], t->argv);
				fprintf(stderr, "ipcc-run: cannot run %s: %s\n",
					t->argv[0], strerror(errno));
				_exit(127);
			}
			snprintf(a1, sizeof(a1), "%d", t->duty);
			snprintf(a2, sizeof(a2), "%d", t->period);
			snprintf(a3, sizeof(a3), "%d", t->cls);
			execlp(worker, "ipcc-worker", a1, a2, a3, (char *)NULL);
			_exit(127);
		}
		t->pid = pid;
		if (strcmp(t->pin, "-")) {
			cpu_set_t set;

			if (parse_cpulist(t->pin, &set) ||
			    sched_setaffinity(pid, sizeof(set), &set))
				fprintf(stderr, "ipcc-run: cannot pin %d to %s\n",
					(int)pid, t->pin);
		}
		/* A program's child, once it has one, is opened when sampled. */
		t->fd_stat = -1;
		t->fd_sched = -1;
		if (!t->argv[0])
			open_proc(t, pid);
	}
	close(gate[0]);

	close(gate[1]);		/* go */
	if (nprograms)
		start_programs();
	t0 = now_ns();
	for (k = 0; k < nsamples; k++) {
		int64_t next = t0 + (int64_t)k * interval_ms * 1000000LL;
		struct timespec ts = { next / 1000000000LL, next % 1000000000LL };
		float t_ms;

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
				       NULL) == EINTR)
			;
		t_ms = (now_ns() - t0) / 1e6;
		for (i = 0; i < nevents; i++) {
			struct event *e = &events[i];
			struct task *t = &tasks[e->id];

			if (e->done || e->t_ms > t_ms)
				continue;
			if (e->kind == 0) {
				union sigval v = { .sival_int = e->arg };

				if (sigqueue(t->pid, SIGUSR1, v))
					fprintf(stderr, "ipcc-run: class event failed\n");
				t->cls = e->arg;
			} else {
				sched_setaffinity(t->pid, sizeof(all), &all);
				/* A program's child: now, or when it is found. */
				if (t->spid && t->spid != t->pid)
					sched_setaffinity(t->spid, sizeof(all), &all);
				t->unpinned = 1;
			}
			e->done = 1;
			e->applied_ms = (now_ns() - t0) / 1e6;
		}
		for (i = 0; i < ntasks; i++) {
			struct sample *s = &samples[(size_t)k * ntasks + i];

			if (!tasks[i].done) {
				sample_task(&tasks[i], s, t0);
				continue;
			}
			*s = s[-ntasks];
			s->t_ms = t_ms;
			s->state = 'X';
		}
		if (t_ms >= duration_ms ||
		    (nfixed && !advance(k ? &samples[(size_t)(k - 1) * ntasks] : NULL,
					&samples[(size_t)k * ntasks]))) {
			k++;
			break;
		}
		if (k % IDLE_EVERY == 0)
			sample_idle(t0);
	}
	nsamples = k;
	sample_idle(t0);

	/* Final CPU times now, before the output takes time. */
	for (i = 0; i < ntasks; i++) {
		struct task *t = &tasks[i];
		unsigned long long run = 0, wait = 0, slices = 0;
		unsigned long ut = 0, st = 0;
		const char *p;

		if (read_fd(t->fd_stat, buf, sizeof(buf)) > 0) {
			p = stat_field(buf, 14);
			if (p)
				sscanf(p, "%lu %lu", &ut, &st);
		}
		if (read_fd(t->fd_sched, buf, sizeof(buf)) > 0)
			sscanf(buf, "%llu %llu %llu", &run, &wait, &slices);
		snprintf(t->end, sizeof(t->end), "end,%d,%lu,%lu,%llu,%llu,%llu,%d\n",
			 (int)sampled(t), ut, st, run, wait, slices,
			 sched_class_of(sampled(t)));
	}

	fprintf(out, "# ipcc-run 2\nmeta,%ld,%ld,%ld\n", duration_ms,
		interval_ms, sysconf(_SC_CLK_TCK));
	for (i = 0; i < ntasks; i++) {
		struct task *t = &tasks[i];

		fprintf(out, "task,%d,%d,%s,%d,%d\n", t->id, (int)sampled(t),
			t->name, t->cls0, t->duty);
	}
	for (i = 0; i < ntasks; i++)
		if (tasks[i].work_ms > 0)
			fprintf(out, "fixed,%d,%.3f\n", i, tasks[i].work_ms);
	for (i = 0; i < ntasks; i++)
		if (tasks[i].done)
			fprintf(out, "done,%d,%.3f,%.3f\n", i, tasks[i].done_ms,
				tasks[i].done_run_ms);
	for (i = 0; i < nevents; i++)
		fprintf(out, "event,%.3f,%s,%d,%d\n", events[i].applied_ms,
			events[i].kind ? "unpin" : "class", events[i].id,
			events[i].arg);
	for (k = 0; k < nsamples; k++)
		for (i = 0; i < ntasks; i++) {
			struct sample *s = &samples[(size_t)k * ntasks + i];

			fprintf(out, "s,%.3f,%d,%d,%c,%llu\n", s->t_ms,
				(int)sampled(&tasks[i]), s->cpu, s->state,
				(unsigned long long)s->run_ns);
		}
	for (k = 0; k < nidle; k++) {
		fprintf(out, "idle,%.3f", idle[k].t_ms);
		for (i = 0; i < idle[k].ncpus; i++)
			if (idle[k].ticks[i] == ~0ULL)
				fputs(",-1", out);
			else
				fprintf(out, ",%llu", idle[k].ticks[i]);
		fputc('\n', out);
	}
	for (i = 0; i < ntasks; i++)
		fputs(tasks[i].end, out);
	for (i = 0; i < ntasks; i++)
		stop_task(&tasks[i]);
	for (i = 0; i < ntasks; i++) {
		int st;

		while (waitpid(tasks[i].pid, &st, 0) < 0 && errno == EINTR)
			;
		if (tasks[i].fd_stat >= 0)
			close(tasks[i].fd_stat);
		if (tasks[i].fd_sched >= 0)
			close(tasks[i].fd_sched);
	}
	for (i = 0; i < ntasks; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/w%d", dir, i);
		f = fopen(path, "r");
		while (f && fgets(buf, sizeof(buf), f))
			fputs(buf, out);
		if (f)
			fclose(f);
		unlink(path);
	}
	rmdir(dir);
	fclose(out);
	return 0;
}
