// SPDX-License-Identifier: GPL-2.0
/*
 * Emulated hybrid CPU with hardware task classes (IPCC test facility).
 *
 * Turns an ordinary (virtual) x86 machine into a hybrid part for the IPC
 * classes scheduler support (<linux/sched/ipcc.h>): CPUs are declared
 * P-cores or E-cores, the sched domains are given the asymmetry a real
 * part of that kind has, every task carries an emulated class register
 * and a per-class score table stands in for the HFI table. The scheduler
 * core reaches all of it through the same three arch hooks and the same
 * "scores changed" notification a hardware backend uses; it cannot tell
 * the two apart.
 *
 * Nothing happens unless the kernel is booted with ``ipcc_emu=``:
 *
 *   ipcc_emu=adl
 *	Alder Lake-like. The first ``ipcc_emu_pcores=`` cores (default 2,
 *	counted in CPU-number order of their first thread) are P-cores with
 *	all their SMT threads; every other core is an E-core whose first
 *	thread is its only CPU. The other threads of E-cores belong to no
 *	type and are listed in ``offline_cpus`` for the user to take offline
 *	(E-cores have no SMT). Asymmetry: ITMT priorities, SD_ASYM_PACKING.
 *   ipcc_emu=lnl
 *	Lunar Lake-like, meant for machines without SMT. The first
 *	``ipcc_emu_pcores=`` cores are P-cores, the others E-cores (all
 *	threads of each). Asymmetry: CPU capacity, SD_ASYM_CPUCAPACITY and
 *	misfit; ITMT stays off.
 *   ipcc_emu=custom:FIELD[,FIELD...]
 *	FIELD is ``P=LIST``, ``E=LIST`` or ``asym=packing|capacity``, each at
 *	most once, in any order; P and E are required. LIST is a cpulist
 *	(decimal numbers, ranges ``A-B``, strides ``A-B:U/G``) whose commas
 *	continue the list until the next ``NAME=`` field, so
 *	``custom:P=0-3,E=4,6,asym=capacity`` declares P 0-3 and E 4 and 6.
 *	The lists must not overlap and must hold only online CPUs. asym
 *	defaults to packing.
 *
 * Malformed parameters are logged and leave the emulation off. It also
 * stays off on a real hybrid CPU, where intel_pstate owns the ITMT
 * priorities and the CPU capacities. Once on, it registers itself with
 * the x86 IPCC dispatch (<asm/ipcc.h>), ahead of any hardware backend.
 *
 * Once active, the debugfs directory ipcc_emu/ holds (writes need
 * CAP_SYS_ADMIN and must be one write() of at most 63 bytes unless said
 * otherwise; a rejected write returns -EINVAL, -ESRCH for an unknown PID,
 * and changes nothing):
 *
 *   profile       r   "profile NAME" (the boot profile), "asym packing|
 *                     capacity", "pcpus LIST", "ecpus LIST", "offline LIST".
 *   pcpus, ecpus  rw  the P and E cpulists; a write re-applies the topology
 *                     at run time, with the boot profile's asymmetry. Lists
 *                     must be non-empty, online and not overlap the other
 *                     type's list; at most 512 bytes.
 *   offline_cpus  r   present CPUs of no type: the ones to take offline.
 *   priorities    r   "CPU PRIO": the ITMT priority of every online CPU.
 *   capacities    r   "CPU CAPACITY": arch_scale_cpu_capacity() of every
 *                     online CPU (x86 has no sysfs cpu_capacity file).
 *   scores        rw  read: "TYPE CLASS PERF EFF" per type and class; write
 *                     one such line (TYPE P or E, CLASS below nr_classes,
 *                     PERF and EFF 0..255 in decimal) to change a score.
 *   nr_classes    rw  number of classes, 1..IPCC_MAX_CLASSES.
 *   task_class    rw  read: "PID CLASS" of every task with an emulated
 *                     class; write "PID CLASS" to set one, CLASS -1 to
 *                     clear it. Kernel threads are refused.
 *
 * The emulated class register of a task is p->ipcc.emu_class: inherited
 * by fork and kept across exec, so a shell can set its own class and
 * every command it starts runs with it. arch_ipcc_read_class() reads it
 * on the tick like the Thread Director register, with the valid bit
 * clear when it holds no class below nr_classes. Score writes update the
 * table and call sched_ipcc_scores_changed(), as an HFI update interrupt
 * does.
 *
 * Locking:
 *
 * ipcc_emu_mutex  Serialises every writer of the emulation state (the
 *                 topology, the score table, nr_classes, emulated class
 *                 writes) and the debugfs readers of multi-field state.
 *                 May sleep; held across the sched domain rebuild.
 * ipcc_emu_seq    Seqlock around the P/E masks, the score table and
 *                 nr_classes. Written only with ipcc_emu_mutex held;
 *                 arch_ipcc_get_scores() reads under it without the mutex
 *                 (the core's rebuild work item, any number at once).
 * (none)          ipcc_emu_nr is also read with READ_ONCE() from the tick.
 *                 p->ipcc.emu_class is a byte of its own written with
 *                 WRITE_ONCE() (task_rq_lock() is private to the
 *                 scheduler) and read with READ_ONCE(); a tick may see the
 *                 old or the new value, as with a hardware register.
 *
 * Lock order: ipcc_emu_mutex -> cpus_read_lock -> sched_domains_mutex;
 *             ipcc_emu_mutex -> ITMT's update mutex; ipcc_emu_seq
 *             innermost. The core's mutex is never taken with
 *             ipcc_emu_mutex held.
 */
#define pr_fmt(fmt) "ipcc_emu: " fmt

#include <linux/capability.h>
#include <linux/cpu.h>
#include <linux/cpufeature.h>
#include <linux/cpumask.h>
#include <linux/cpuset.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/ipcc.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/sched/topology.h>
#include <linux/seq_file.h>
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/topology.h>
#include <linux/uaccess.h>

#include <asm/ipcc.h>

/* Buffer size for numeric knob writes: they must be shorter. */
#define IPCC_EMU_KNOB_MAX	64
/* Longest accepted write to pcpus and ecpus, in bytes. */
#define IPCC_EMU_CPULIST_MAX	512
/* Buffer size of the saved ipcc_emu= value: it must be shorter. */
#define IPCC_EMU_CMDLINE_MAX	256

#define IPCC_EMU_NR_CLASSES_DEFAULT	4
#define IPCC_EMU_PCORES_DEFAULT		2

/*
 * ITMT priorities of the packing profiles. intel_pstate gives each CPU
 * its HWP highest performance level as ITMT priority
 * (intel_pstate_set_itmt_prio()). On Alder Lake a P-core performance
 * level is worth 78.741 MHz (HYBRID_SCALING_FACTOR) and an E-core level
 * 100 MHz, so an i9-12900K (P-cores 5.1 GHz, E-cores 3.9 GHz max turbo)
 * reports about 65 and 39. E/P = 0.6, the scalar score ratio below.
 */
#define IPCC_EMU_PRIO_P		65
#define IPCC_EMU_PRIO_E		39

/*
 * Capacities of the capacity profiles, as intel_pstate derives them: the
 * HWP highest performance level of each CPU relative to the highest one
 * (hybrid_set_cpu_capacity()). On Lunar Lake a P-core level is worth
 * 86.957 MHz (HYBRID_SCALING_FACTOR_LNL) and an E-core level 100 MHz; a
 * Core Ultra 9 288V (P 5.1 GHz, E 3.7 GHz) gives 59 and 37, so an E-core
 * has 37/59 = 0.63 of a P-core's capacity (642 of 1024).
 */
#define IPCC_EMU_CAP_PERF_P	59
#define IPCC_EMU_CAP_PERF_E	37

/**
 * enum ipcc_emu_type - emulated core types
 * @IPCC_EMU_P:        performance core.
 * @IPCC_EMU_E:        efficiency core.
 * @IPCC_EMU_NR_TYPES: number of types.
 */
enum ipcc_emu_type {
	IPCC_EMU_P,
	IPCC_EMU_E,
	IPCC_EMU_NR_TYPES,
};

/**
 * enum ipcc_emu_asym - how the asymmetry reaches the sched domains
 * @IPCC_EMU_ASYM_PACKING:  ITMT priorities and SD_ASYM_PACKING, as on
 *                          hybrid parts with SMT.
 * @IPCC_EMU_ASYM_CAPACITY: per-CPU capacity, SD_ASYM_CPUCAPACITY and
 *                          misfit, as on hybrid parts without SMT.
 */
enum ipcc_emu_asym {
	IPCC_EMU_ASYM_PACKING,
	IPCC_EMU_ASYM_CAPACITY,
};

/**
 * enum ipcc_emu_profile - the profile named on the command line
 * @IPCC_EMU_OFF:    no ``ipcc_emu=``; the emulation is off.
 * @IPCC_EMU_ADL:    ``ipcc_emu=adl``.
 * @IPCC_EMU_LNL:    ``ipcc_emu=lnl``.
 * @IPCC_EMU_CUSTOM: ``ipcc_emu=custom:...``.
 */
enum ipcc_emu_profile {
	IPCC_EMU_OFF,
	IPCC_EMU_ADL,
	IPCC_EMU_LNL,
	IPCC_EMU_CUSTOM,
};

static const char * const ipcc_emu_profile_names[] = {
	[IPCC_EMU_OFF]		= "off",
	[IPCC_EMU_ADL]		= "adl",
	[IPCC_EMU_LNL]		= "lnl",
	[IPCC_EMU_CUSTOM]	= "custom",
};

static const char * const ipcc_emu_asym_names[] = {
	[IPCC_EMU_ASYM_PACKING]		= "packing",
	[IPCC_EMU_ASYM_CAPACITY]	= "capacity",
};

static const char ipcc_emu_type_names[IPCC_EMU_NR_TYPES] = {
	[IPCC_EMU_P]	= 'P',
	[IPCC_EMU_E]	= 'E',
};

/**
 * struct ipcc_emu_score - emulated HFI capabilities of one class on one type
 * @perf: performance capability, 0..255; 0 asks not to use the CPU.
 * @eff:  energy-efficiency capability, 0..255; 0 asks not to use the CPU.
 */
struct ipcc_emu_score {
	u8	perf;
	u8	eff;
};

/*
 * Default scores, on the HFI's 0..255 scale where only the scores of
 * one class are compared across CPUs. Classes as reported for Alder
 * Lake's Thread Director; the ratios are estimates from published
 * figures, kept editable through the scores file:
 *
 * 0 scalar:    E-core (Gracemont) integer throughput is about 0.6 of a
 *              P-core (Golden Cove) at their top turbo frequencies -- the
 *              same ratio intel_pstate's performance levels give (39/65).
 *              E-cores do the work at roughly twice the performance per
 *              watt.
 * 1 vector:    Gracemont splits 256-bit AVX2 operations into two 128-bit
 *              halves, so vector code drops to about 0.43 of a P-core; its
 *              efficiency advantage shrinks accordingly.
 * 2 VNNI:      AVX-VNNI dot products on Gracemont's narrower ports reach
 *              about 0.35 of a P-core; the P-core is the efficient choice
 *              per unit of work nearly as often as the E-core.
 * 3 spin-wait: a PAUSE-bound loop gains nothing from a wide core: equal
 *              performance (120, so that busy classes rank above it), and
 *              the E-core burns far less power doing it.
 *
 * Classes above 3 have no published meaning; they start with the scalar
 * scores.
 */
static const struct ipcc_emu_score
ipcc_emu_default_scores[IPCC_EMU_NR_CLASSES_DEFAULT][IPCC_EMU_NR_TYPES] = {
	[0] = { [IPCC_EMU_P] = { 255, 120 }, [IPCC_EMU_E] = { 150, 255 } },
	[1] = { [IPCC_EMU_P] = { 255, 140 }, [IPCC_EMU_E] = { 110, 200 } },
	[2] = { [IPCC_EMU_P] = { 255, 150 }, [IPCC_EMU_E] = {  90, 170 } },
	[3] = { [IPCC_EMU_P] = { 120,  60 }, [IPCC_EMU_E] = { 120, 255 } },
};

/**
 * struct ipcc_emu_spec - a parsed ``ipcc_emu=`` value
 * @profile: the profile.
 * @asym:    how the asymmetry reaches the sched domains.
 * @pcpus:   the P-core CPUs (custom profile only; caller-provided).
 * @ecpus:   the E-core CPUs (custom profile only; caller-provided).
 */
struct ipcc_emu_spec {
	enum ipcc_emu_profile	profile;
	enum ipcc_emu_asym	asym;
	struct cpumask		*pcpus;
	struct cpumask		*ecpus;
};

static DEFINE_MUTEX(ipcc_emu_mutex);
static DEFINE_SEQLOCK(ipcc_emu_seq);

/* Protected by ipcc_emu_mutex (writers also hold ipcc_emu_seq). */
static struct cpumask ipcc_emu_cpus[IPCC_EMU_NR_TYPES];
static struct ipcc_emu_score ipcc_emu_scores[IPCC_MAX_CLASSES][IPCC_EMU_NR_TYPES];
/* 0 while the emulation is off. */
static unsigned int ipcc_emu_nr __read_mostly;

/* Protected by ipcc_emu_mutex. */
static enum ipcc_emu_profile ipcc_emu_cur_profile;
static enum ipcc_emu_asym ipcc_emu_cur_asym;
static bool ipcc_emu_cap_scale;

static char ipcc_emu_param[IPCC_EMU_CMDLINE_MAX] __initdata;
static bool ipcc_emu_param_given __initdata;
static char ipcc_emu_pcores_param[IPCC_EMU_KNOB_MAX] __initdata;
static bool ipcc_emu_pcores_given __initdata;

/*
 * Pure parsers. None of them touches global state. The knob parsers fill
 * their results only on success; the profile parser may leave the masks
 * of its result half-filled on error.
 */

static bool ipcc_emu_is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Copy a knob write of @len bytes into @dst (@size bytes), drop one
 * trailing newline and refuse empty, overlong and NUL-containing input
 * and leading or trailing blanks.
 */
static int ipcc_emu_copy(char *dst, size_t size, const char *buf, size_t len)
{
	if (!len || len >= size)
		return -EINVAL;

	memcpy(dst, buf, len);
	dst[len] = '\0';
	if (dst[len - 1] == '\n')
		dst[--len] = '\0';

	if (!len || strlen(dst) != len)
		return -EINVAL;
	if (ipcc_emu_is_blank(dst[0]) || ipcc_emu_is_blank(dst[len - 1]))
		return -EINVAL;

	return 0;
}

/*
 * Split @s in place into blank-separated fields. Return their number, or
 * -EINVAL when there are more than @max.
 */
static int ipcc_emu_fields(char *s, char **field, int max)
{
	char *tok;
	int n = 0;

	while ((tok = strsep(&s, " \t"))) {
		if (!*tok)
			continue;
		if (n == max)
			return -EINVAL;
		field[n++] = tok;
	}

	return n;
}

/* A decimal number of at most @max: digits only, no sign or prefix. */
static int ipcc_emu_parse_dec(const char *s, unsigned int max,
			      unsigned int *val)
{
	const char *c;
	unsigned int v;

	if (!*s)
		return -EINVAL;
	for (c = s; *c; c++) {
		if (!isdigit(*c))
			return -EINVAL;
	}

	if (kstrtouint(s, 10, &v) || v > max)
		return -EINVAL;

	*val = v;
	return 0;
}

/**
 * ipcc_emu_parse_nr_classes() - parse a write to ``nr_classes``
 * @buf: the bytes written, not necessarily NUL-terminated
 * @len: their number
 * @nr:  where the value is stored on success
 *
 * Return: 0 for one decimal number in 1..%IPCC_MAX_CLASSES, optionally
 * followed by a newline; -EINVAL otherwise.
 */
static int ipcc_emu_parse_nr_classes(const char *buf, size_t len,
				     unsigned int *nr)
{
	char tmp[IPCC_EMU_KNOB_MAX];
	unsigned int v;

	if (ipcc_emu_copy(tmp, sizeof(tmp), buf, len) ||
	    ipcc_emu_parse_dec(tmp, IPCC_MAX_CLASSES, &v) || !v)
		return -EINVAL;

	*nr = v;
	return 0;
}

/**
 * ipcc_emu_parse_score() - parse a write to ``scores``
 * @buf:   the bytes written
 * @len:   their number
 * @nr:    number of classes in force
 * @type:  where the core type is stored on success
 * @class: where the class is stored on success
 * @score: where the scores are stored on success
 *
 * The format is ``TYPE CLASS PERF EFF``: TYPE is ``P`` or ``E``, CLASS a
 * decimal below @nr, PERF and EFF decimals in 0..255; fields separated by
 * blanks, optionally one trailing newline.
 *
 * Return: 0 on success, -EINVAL otherwise.
 */
static int ipcc_emu_parse_score(const char *buf, size_t len, unsigned int nr,
				enum ipcc_emu_type *type, unsigned int *class,
				struct ipcc_emu_score *score)
{
	char tmp[IPCC_EMU_KNOB_MAX];
	unsigned int c, perf, eff;
	enum ipcc_emu_type t;
	char *f[4];

	if (ipcc_emu_copy(tmp, sizeof(tmp), buf, len) ||
	    ipcc_emu_fields(tmp, f, ARRAY_SIZE(f)) != ARRAY_SIZE(f))
		return -EINVAL;

	if (!strcmp(f[0], "P"))
		t = IPCC_EMU_P;
	else if (!strcmp(f[0], "E"))
		t = IPCC_EMU_E;
	else
		return -EINVAL;

	if (ipcc_emu_parse_dec(f[1], IPCC_MAX_CLASSES - 1, &c) || c >= nr ||
	    ipcc_emu_parse_dec(f[2], U8_MAX, &perf) ||
	    ipcc_emu_parse_dec(f[3], U8_MAX, &eff))
		return -EINVAL;

	*type = t;
	*class = c;
	score->perf = perf;
	score->eff = eff;
	return 0;
}

/**
 * ipcc_emu_parse_task_class() - parse a write to ``task_class``
 * @buf:   the bytes written
 * @len:   their number
 * @nr:    number of classes in force
 * @pid:   where the PID is stored on success
 * @class: where the class, or -1 for "clear", is stored on success
 *
 * The format is ``PID CLASS``: PID a decimal in 1..INT_MAX, CLASS a
 * decimal below @nr or exactly ``-1``; separated by blanks, optionally one
 * trailing newline.
 *
 * Return: 0 on success, -EINVAL otherwise.
 */
static int ipcc_emu_parse_task_class(const char *buf, size_t len,
				     unsigned int nr, pid_t *pid, int *class)
{
	char tmp[IPCC_EMU_KNOB_MAX];
	unsigned int p, c;
	char *f[2];

	if (ipcc_emu_copy(tmp, sizeof(tmp), buf, len) ||
	    ipcc_emu_fields(tmp, f, ARRAY_SIZE(f)) != ARRAY_SIZE(f))
		return -EINVAL;

	if (ipcc_emu_parse_dec(f[0], INT_MAX, &p) || !p)
		return -EINVAL;

	if (!strcmp(f[1], "-1")) {
		*pid = p;
		*class = -1;
		return 0;
	}

	if (ipcc_emu_parse_dec(f[1], IPCC_MAX_CLASSES - 1, &c) || c >= nr)
		return -EINVAL;

	*pid = p;
	*class = c;
	return 0;
}

/**
 * ipcc_emu_parse_cpus() - parse a non-empty cpulist
 * @s:    NUL-terminated cpulist: decimal CPU numbers, ranges and strides
 * @mask: where the CPUs are stored on success
 *
 * Only the characters of numeric cpulists are accepted (no blanks, no
 * ``N``), without empty elements; CPUs must be below nr_cpu_ids.
 *
 * Return: 0 on success; -EINVAL for a malformed or empty list or a CPU
 * out of range, with @mask undefined.
 */
static int ipcc_emu_parse_cpus(const char *s, struct cpumask *mask)
{
	const char *c;

	if (!*s)
		return -EINVAL;
	for (c = s; *c; c++) {
		if (!isdigit(*c) && !strchr(",-:/", *c))
			return -EINVAL;
	}
	/* cpulist_parse() skips empty elements: ",0", "0,", "0,,1". */
	if (*s == ',' || c[-1] == ',' || strstr(s, ",,"))
		return -EINVAL;

	if (cpulist_parse(s, mask) || cpumask_empty(mask))
		return -EINVAL;

	return 0;
}

/*
 * The field list of ipcc_emu=custom:, see the top of the file. @s is
 * modified; @tmp is scratch space.
 */
static int ipcc_emu_parse_custom(char *s, struct ipcc_emu_spec *spec,
				 struct cpumask *tmp)
{
	bool have_p = false, have_e = false, have_asym = false;
	struct cpumask *cur = NULL;
	char *tok;

	cpumask_clear(spec->pcpus);
	cpumask_clear(spec->ecpus);
	spec->asym = IPCC_EMU_ASYM_PACKING;

	while ((tok = strsep(&s, ","))) {
		if (str_has_prefix(tok, "P=")) {
			if (have_p)
				return -EINVAL;
			have_p = true;
			cur = spec->pcpus;
			tok += strlen("P=");
		} else if (str_has_prefix(tok, "E=")) {
			if (have_e)
				return -EINVAL;
			have_e = true;
			cur = spec->ecpus;
			tok += strlen("E=");
		} else if (str_has_prefix(tok, "asym=")) {
			if (have_asym)
				return -EINVAL;
			have_asym = true;
			cur = NULL;
			tok += strlen("asym=");
			if (!strcmp(tok, "packing"))
				spec->asym = IPCC_EMU_ASYM_PACKING;
			else if (!strcmp(tok, "capacity"))
				spec->asym = IPCC_EMU_ASYM_CAPACITY;
			else
				return -EINVAL;
			continue;
		} else if (!cur) {
			return -EINVAL;
		}

		if (ipcc_emu_parse_cpus(tok, tmp))
			return -EINVAL;
		cpumask_or(cur, cur, tmp);
	}

	if (!have_p || !have_e || cpumask_intersects(spec->pcpus, spec->ecpus))
		return -EINVAL;

	return 0;
}

/**
 * ipcc_emu_parse_profile() - parse the value of ``ipcc_emu=``
 * @s:    the value; modified
 * @spec: the result; @spec->pcpus and @spec->ecpus must point to masks
 * @tmp:  scratch mask
 *
 * Return: 0 on success, -EINVAL for anything but the grammar at the top
 * of this file.
 */
static int ipcc_emu_parse_profile(char *s, struct ipcc_emu_spec *spec,
				  struct cpumask *tmp)
{
	size_t n;

	if (!strcmp(s, "adl")) {
		spec->profile = IPCC_EMU_ADL;
		spec->asym = IPCC_EMU_ASYM_PACKING;
		return 0;
	}
	if (!strcmp(s, "lnl")) {
		spec->profile = IPCC_EMU_LNL;
		spec->asym = IPCC_EMU_ASYM_CAPACITY;
		return 0;
	}

	n = str_has_prefix(s, "custom:");
	if (!n || ipcc_emu_parse_custom(s + n, spec, tmp))
		return -EINVAL;

	spec->profile = IPCC_EMU_CUSTOM;
	return 0;
}

/*
 * The arch hooks of <linux/sched/ipcc.h>, reached through the x86
 * dispatch (<asm/ipcc.h>) once the emulation is on.
 */

/**
 * ipcc_emu_nr_classes() - number of emulated classes
 *
 * Return: the ``nr_classes`` knob while the emulation is on, else 0.
 */
static unsigned int ipcc_emu_nr_classes(void)
{
	return READ_ONCE(ipcc_emu_nr);
}

/**
 * ipcc_emu_read_class() - read the emulated class register
 * @curr: the task running on this CPU
 *
 * The register is the task's p->ipcc.emu_class; its valid bit is clear
 * when that holds no class below ``nr_classes``.
 *
 * Context: the scheduler tick, runqueue lock held.
 * Return: the class, or -ENODATA when the register is not valid.
 */
static int ipcc_emu_read_class(struct task_struct *curr)
{
	u8 class = READ_ONCE(curr->ipcc.emu_class);

	if (class >= READ_ONCE(ipcc_emu_nr))
		return -ENODATA;

	return class;
}

/**
 * ipcc_emu_get_scores() - read the emulated HFI table
 * @cpu:   a possible CPU
 * @class: a class
 * @perf:  filled with the performance score of @class on @cpu's type
 * @eff:   filled with the efficiency score of @class on @cpu's type
 *
 * Context: process context; may run concurrently with itself.
 * Return: 0; -ENODATA when @cpu is of no type or @class is not below
 * ``nr_classes``; -EINVAL for an impossible @cpu.
 */
static int ipcc_emu_get_scores(int cpu, unsigned int class, u8 *perf,
			       u8 *eff)
{
	struct ipcc_emu_score s = { };
	unsigned int seq;
	int ret;

	if (cpu < 0 || cpu >= nr_cpu_ids || class >= IPCC_MAX_CLASSES)
		return -EINVAL;

	do {
		seq = read_seqbegin(&ipcc_emu_seq);
		ret = 0;
		if (class >= ipcc_emu_nr)
			ret = -ENODATA;
		else if (cpumask_test_cpu(cpu, &ipcc_emu_cpus[IPCC_EMU_P]))
			s = ipcc_emu_scores[class][IPCC_EMU_P];
		else if (cpumask_test_cpu(cpu, &ipcc_emu_cpus[IPCC_EMU_E]))
			s = ipcc_emu_scores[class][IPCC_EMU_E];
		else
			ret = -ENODATA;
	} while (read_seqretry(&ipcc_emu_seq, seq));

	if (ret)
		return ret;

	*perf = s.perf;
	*eff = s.eff;
	return 0;
}

static const struct x86_ipcc_ops ipcc_emu_ops = {
	.name		= "emulation",
	.prio		= X86_IPCC_PRIO_EMU,
	.nr_classes	= ipcc_emu_nr_classes,
	.read_class	= ipcc_emu_read_class,
	.get_scores	= ipcc_emu_get_scores,
};

/*
 * Topology.
 */

/*
 * Rebuild the sched domains so that a change of ITMT priorities or CPU
 * capacities takes effect: like itmt.c, flag a topology update so that
 * partition_sched_domains() rebuilds every domain and rescans the
 * capacity asymmetry. Without cpusets, rebuild_sched_domains() does not
 * take the CPU hotplug lock that partition_sched_domains() wants.
 */
static void ipcc_emu_rebuild_domains(void)
{
	if (IS_ENABLED(CONFIG_CPUSETS)) {
		x86_topology_update = true;
		rebuild_sched_domains();
		return;
	}

	cpus_read_lock();
	x86_topology_update = true;
	rebuild_sched_domains();
	cpus_read_unlock();
}

/*
 * Make @pcpus P-cores and @ecpus E-cores, with the asymmetry @asym, and
 * rebuild the sched domains. CPUs of no type are placed like E-cores
 * (they are E-core SMT threads in the adl profile) but have no scores.
 * The caller has checked the masks. @asym is the boot profile's: it does
 * not change at run time.
 */
static int ipcc_emu_apply(const struct cpumask *pcpus,
			  const struct cpumask *ecpus, enum ipcc_emu_asym asym)
{
	bool capacity = asym == IPCC_EMU_ASYM_CAPACITY;
	int cpu, ret = 0;

	lockdep_assert_held(&ipcc_emu_mutex);

	if (capacity && !ipcc_emu_cap_scale) {
		if (!arch_enable_hybrid_capacity_scale())
			return -ENOMEM;
		ipcc_emu_cap_scale = true;
	}

	write_seqlock(&ipcc_emu_seq);
	cpumask_copy(&ipcc_emu_cpus[IPCC_EMU_P], pcpus);
	cpumask_copy(&ipcc_emu_cpus[IPCC_EMU_E], ecpus);
	write_sequnlock(&ipcc_emu_seq);
	ipcc_emu_cur_asym = asym;

	/*
	 * As intel_pstate does: priorities for every CPU whatever the mode,
	 * then ITMT on with SMT, capacities and ITMT off without.
	 */
	for_each_possible_cpu(cpu) {
		bool p = cpumask_test_cpu(cpu, pcpus);

		sched_set_itmt_core_prio(p ? IPCC_EMU_PRIO_P : IPCC_EMU_PRIO_E,
					 cpu);
		/*
		 * The frequency ratio (last two arguments) is 1: MPERF is
		 * taken to count at the top frequency. The emulation has no
		 * real frequency data, and QEMU offers no APERF/MPERF.
		 */
		if (capacity)
			arch_set_cpu_capacity(cpu,
					      p ? IPCC_EMU_CAP_PERF_P :
						  IPCC_EMU_CAP_PERF_E,
					      IPCC_EMU_CAP_PERF_P, 1, 1);
	}

	if (capacity)
		sched_clear_itmt_support();
	else
		ret = sched_set_itmt_support();

	ipcc_emu_rebuild_domains();
	sched_ipcc_scores_changed();

	return ret;
}

/*
 * The P/E split of the adl and lnl profiles: the first @pcores cores, in
 * the order of their first CPU, are P-cores with all their threads. The
 * other cores are E-cores: with all their threads when @e_smt, else with
 * their first thread only.
 */
static int ipcc_emu_split_cores(unsigned int pcores, bool e_smt,
				struct cpumask *pcpus, struct cpumask *ecpus)
{
	unsigned int core = 0;
	int cpu;

	cpumask_clear(pcpus);
	cpumask_clear(ecpus);

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		const struct cpumask *sib = topology_sibling_cpumask(cpu);

		if (cpu != cpumask_first(sib))
			continue;

		if (core++ < pcores)
			cpumask_or(pcpus, pcpus, sib);
		else if (e_smt)
			cpumask_or(ecpus, ecpus, sib);
		else
			cpumask_set_cpu(cpu, ecpus);
	}
	cpus_read_unlock();

	if (cpumask_empty(pcpus) || cpumask_empty(ecpus))
		return -EINVAL;

	return 0;
}

/* Both lists online and disjoint: what a topology must satisfy. */
static bool ipcc_emu_cpus_valid(const struct cpumask *pcpus,
				const struct cpumask *ecpus)
{
	bool ok;

	cpus_read_lock();
	ok = !cpumask_empty(pcpus) && !cpumask_empty(ecpus) &&
	     !cpumask_intersects(pcpus, ecpus) &&
	     cpumask_subset(pcpus, cpu_online_mask) &&
	     cpumask_subset(ecpus, cpu_online_mask);
	cpus_read_unlock();

	return ok;
}

/*
 * debugfs
 */

/* Copy a user write of @cnt bytes; the caller frees the result. */
static char *ipcc_emu_get_write(const char __user *ubuf, size_t cnt,
				size_t max, loff_t *ppos)
{
	if (!capable(CAP_SYS_ADMIN))
		return ERR_PTR(-EPERM);
	if (*ppos || !cnt || cnt > max)
		return ERR_PTR(-EINVAL);

	return memdup_user_nul(ubuf, cnt);
}

/* Present CPUs of no type. */
static void ipcc_emu_untyped(struct cpumask *dst)
{
	lockdep_assert_held(&ipcc_emu_mutex);

	cpumask_andnot(dst, cpu_present_mask, &ipcc_emu_cpus[IPCC_EMU_P]);
	cpumask_andnot(dst, dst, &ipcc_emu_cpus[IPCC_EMU_E]);
}

/* The profile named at boot; the lists as they are now. */
static int ipcc_emu_profile_show(struct seq_file *m, void *v)
{
	cpumask_var_t untyped;

	if (!alloc_cpumask_var(&untyped, GFP_KERNEL))
		return -ENOMEM;

	mutex_lock(&ipcc_emu_mutex);
	ipcc_emu_untyped(untyped);
	seq_printf(m, "profile %s\n",
		   ipcc_emu_profile_names[ipcc_emu_cur_profile]);
	seq_printf(m, "asym %s\n", ipcc_emu_asym_names[ipcc_emu_cur_asym]);
	seq_printf(m, "pcpus %*pbl\n",
		   cpumask_pr_args(&ipcc_emu_cpus[IPCC_EMU_P]));
	seq_printf(m, "ecpus %*pbl\n",
		   cpumask_pr_args(&ipcc_emu_cpus[IPCC_EMU_E]));
	seq_printf(m, "offline %*pbl\n", cpumask_pr_args(untyped));
	mutex_unlock(&ipcc_emu_mutex);

	free_cpumask_var(untyped);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ipcc_emu_profile);

static int ipcc_emu_offline_cpus_show(struct seq_file *m, void *v)
{
	cpumask_var_t untyped;

	if (!alloc_cpumask_var(&untyped, GFP_KERNEL))
		return -ENOMEM;

	mutex_lock(&ipcc_emu_mutex);
	ipcc_emu_untyped(untyped);
	mutex_unlock(&ipcc_emu_mutex);

	seq_printf(m, "%*pbl\n", cpumask_pr_args(untyped));
	free_cpumask_var(untyped);

	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ipcc_emu_offline_cpus);

static int ipcc_emu_priorities_show(struct seq_file *m, void *v)
{
	int cpu;

	for_each_online_cpu(cpu)
		seq_printf(m, "%d %d\n", cpu, arch_asym_cpu_priority(cpu));

	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ipcc_emu_priorities);

static int ipcc_emu_capacities_show(struct seq_file *m, void *v)
{
	int cpu;

	for_each_online_cpu(cpu)
		seq_printf(m, "%d %lu\n", cpu, arch_scale_cpu_capacity(cpu));

	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ipcc_emu_capacities);

/* pcpus and ecpus: the file's private data is the &enum ipcc_emu_type. */
static int ipcc_emu_cpus_show(struct seq_file *m, void *v)
{
	enum ipcc_emu_type type = (uintptr_t)m->private;

	guard(mutex)(&ipcc_emu_mutex);
	seq_printf(m, "%*pbl\n", cpumask_pr_args(&ipcc_emu_cpus[type]));

	return 0;
}

static int ipcc_emu_cpus_open(struct inode *inode, struct file *file)
{
	return single_open(file, ipcc_emu_cpus_show, inode->i_private);
}

static ssize_t ipcc_emu_cpus_write(struct file *file, const char __user *ubuf,
				   size_t cnt, loff_t *ppos)
{
	struct seq_file *m = file->private_data;
	enum ipcc_emu_type type = (uintptr_t)m->private;
	enum ipcc_emu_type peer = type == IPCC_EMU_P ? IPCC_EMU_E : IPCC_EMU_P;
	struct cpumask *masks[IPCC_EMU_NR_TYPES];
	cpumask_var_t new, other;
	size_t len = cnt;
	char *buf;
	int ret;

	buf = ipcc_emu_get_write(ubuf, cnt, IPCC_EMU_CPULIST_MAX, ppos);
	if (IS_ERR(buf))
		return PTR_ERR(buf);

	ret = -ENOMEM;
	if (!alloc_cpumask_var(&new, GFP_KERNEL))
		goto free_buf;
	if (!alloc_cpumask_var(&other, GFP_KERNEL))
		goto free_new;

	/* One trailing newline is allowed; parse_cpus() refuses the rest. */
	if (buf[len - 1] == '\n')
		buf[--len] = '\0';
	ret = -EINVAL;
	if (strlen(buf) != len || ipcc_emu_parse_cpus(buf, new))
		goto free_other;

	masks[type] = new;
	masks[peer] = other;

	mutex_lock(&ipcc_emu_mutex);
	cpumask_copy(other, &ipcc_emu_cpus[peer]);
	if (ipcc_emu_cpus_valid(masks[IPCC_EMU_P], masks[IPCC_EMU_E]))
		ret = ipcc_emu_apply(masks[IPCC_EMU_P], masks[IPCC_EMU_E],
				     ipcc_emu_cur_asym);
	mutex_unlock(&ipcc_emu_mutex);

	if (!ret) {
		*ppos += cnt;
		ret = cnt;
	}
free_other:
	free_cpumask_var(other);
free_new:
	free_cpumask_var(new);
free_buf:
	kfree(buf);
	return ret;
}

static const struct file_operations ipcc_emu_cpus_fops = {
	.open		= ipcc_emu_cpus_open,
	.read		= seq_read,
	.write		= ipcc_emu_cpus_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int ipcc_emu_scores_show(struct seq_file *m, void *v)
{
	unsigned int class;
	int type;

	guard(mutex)(&ipcc_emu_mutex);

	for (type = 0; type < IPCC_EMU_NR_TYPES; type++) {
		for (class = 0; class < ipcc_emu_nr; class++) {
			const struct ipcc_emu_score *s =
				&ipcc_emu_scores[class][type];

			seq_printf(m, "%c %u %u %u\n", ipcc_emu_type_names[type],
				   class, s->perf, s->eff);
		}
	}

	return 0;
}

static ssize_t ipcc_emu_scores_write(struct file *file,
				     const char __user *ubuf, size_t cnt,
				     loff_t *ppos)
{
	struct ipcc_emu_score score;
	enum ipcc_emu_type type;
	unsigned int class;
	char *buf;
	int ret;

	buf = ipcc_emu_get_write(ubuf, cnt, IPCC_EMU_KNOB_MAX, ppos);
	if (IS_ERR(buf))
		return PTR_ERR(buf);

	mutex_lock(&ipcc_emu_mutex);
	ret = ipcc_emu_parse_score(buf, cnt, ipcc_emu_nr, &type, &class,
				   &score);
	if (!ret) {
		/* What an HFI update interrupt does with a new table. */
		write_seqlock(&ipcc_emu_seq);
		ipcc_emu_scores[class][type] = score;
		write_sequnlock(&ipcc_emu_seq);
		sched_ipcc_scores_changed();
	}
	mutex_unlock(&ipcc_emu_mutex);

	kfree(buf);
	if (ret)
		return ret;

	*ppos += cnt;
	return cnt;
}
DEFINE_SHOW_STORE_ATTRIBUTE(ipcc_emu_scores);

static int ipcc_emu_nr_classes_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%u\n", READ_ONCE(ipcc_emu_nr));
	return 0;
}

static ssize_t ipcc_emu_nr_classes_write(struct file *file,
					 const char __user *ubuf, size_t cnt,
					 loff_t *ppos)
{
	unsigned int nr;
	char *buf;
	int ret;

	buf = ipcc_emu_get_write(ubuf, cnt, IPCC_EMU_KNOB_MAX, ppos);
	if (IS_ERR(buf))
		return PTR_ERR(buf);

	ret = ipcc_emu_parse_nr_classes(buf, cnt, &nr);
	kfree(buf);
	if (ret)
		return ret;

	mutex_lock(&ipcc_emu_mutex);
	write_seqlock(&ipcc_emu_seq);
	WRITE_ONCE(ipcc_emu_nr, nr);
	write_sequnlock(&ipcc_emu_seq);
	mutex_unlock(&ipcc_emu_mutex);

	/* The core reads the class count again and rebuilds its cache. */
	sched_ipcc_arch_ready();

	*ppos += cnt;
	return cnt;
}
DEFINE_SHOW_STORE_ATTRIBUTE(ipcc_emu_nr_classes);

static int ipcc_emu_task_class_show(struct seq_file *m, void *v)
{
	struct task_struct *g, *p;

	rcu_read_lock();
	for_each_process_thread(g, p) {
		u8 class = READ_ONCE(p->ipcc.emu_class);
		pid_t pid;

		if (class == IPCC_CLASS_NONE)
			continue;

		pid = task_pid_vnr(p);
		if (pid)
			seq_printf(m, "%d %u\n", pid, class);
	}
	rcu_read_unlock();

	return 0;
}

static ssize_t ipcc_emu_task_class_write(struct file *file,
					 const char __user *ubuf, size_t cnt,
					 loff_t *ppos)
{
	struct task_struct *p;
	pid_t pid;
	char *buf;
	int class, ret;

	buf = ipcc_emu_get_write(ubuf, cnt, IPCC_EMU_KNOB_MAX, ppos);
	if (IS_ERR(buf))
		return PTR_ERR(buf);

	mutex_lock(&ipcc_emu_mutex);
	ret = ipcc_emu_parse_task_class(buf, cnt, ipcc_emu_nr, &pid, &class);
	kfree(buf);
	if (ret)
		goto unlock;

	p = find_get_task_by_vpid(pid);
	if (!p) {
		ret = -ESRCH;
		goto unlock;
	}

	if (p->flags & PF_KTHREAD)
		ret = -EINVAL;
	else
		WRITE_ONCE(p->ipcc.emu_class,
			   class < 0 ? IPCC_CLASS_NONE : class);
	put_task_struct(p);
unlock:
	mutex_unlock(&ipcc_emu_mutex);
	if (ret)
		return ret;

	*ppos += cnt;
	return cnt;
}
DEFINE_SHOW_STORE_ATTRIBUTE(ipcc_emu_task_class);

static void __init ipcc_emu_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("ipcc_emu", NULL);

	debugfs_create_file("profile", 0444, dir, NULL,
			    &ipcc_emu_profile_fops);
	debugfs_create_file("pcpus", 0644, dir,
			    (void *)(uintptr_t)IPCC_EMU_P, &ipcc_emu_cpus_fops);
	debugfs_create_file("ecpus", 0644, dir,
			    (void *)(uintptr_t)IPCC_EMU_E, &ipcc_emu_cpus_fops);
	debugfs_create_file("offline_cpus", 0444, dir, NULL,
			    &ipcc_emu_offline_cpus_fops);
	debugfs_create_file("priorities", 0444, dir, NULL,
			    &ipcc_emu_priorities_fops);
	debugfs_create_file("capacities", 0444, dir, NULL,
			    &ipcc_emu_capacities_fops);
	debugfs_create_file("scores", 0644, dir, NULL, &ipcc_emu_scores_fops);
	debugfs_create_file("nr_classes", 0644, dir, NULL,
			    &ipcc_emu_nr_classes_fops);
	debugfs_create_file("task_class", 0644, dir, NULL,
			    &ipcc_emu_task_class_fops);
}

/*
 * Boot.
 */

/*
 * The parameters are only saved here and parsed by ipcc_emu_init(), once
 * the CPUs are up. A missing value, or one too long for the buffer, is
 * saved as "" and so refused there.
 */
static int __init ipcc_emu_setup(char *s)
{
	ipcc_emu_param_given = true;
	if (!s || strscpy(ipcc_emu_param, s, sizeof(ipcc_emu_param)) < 0) {
		ipcc_emu_param[0] = '\0';
		return -EINVAL;
	}
	return 0;
}
early_param("ipcc_emu", ipcc_emu_setup);

static int __init ipcc_emu_pcores_setup(char *s)
{
	ipcc_emu_pcores_given = true;
	if (!s || strscpy(ipcc_emu_pcores_param, s,
			  sizeof(ipcc_emu_pcores_param)) < 0) {
		ipcc_emu_pcores_param[0] = '\0';
		return -EINVAL;
	}
	return 0;
}
early_param("ipcc_emu_pcores", ipcc_emu_pcores_setup);

/* The P and E lists of @spec, checked against the machine. */
static int __init ipcc_emu_boot_cpus(struct ipcc_emu_spec *spec)
{
	unsigned int pcores = IPCC_EMU_PCORES_DEFAULT;

	if (spec->profile == IPCC_EMU_CUSTOM)
		return ipcc_emu_cpus_valid(spec->pcpus, spec->ecpus) ? 0 :
		       -EINVAL;

	if (ipcc_emu_pcores_given &&
	    (ipcc_emu_parse_dec(ipcc_emu_pcores_param, UINT_MAX, &pcores) ||
	     !pcores)) {
		pr_err("invalid ipcc_emu_pcores=%s\n", ipcc_emu_pcores_param);
		return -EINVAL;
	}

	return ipcc_emu_split_cores(pcores, spec->profile == IPCC_EMU_LNL,
				    spec->pcpus, spec->ecpus);
}

/* Default scores of every class: the named ones, then scalar. */
static void __init ipcc_emu_default_table(void)
{
	unsigned int class, def;

	for (class = 0; class < IPCC_MAX_CLASSES; class++) {
		def = class < IPCC_EMU_NR_CLASSES_DEFAULT ? class : 0;
		memcpy(ipcc_emu_scores[class], ipcc_emu_default_scores[def],
		       sizeof(ipcc_emu_scores[class]));
	}
}

/* Parse, check and apply the boot profile; 0 when the emulation is on. */
static int __init ipcc_emu_start(struct ipcc_emu_spec *spec,
				 struct cpumask *tmp)
{
	int ret;

	if (ipcc_emu_parse_profile(ipcc_emu_param, spec, tmp)) {
		pr_err("malformed ipcc_emu= parameter: emulation disabled\n");
		return -EINVAL;
	}

	ret = ipcc_emu_boot_cpus(spec);
	if (ret) {
		pr_err("%s profile: no online, disjoint P and E CPUs on this machine: emulation disabled\n",
		       ipcc_emu_profile_names[spec->profile]);
		return ret;
	}

	ipcc_emu_default_table();

	mutex_lock(&ipcc_emu_mutex);
	ipcc_emu_cur_profile = spec->profile;
	ret = ipcc_emu_apply(spec->pcpus, spec->ecpus, spec->asym);
	if (!ret) {
		write_seqlock(&ipcc_emu_seq);
		WRITE_ONCE(ipcc_emu_nr, IPCC_EMU_NR_CLASSES_DEFAULT);
		write_sequnlock(&ipcc_emu_seq);
	}
	mutex_unlock(&ipcc_emu_mutex);

	if (ret) {
		pr_err("%s profile: cannot apply the topology (%d): emulation disabled\n",
		       ipcc_emu_profile_names[spec->profile], ret);
		return ret;
	}

	pr_info("%s profile: P-cores %*pbl, E-cores %*pbl, asym %s, %u classes\n",
		ipcc_emu_profile_names[spec->profile],
		cpumask_pr_args(spec->pcpus), cpumask_pr_args(spec->ecpus),
		ipcc_emu_asym_names[spec->asym], IPCC_EMU_NR_CLASSES_DEFAULT);

	return 0;
}

/*
 * After SMP bring-up, like intel_pstate's ITMT and capacity setup, and
 * with the topology masks of the online CPUs in place.
 */
static int __init ipcc_emu_init(void)
{
	struct ipcc_emu_spec spec = { };
	cpumask_var_t pcpus, ecpus, tmp;
	int ret;

	if (!ipcc_emu_param_given)
		return 0;

	if (boot_cpu_has(X86_FEATURE_HYBRID_CPU)) {
		pr_err("real hybrid CPU: emulation disabled\n");
		return 0;
	}

	if (!zalloc_cpumask_var(&pcpus, GFP_KERNEL))
		goto oom;
	if (!zalloc_cpumask_var(&ecpus, GFP_KERNEL))
		goto free_p;
	if (!zalloc_cpumask_var(&tmp, GFP_KERNEL))
		goto free_e;

	spec.pcpus = pcpus;
	spec.ecpus = ecpus;
	ret = ipcc_emu_start(&spec, tmp);

	free_cpumask_var(tmp);
	free_cpumask_var(ecpus);
	free_cpumask_var(pcpus);

	if (!ret) {
		ipcc_emu_debugfs_init();
		/*
		 * From now on the arch hooks are ours (ahead of Thread
		 * Director, should it be present too), and the core reads
		 * the class count and the scores.
		 */
		ret = x86_ipcc_register(&ipcc_emu_ops);
		if (ret)
			pr_err("cannot register the emulated backend (%d)\n",
			       ret);
	}
	return 0;

free_e:
	free_cpumask_var(ecpus);
free_p:
	free_cpumask_var(pcpus);
oom:
	pr_err("out of memory: emulation disabled\n");
	return 0;
}
late_initcall(ipcc_emu_init);

#ifdef CONFIG_X86_IPCC_EMULATION_KUNIT_TEST
#include "ipcc_emu_kunit.h"
#endif
