// SPDX-License-Identifier: GPL-2.0
/*
 * IPC classes (IPCC): hardware task classes for hybrid CPUs.
 *
 * Hybrid CPUs can classify the instruction mix of the running thread
 * (Intel Thread Director, the one backend so far) and publish, per
 * CPU and per class, how well that CPU runs it (performance and energy
 * efficiency scores). This file is the scheduler core of that feature:
 *
 * - it debounces the class read on user ticks into a per-task class
 *   (fork, exec and override rules in <linux/sched/ipcc_types.h>);
 * - it caches the arch's scores, normalised to SCHED_CAPACITY_SCALE, and
 *   answers score and gain queries for the load balancer;
 * - it owns the mode, the static key and the counters.
 *
 * The user interfaces (sysctl, debugfs, /proc) live in ipcc_debug.c. The
 * decisions are pure functions of their arguments, unit tested by
 * tests/ipcc-kunit.h, which is included at the end of this file.
 *
 * Locking:
 *
 * ipcc_mutex   Serialises every writer of the global state: the mode
 *              (sysctl_sched_ipcc), sched_ipcc_key, the class counts, the
 *              score table pointer, the debounce length and overrides.
 *              Taken by the sysctl and debugfs writers, the rebuild work
 *              item and sched_ipcc_arch_ready(); may sleep.
 * rq->lock     The lock of the task's runqueue serialises writers of a
 *              task's struct sched_ipcc_task: the tick holds it; exec and
 *              override writes take task_rq_lock(). sched_fork() writes
 *              a child that nobody else can see yet. The reset of every
 *              task when IPCC is switched runs when no hook can, without
 *              the lock (ipcc_reset_all_tasks()).
 * RCU          Protects the score table. Readers use rcu_read_lock()
 *              (nested inside the load balancer's); the writer publishes
 *              a new table with rcu_assign_pointer() under ipcc_mutex and
 *              frees the old one with kvfree_rcu().
 * (none)       Lockless readers of a task's class and flags use READ_ONCE()
 *              and may act on a value one tick old. Counters are per-CPU
 *              and summed on read.
 *
 * ipcc_mode_mutex  Serialises mode changes (ipcc_set_mode()): the mode
 *              and the arch_ipcc_set_active() call a change of the mode
 *              to or from 0 makes, outside ipcc_mutex.
 *
 * Lock order: ipcc_mode_mutex -> ipcc_mutex; ipcc_mode_mutex -> the
 *             arch's locks (arch_ipcc_set_active());
 *             ipcc_mutex -> cpus_read_lock (static key switching);
 *             ipcc_mutex -> RCU -> p->pi_lock -> rq->lock (task walks,
 *             overrides).
 *
 * Switching on and off: while sched_ipcc_key is off no hook runs, so no
 * task state is maintained and forks copy their parent's state. Every
 * switch therefore resets all tasks to unclassified and drops all
 * overrides (on: before the key goes on; off: after it went off), and
 * overrides can only be set while the key is on. A fork that races a
 * switch off may leave the child of an overridden task showing the
 * override while IPCC is off; the next switch on clears it before any
 * decision can use it.
 */
#include <linux/ctype.h>
#include <linux/kstrtox.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include <linux/mmu_context.h>

#include <asm/irq_regs.h>

#include "sched.h"
#include "ipcc.h"

#define CREATE_TRACE_POINTS
#include <trace/events/ipcc.h>

DEFINE_STATIC_KEY_FALSE(sched_ipcc_key);

/*
 * The default mode is a constant, independent of Kconfig: building
 * CONFIG_SCHED_IPCC in means "use the classes when the hardware has
 * them". The key still only goes on once the arch reports classes.
 */
int sysctl_sched_ipcc __read_mostly = IPCC_MODE_FULL;

static DEFINE_MUTEX(ipcc_mutex);

/* Serialises mode changes, with the arch's hardware switching they cause. */
static DEFINE_MUTEX(ipcc_mode_mutex);

/* arch_ipcc_nr_classes() as last read, and the same capped. */
static unsigned int ipcc_arch_nr __read_mostly;
static unsigned int ipcc_nr __read_mostly;

static unsigned int ipcc_debounce_ticks __read_mostly =
	IPCC_DEBOUNCE_TICKS_DEFAULT;

/*
 * Normalised scores of one (CPU, class) pair, and the best perf score of
 * the class on the CPUs of higher capacity (class misfit).
 */
struct ipcc_cell {
	u16	perf;
	u16	eff;
	u16	bigger;
};

/* Cell value of a pair the arch has no scores for. */
#define IPCC_CELL_UNKNOWN	U16_MAX

/*
 * The score cache: cells[cpu * nr_classes + class]. Immutable once
 * published; replaced as a whole.
 */
struct ipcc_score_table {
	struct rcu_head		rcu;
	unsigned int		nr_classes;
	unsigned int		nr_cpus;
	/* Highest known perf cell of each class, IPCC_CELL_UNKNOWN if none. */
	u16			best_perf[IPCC_MAX_CLASSES];
	/*
	 * Most any class of any CPU gains on a bigger CPU: the largest
	 * bigger - perf of a pair with both known, 0 if none gains.
	 */
	u16			misfit_room;
	unsigned int		nr_cells;
	struct ipcc_cell	cells[] __counted_by(nr_cells);
};

static struct ipcc_score_table __rcu *ipcc_table;

struct ipcc_stats {
	unsigned long	cnt[IPCC_STAT_NR];
};

static DEFINE_PER_CPU(struct ipcc_stats, ipcc_stats);

/*
 * Generic arch hooks: no classes, so IPCC can never be switched on.
 */
unsigned int __weak arch_ipcc_nr_classes(void)
{
	return 0;
}

int __weak arch_ipcc_read_class(struct task_struct *curr)
{
	return -EOPNOTSUPP;
}

int __weak arch_ipcc_get_scores(int cpu, unsigned int class, u8 *perf,
				u8 *eff)
{
	return -ENODATA;
}

void __weak arch_ipcc_set_active(bool on)
{
}

/*
 * Pure helpers: per-task state transitions.
 */

static int ipcc_class_to_int(u8 class)
{
	return class == IPCC_CLASS_NONE ? -1 : class;
}

static void ipcc_cand_reset(struct sched_ipcc_task *st)
{
	st->cand = IPCC_CLASS_NONE;
	st->cnt = 0;
}

static void ipcc_mix_reset(struct sched_ipcc_task *st)
{
	unsigned int c;

	for (c = 0; c < IPCC_MIX_CLASSES; c++)
		WRITE_ONCE(st->mix[c], 0);
}

/*
 * The weight in a task's class mix, %IPCC_MIX_ONE once full. Its own
 * tick writes the mix; a balancing CPU reads it without a lock.
 */
static unsigned int ipcc_mix_total(const struct sched_ipcc_task *st)
{
	unsigned int c, total = 0;

	for (c = 0; c < IPCC_MIX_CLASSES; c++)
		total += READ_ONCE(st->mix[c]);

	return total;
}

/*
 * A new candidate @read: note whether it is new to a long phase
 * (%IPCC_TASK_STEADY): the mix is full, at least fifteen sixteenths of
 * its weight (21 readings since it was last emptied), and the candidate
 * holds less than a sixteenth of it (one reading's weight falls below
 * that six readings later). A class the hardware keeps changing to and
 * from holds more of a mature mix: a class flipping 50 times a second,
 * as vector work does on Raptor Lake, passes for new only after a run of
 * 16 readings of the other class, 5% of its debounced changes in a
 * simulation of the rpl model's flapping. A young mix (just after fork,
 * or after the last phase change) tells nothing yet. What else the phase
 * held does not matter: a spin-wait task whose readings are a tenth
 * class 0 (the ticks just after a context switch) still changes phase
 * when it turns to vector work.
 */
static void ipcc_note_steady(struct sched_ipcc_task *st, int read)
{
	unsigned int total = ipcc_mix_total(st);
	bool steady;
	u8 flags;

	steady = 16 * total >= 15 * IPCC_MIX_ONE &&
		 (read >= IPCC_MIX_CLASSES || 16 * st->mix[read] < IPCC_MIX_ONE);

	flags = steady ? st->flags | IPCC_TASK_STEADY :
			 st->flags & ~IPCC_TASK_STEADY;
	if (flags != st->flags)
		WRITE_ONCE(st->flags, flags);
}

/* Unclassified, not overridden, no candidate: a new task. */
static void ipcc_task_init(struct sched_ipcc_task *st)
{
	WRITE_ONCE(st->class, IPCC_CLASS_NONE);
	WRITE_ONCE(st->flags, 0);
	ipcc_cand_reset(st);
	ipcc_mix_reset(st);
	WRITE_ONCE(st->lag, 0);
}

/* exec: start afresh, but an override survives. */
static void ipcc_task_exec(struct sched_ipcc_task *st)
{
	if (st->flags & IPCC_TASK_OVERRIDDEN) {
		ipcc_cand_reset(st);
		ipcc_mix_reset(st);
	} else {
		ipcc_task_init(st);
	}
}

static void ipcc_task_pin(struct sched_ipcc_task *st, u8 class)
{
	WRITE_ONCE(st->class, class);
	WRITE_ONCE(st->flags, st->flags | IPCC_TASK_OVERRIDDEN);
	ipcc_cand_reset(st);
	ipcc_mix_reset(st);
}

/**
 * ipcc_debounce() - feed one class reading into a task's debounce
 * @st:   the task's state
 * @read: the reading: a class, %IPCC_CLASS_NONE or any value of at least
 *        %IPCC_MAX_CLASSES for "a class the core does not track", or a
 *        negative errno when the hardware had no valid class
 * @k:    number of consecutive identical readings needed, at least 1
 *
 * A different class becomes the task's class once it was read on @k
 * consecutive ticks. Reading the current class drops the candidate. An
 * invalid reading neither counts nor keeps the candidate: the run of
 * agreeing readings must be uninterrupted, so that a phase the hardware
 * could not classify (e.g. just after its history was reset) never
 * completes a change. An overridden task is never changed.
 *
 * A change to a class that was new to a full mix when it first appeared
 * as the candidate (%IPCC_TASK_STEADY) is a change of phase, not the
 * hardware flapping: the mix is emptied, so that the task goes by its new
 * class at once rather than after the old readings have faded.
 *
 * Return: true when the task's class changed.
 */
static bool ipcc_debounce(struct sched_ipcc_task *st, int read, unsigned int k)
{
	if (st->flags & IPCC_TASK_OVERRIDDEN)
		return false;

	if (read < 0) {
		ipcc_cand_reset(st);
		return false;
	}

	if (read >= IPCC_MAX_CLASSES)
		read = IPCC_CLASS_NONE;

	if (read == st->class) {
		ipcc_cand_reset(st);
		return false;
	}

	if (!st->cnt || read != st->cand) {
		ipcc_note_steady(st, read);
		st->cand = read;
		st->cnt = 0;
	}
	if (st->cnt < U8_MAX)
		st->cnt++;
	if (st->cnt < k)
		return false;

	WRITE_ONCE(st->class, read);
	if (st->flags & IPCC_TASK_STEADY)
		ipcc_mix_reset(st);
	ipcc_cand_reset(st);
	return true;
}

/**
 * ipcc_mix_shift() - how fast a class mix forgets, from the debounce length
 * @k: the debounce length, at least 1
 *
 * Each reading takes 1/2^shift of the mix: with the default debounce of
 * 4 ticks, an eighth, so that the mix spans about 8 readings (32 ms at
 * HZ=250), twice the debounce. A real phase change then outweighs the old
 * class after 6 readings. The price is a mix that still swings with a
 * class flipping 50 times a second, as vector work does on Raptor Lake:
 * around its mean of about a half, by a quarter either way; a longer mix
 * would be steadier and slower to follow a phase change.
 *
 * Return: the shift, 1..9 for @k of 1..%U8_MAX.
 */
static unsigned int ipcc_mix_shift(unsigned int k)
{
	return order_base_2(clamp(k, 1U, (unsigned int)U8_MAX)) + 1;
}

/**
 * ipcc_mix_add() - feed one class reading into a task's class mix
 * @st:    the task's state
 * @read:  the reading, as for ipcc_debounce()
 * @shift: ipcc_mix_shift() of the debounce length
 *
 * A valid reading of a class the mix tracks takes 1/2^@shift of the
 * weight from every class and gives it to its own. An invalid reading
 * changes nothing (the hardware did not say what the task does); a class
 * beyond %IPCC_MIX_CLASSES empties the mix, so that the task goes by its
 * debounced class. An overridden task's mix stays empty.
 */
static void ipcc_mix_add(struct sched_ipcc_task *st, int read,
			 unsigned int shift)
{
	unsigned int c;
	u16 w;

	if (st->flags & IPCC_TASK_OVERRIDDEN || read < 0)
		return;
	if (read >= IPCC_MIX_CLASSES) {
		ipcc_mix_reset(st);
		return;
	}

	for (c = 0; c < IPCC_MIX_CLASSES; c++) {
		w = st->mix[c] - (st->mix[c] >> shift);
		if (c == read)
			w += IPCC_MIX_ONE >> shift;
		WRITE_ONCE(st->mix[c], w);
	}
}

/**
 * ipcc_classify() - feed one class reading into a task's class state
 * @st:   the task's state
 * @read: the reading, as for ipcc_debounce()
 * @k:    the debounce length, at least 1
 *
 * The debounce sees the reading first, so that it judges a new candidate
 * against the mix before that reading; then the mix takes it.
 *
 * Return: true when the task's class changed.
 */
static bool ipcc_classify(struct sched_ipcc_task *st, int read,
			  unsigned int k)
{
	bool changed = ipcc_debounce(st, read, k);

	ipcc_mix_add(st, read, ipcc_mix_shift(k));
	return changed;
}

/* Whether @st has a class or a mix to go by. */
static bool ipcc_task_known(const struct sched_ipcc_task *st)
{
	return READ_ONCE(st->class) != IPCC_CLASS_NONE || ipcc_mix_total(st);
}

/*
 * Pure helpers: scores.
 */

/* Raw hardware score (0..255) to the common 0..1024 scale, rounded. */
static u16 ipcc_norm_score(u8 raw)
{
	return DIV_ROUND_CLOSEST((unsigned int)raw * IPCC_SCORE_SCALE,
				 IPCC_RAW_SCORE_MAX);
}

/* A normalised cell value, or -1 when there is none. */
static int ipcc_table_cell(const struct ipcc_score_table *t, int cpu,
			   int class, bool eff)
{
	const struct ipcc_cell *c;
	u16 v;

	if (!t || class < 0 || (unsigned int)class >= t->nr_classes ||
	    cpu < 0 || (unsigned int)cpu >= t->nr_cpus)
		return -1;

	c = &t->cells[(unsigned int)cpu * t->nr_classes + class];
	v = eff ? c->eff : c->perf;

	return v == IPCC_CELL_UNKNOWN ? -1 : v;
}

/*
 * The best perf score of @class on the CPUs of more capacity than @cpu,
 * or -1 when there is none or none has a score.
 */
static int ipcc_table_bigger(const struct ipcc_score_table *t, int cpu,
			     int class)
{
	u16 v;

	if (!t || class < 0 || (unsigned int)class >= t->nr_classes ||
	    cpu < 0 || (unsigned int)cpu >= t->nr_cpus)
		return -1;

	v = t->cells[(unsigned int)cpu * t->nr_classes + class].bigger;

	return v == IPCC_CELL_UNKNOWN ? -1 : v;
}

static int ipcc_table_score(const struct ipcc_score_table *t, int cpu,
			    int class, bool eff)
{
	int v = ipcc_table_cell(t, cpu, class, eff);

	return v < 0 ? IPCC_SCORE_NEUTRAL : v;
}

static int ipcc_table_gain_smt(const struct ipcc_score_table *t, int class,
			       int src_cpu, int dst_cpu, bool src_shared,
			       bool dst_shared)
{
	int src = ipcc_table_cell(t, src_cpu, class, false);
	int dst = ipcc_table_cell(t, dst_cpu, class, false);

	if (src < 0 || dst < 0)
		return 0;

	return ipcc_gain(ipcc_smt_score(dst, dst_shared),
			 ipcc_smt_score(src, src_shared));
}

/*
 * How much better @class performs on the best CPU of the table than on
 * @cpu: never negative; 0 when either score is unknown.
 */
static int ipcc_table_headroom(const struct ipcc_score_table *t, int class,
			       int cpu)
{
	int here = ipcc_table_cell(t, cpu, class, false);

	if (here < 0 || t->best_perf[class] == IPCC_CELL_UNKNOWN)
		return 0;

	return max(ipcc_gain(t->best_perf[class], here), 0);
}

/**
 * struct ipcc_mix - one reading of a task's class state
 * @w:          the weights of the table's classes in the task's mix (the
 *              classes the table lacks read 0)
 * @total:      their sum
 * @class:      the task's debounced class, -1 when it has none
 * @overridden: the class was set by hand (%IPCC_TASK_OVERRIDDEN)
 *
 * The tick of the CPU the task runs on updates its state while another CPU
 * may be weighing it: every estimate of one decision comes from one
 * reading.
 */
struct ipcc_mix {
	u16		w[IPCC_MIX_CLASSES];
	unsigned int	total;
	int		class;
	bool		overridden;
};

static void ipcc_mix_read(const struct sched_ipcc_task *st, unsigned int nr,
			  struct ipcc_mix *m)
{
	unsigned int c;

	m->total = 0;
	for (c = 0; c < IPCC_MIX_CLASSES; c++) {
		m->w[c] = c < nr ? READ_ONCE(st->mix[c]) : 0;
		m->total += m->w[c];
	}
	m->class = ipcc_class_to_int(READ_ONCE(st->class));
	m->overridden = READ_ONCE(st->flags) & IPCC_TASK_OVERRIDDEN;
}

/**
 * ipcc_mix_weight() - the weight of the mix a task goes by
 * @m:     a reading of the task's state
 * @whole: go by the whole mix even where the class dominates it
 *
 * A task whose debounced class holds at least three quarters of its mix
 * goes by that class alone: its hardware classifies it cleanly, and the
 * rest of the mix is the odd misreading (the first reading after a
 * context switch, say) that the debounce exists to filter. The mix
 * counts where the hardware keeps changing its mind. With @whole it
 * counts even then (ipcc_task_turn_gain_smt()).
 *
 * Return: the total weight, or 0 when the task goes by its class alone:
 * it is overridden, its mix is empty, or (unless @whole) its class
 * dominates the mix.
 */
static unsigned int ipcc_mix_weight(const struct ipcc_mix *m, bool whole)
{
	if (m->overridden)
		return 0;
	if (!whole && m->class >= 0 && m->class < IPCC_MIX_CLASSES &&
	    4 * m->w[m->class] >= 3 * m->total)
		return 0;

	return m->total;
}

/* The task's ipcc_table_gain_smt(), by @m (with @whole, see above). */
static int ipcc_mix_gain(const struct ipcc_score_table *t,
			 const struct ipcc_mix *m, int src_cpu, int dst_cpu,
			 bool src_shared, bool dst_shared, bool whole)
{
	unsigned int c, total = ipcc_mix_weight(m, whole);
	int sum = 0;

	if (!total)
		return ipcc_table_gain_smt(t, m->class, src_cpu, dst_cpu,
					   src_shared, dst_shared);

	for (c = 0; c < IPCC_MIX_CLASSES; c++) {
		if (m->w[c])
			sum += m->w[c] * ipcc_table_gain_smt(t, c, src_cpu,
							     dst_cpu,
							     src_shared,
							     dst_shared);
	}

	return DIV_ROUND_CLOSEST(sum, (int)total);
}

/*
 * ipcc_table_task_gain(), or with @whole the gain by the task's whole mix
 * (ipcc_mix_weight()).
 */
static int ipcc_table_mix_gain(const struct ipcc_score_table *t,
			       const struct sched_ipcc_task *st, int src_cpu,
			       int dst_cpu, bool src_shared, bool dst_shared,
			       bool whole)
{
	struct ipcc_mix m;

	if (!t)
		return 0;

	ipcc_mix_read(st, t->nr_classes, &m);
	return ipcc_mix_gain(t, &m, src_cpu, dst_cpu, src_shared, dst_shared,
			     whole);
}

/**
 * ipcc_table_task_gain() - a task's expected gain between two CPUs
 * @t:          the score table, or NULL
 * @st:         the task's state
 * @src_cpu:    where the task would leave
 * @dst_cpu:    where it would go
 * @src_shared: another SMT thread of @src_cpu's core is busy
 * @dst_shared: the same of @dst_cpu
 *
 * The gains of the classes of @st's mix (ipcc_table_gain_smt()), weighted
 * by it: what the move is worth if the task goes on doing what it did. A
 * task whose class flaps between two values counts for each in
 * proportion, rather than for whichever it read last. An overridden task,
 * or one with an empty mix, goes by its class alone.
 *
 * Return: the gain, 0 when unknown.
 */
static int ipcc_table_task_gain(const struct ipcc_score_table *t,
				const struct sched_ipcc_task *st, int src_cpu,
				int dst_cpu, bool src_shared, bool dst_shared)
{
	return ipcc_table_mix_gain(t, st, src_cpu, dst_cpu, src_shared,
				   dst_shared, false);
}

/* ipcc_task_turn_gain_smt() for a score table: both estimates, one reading. */
static int ipcc_table_turn_gain(const struct ipcc_score_table *t,
				const struct sched_ipcc_task *st, int src_cpu,
				int dst_cpu, bool src_shared, bool dst_shared)
{
	struct ipcc_mix m;

	if (!t)
		return 0;

	ipcc_mix_read(st, t->nr_classes, &m);
	return min(ipcc_mix_gain(t, &m, src_cpu, dst_cpu, src_shared,
				 dst_shared, false),
		   ipcc_mix_gain(t, &m, src_cpu, dst_cpu, src_shared,
				 dst_shared, true));
}

/*
 * ipcc_table_headroom() of a task, weighted by its mix as in
 * ipcc_table_task_gain().
 */
static int ipcc_table_task_headroom(const struct ipcc_score_table *t,
				    const struct sched_ipcc_task *st, int cpu)
{
	unsigned int c, total, sum = 0;
	struct ipcc_mix m;

	if (!t)
		return 0;

	ipcc_mix_read(st, t->nr_classes, &m);
	total = ipcc_mix_weight(&m, false);
	if (!total)
		return ipcc_table_headroom(t, m.class, cpu);

	for (c = 0; c < IPCC_MIX_CLASSES; c++) {
		if (m.w[c])
			sum += m.w[c] * ipcc_table_headroom(t, c, cpu);
	}

	return DIV_ROUND_CLOSEST(sum, total);
}

/* A perf score of @class: on @cpu, or (@bigger) on a CPU bigger than it. */
static int ipcc_table_perf(const struct ipcc_score_table *t, int cpu,
			   int class, bool bigger)
{
	return bigger ? ipcc_table_bigger(t, cpu, class) :
			ipcc_table_cell(t, cpu, class, false);
}

/*
 * ipcc_table_perf() of a task, weighted by its mix as in
 * ipcc_table_task_gain(); -1 when unknown, or when a class of the mix has
 * no such score.
 */
static int ipcc_table_task_perf(const struct ipcc_score_table *t,
				const struct sched_ipcc_task *st, int cpu,
				bool bigger)
{
	unsigned int c, total, sum = 0;
	struct ipcc_mix m;
	int v;

	if (!t)
		return -1;

	ipcc_mix_read(st, t->nr_classes, &m);
	total = ipcc_mix_weight(&m, false);
	if (!total)
		return ipcc_table_perf(t, cpu, m.class, bigger);

	for (c = 0; c < IPCC_MIX_CLASSES; c++) {
		if (!m.w[c])
			continue;
		v = ipcc_table_perf(t, cpu, c, bigger);
		if (v < 0)
			return -1;
		sum += m.w[c] * v;
	}

	return DIV_ROUND_CLOSEST(sum, total);
}

/*
 * Pure helpers: parsing of knob writes.
 */

static bool ipcc_all_digits(const char *s)
{
	if (!*s)
		return false;

	for (; *s; s++) {
		if (!isdigit(*s))
			return false;
	}

	return true;
}

/*
 * Copy a knob write into @tmp (IPCC_KNOB_MAX_LEN + 1 bytes), drop one
 * trailing newline and refuse empty, overlong and NUL-containing input.
 */
static int ipcc_copy_knob(char *tmp, const char *buf, size_t len)
{
	if (!len || len > IPCC_KNOB_MAX_LEN)
		return -EINVAL;

	memcpy(tmp, buf, len);
	tmp[len] = '\0';
	if (tmp[len - 1] == '\n')
		tmp[--len] = '\0';

	if (!len || strlen(tmp) != len)
		return -EINVAL;

	return 0;
}

/**
 * ipcc_parse_uint() - strictly parse a decimal knob value
 * @buf: the bytes written, not necessarily NUL-terminated
 * @len: their number
 * @min: smallest accepted value
 * @max: largest accepted value
 * @val: where the value is stored on success
 *
 * Accepts decimal digits only, optionally followed by one newline: no
 * sign, no base prefix, no blanks, a single value, at most
 * %IPCC_KNOB_MAX_LEN bytes.
 *
 * Return: 0 on success; -EINVAL otherwise, with @val untouched.
 */
int ipcc_parse_uint(const char *buf, size_t len, unsigned int min,
		    unsigned int max, unsigned int *val)
{
	char tmp[IPCC_KNOB_MAX_LEN + 1];
	unsigned int v;

	if (ipcc_copy_knob(tmp, buf, len) || !ipcc_all_digits(tmp))
		return -EINVAL;

	if (kstrtouint(tmp, 10, &v) || v < min || v > max)
		return -EINVAL;

	*val = v;
	return 0;
}

/**
 * ipcc_parse_override() - parse a write to the ``override`` knob
 * @buf:        the bytes written
 * @len:        their number
 * @nr_classes: number of valid classes
 * @pid:        where the PID is stored on success
 * @class:      where the class, or -1 for "clear", is stored on success
 *
 * The format is ``PID CLASS``: a decimal PID above 0, blanks (spaces or
 * tabs), then either a decimal class below @nr_classes (and below
 * %IPCC_MAX_CLASSES) or exactly ``-1``; optionally one trailing newline;
 * at most %IPCC_KNOB_MAX_LEN bytes. Signs other than the ``-`` of
 * ``-1``, base prefixes, extra fields and values that overflow are
 * rejected.
 *
 * Return: 0 on success; -EINVAL otherwise, with @pid and @class
 * untouched.
 */
int ipcc_parse_override(const char *buf, size_t len, unsigned int nr_classes,
			pid_t *pid, int *class)
{
	char tmp[IPCC_KNOB_MAX_LEN + 1];
	char *pid_str, *class_str;
	unsigned int p, c;

	if (ipcc_copy_knob(tmp, buf, len))
		return -EINVAL;

	class_str = tmp;
	pid_str = strsep(&class_str, " \t");
	if (!class_str)
		return -EINVAL;
	while (*class_str == ' ' || *class_str == '\t')
		class_str++;

	if (!ipcc_all_digits(pid_str) || kstrtouint(pid_str, 10, &p) ||
	    !p || p > INT_MAX)
		return -EINVAL;

	if (!strcmp(class_str, "-1")) {
		*pid = p;
		*class = -1;
		return 0;
	}

	if (!ipcc_all_digits(class_str) || kstrtouint(class_str, 10, &c) ||
	    c >= nr_classes || c >= IPCC_MAX_CLASSES)
		return -EINVAL;

	*pid = p;
	*class = c;
	return 0;
}

/*
 * Score cache.
 */

/* The signature of arch_ipcc_get_scores(); KUnit passes its own. */
typedef int (*ipcc_get_scores_fn)(int cpu, unsigned int class, u8 *perf,
				  u8 *eff);
typedef unsigned long (*ipcc_get_capacity_fn)(int cpu);

/* A CPU and its capacity, sorted by decreasing capacity. */
struct ipcc_cap_rank {
	unsigned long	cap;
	int		cpu;
};

static int ipcc_cap_rank_cmp(const void *a, const void *b)
{
	const struct ipcc_cap_rank *x = a, *y = b;

	if (x->cap != y->cap)
		return x->cap < y->cap ? 1 : -1;
	return x->cpu - y->cpu;
}

/*
 * Fill the bigger cell of every pair of @t: the best known perf score of
 * the class on the CPUs whose capacity (@cap) exceeds the pair's CPU's;
 * and @t's misfit_room, the most a pair's bigger cell exceeds its perf
 * cell.
 * A sweep over the CPUs by decreasing capacity keeps the best score seen
 * so far per class; a run of equal capacities reads it before adding to
 * it. O(n log n) in the possible CPUs, done once per table, so that the
 * misfit check on the pick and tick paths reads a single cell.
 */
static int ipcc_fill_bigger(struct ipcc_score_table *t, ipcc_get_capacity_fn cap)
{
	unsigned int nr = t->nr_classes, n = 0, i, j, class;
	u16 best[IPCC_MAX_CLASSES];
	struct ipcc_cap_rank *rank;
	int cpu;

	rank = kvmalloc_array(nr_cpu_ids, sizeof(*rank), GFP_KERNEL);
	if (!rank)
		return -ENOMEM;

	for_each_possible_cpu(cpu) {
		rank[n].cap = cap(cpu);
		rank[n++].cpu = cpu;
	}
	sort(rank, n, sizeof(*rank), ipcc_cap_rank_cmp, NULL);

	memset(best, 0xff, sizeof(best));
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && rank[j].cap == rank[i].cap; j++) {
			struct ipcc_cell *c = &t->cells[rank[j].cpu * nr];

			for (class = 0; class < nr; class++) {
				c[class].bigger = best[class];
				if (best[class] != IPCC_CELL_UNKNOWN &&
				    c[class].perf != IPCC_CELL_UNKNOWN &&
				    best[class] > c[class].perf)
					t->misfit_room = max_t(u16, t->misfit_room,
							       best[class] -
							       c[class].perf);
			}
		}
		for (j = i; j < n && rank[j].cap == rank[i].cap; j++) {
			struct ipcc_cell *c = &t->cells[rank[j].cpu * nr];

			for (class = 0; class < nr; class++) {
				if (c[class].perf == IPCC_CELL_UNKNOWN)
					continue;
				if (best[class] == IPCC_CELL_UNKNOWN ||
				    c[class].perf > best[class])
					best[class] = c[class].perf;
			}
		}
	}

	kvfree(rank);
	return 0;
}

/*
 * A new score table from @get, with the CPU capacities @cap. Pairs @get
 * has no data for stay unknown (neutral); a 0 score stays 0 ("do not use
 * this CPU for the class").
 */
static struct ipcc_score_table *ipcc_build_table(unsigned int nr_classes,
						 ipcc_get_scores_fn get,
						 ipcc_get_capacity_fn cap)
{
	unsigned int nr_cells = nr_cpu_ids * nr_classes;
	struct ipcc_score_table *t;
	unsigned int class;
	int cpu;

	t = kvzalloc(struct_size(t, cells, nr_cells), GFP_KERNEL);
	if (!t)
		return NULL;

	t->nr_cells = nr_cells;
	t->nr_classes = nr_classes;
	t->nr_cpus = nr_cpu_ids;
	memset(t->cells, 0xff, flex_array_size(t, cells, nr_cells));
	memset(t->best_perf, 0xff, sizeof(t->best_perf));

	for_each_possible_cpu(cpu) {
		for (class = 0; class < nr_classes; class++) {
			struct ipcc_cell *c = &t->cells[cpu * nr_classes + class];
			u16 *best = &t->best_perf[class];
			u8 perf, eff;

			if (get(cpu, class, &perf, &eff))
				continue;

			c->perf = ipcc_norm_score(perf);
			c->eff = ipcc_norm_score(eff);
			if (*best == IPCC_CELL_UNKNOWN || c->perf > *best)
				*best = c->perf;
		}
	}

	if (ipcc_fill_bigger(t, cap)) {
		kvfree(t);
		return NULL;
	}

	return t;
}

/* The capacity the scheduler's asymmetry machinery sees. */
static unsigned long ipcc_cpu_capacity(int cpu)
{
	return arch_scale_cpu_capacity(cpu);
}

/*
 * The task walk of ipcc_reset_all_tasks() leaves its RCU read-side
 * section and may reschedule after this many tasks.
 */
#define IPCC_RESET_BATCH	1024

/* A walk that lost its place this many times finishes without breaks. */
#define IPCC_RESET_RESTARTS	3

/*
 * Leave the task walk's RCU read-side section to let the CPU reschedule,
 * keeping @g and @t pinned. Return whether the walk may go on from them:
 * false when either exited meanwhile and left the task lists.
 */
static bool ipcc_walk_break(struct task_struct *g, struct task_struct *t)
{
	bool alive;

	get_task_struct(g);
	get_task_struct(t);
	rcu_read_unlock();
	cond_resched();
	rcu_read_lock();
	alive = pid_alive(g) && pid_alive(t);
	put_task_struct(t);
	put_task_struct(g);

	return alive;
}

/**
 * ipcc_reset_walk() - reset the state of every task
 * @batch: tasks reset between two breaks of the walk; 0 for no break
 *
 * Called with sched_ipcc_key off and no hook running (see
 * ipcc_reset_all_tasks()), so it takes no runqueue lock. Every @batch
 * tasks it leaves the RCU read-side section and may reschedule; when a
 * task it held on to exited meanwhile, it starts over (resetting a task
 * twice does no harm), and after %IPCC_RESET_RESTARTS such restarts it
 * finishes in one section.
 *
 * Return: the number of breaks taken.
 */
static unsigned int ipcc_reset_walk(unsigned int batch)
{
	unsigned int n = 0, breaks = 0, restarts = 0;
	struct task_struct *g, *t;

	rcu_read_lock();
again:
	for_each_process_thread(g, t) {
		ipcc_task_init(&t->ipcc);
		if (!batch || ++n % batch)
			continue;
		breaks++;
		if (ipcc_walk_break(g, t))
			continue;
		if (++restarts >= IPCC_RESET_RESTARTS)
			batch = 0;
		goto again;
	}
	rcu_read_unlock();

	return breaks;
}

/*
 * Reset every task's state; see "Switching on and off" above. The hooks
 * that write a task's state (tick, exec, fork, class misfit) run only
 * with sched_ipcc_key on, and write with interrupts or preemption
 * disabled; overrides are set under ipcc_mutex, which the caller holds.
 * Going on, the key is still off; going off, synchronize_rcu() after the
 * key went off waits for the hooks that were already writing. (An exec
 * or a fork that tested the key just before it went off may still write
 * later; it writes what the reset writes.) So the reset needs no
 * runqueue lock, and it breaks its walk (ipcc_reset_walk()) so that a
 * system with many tasks still reschedules.
 */
static void ipcc_reset_all_tasks(void)
{
	lockdep_assert_held(&ipcc_mutex);

	ipcc_reset_walk(IPCC_RESET_BATCH);
}

static void ipcc_set_key_locked(bool on)
{
	lockdep_assert_held(&ipcc_mutex);

	if (on == static_key_enabled(&sched_ipcc_key))
		return;

	if (on) {
		ipcc_reset_all_tasks();
		static_branch_enable(&sched_ipcc_key);
	} else {
		static_branch_disable(&sched_ipcc_key);
		/* Wait for the hooks still running; no new one starts. */
		synchronize_rcu();
		ipcc_reset_all_tasks();
	}
}

/*
 * Read the class count and all scores again, publish them and switch the
 * key to match. On allocation failure the previous scores stay in use.
 */
static void ipcc_update_locked(void)
{
	struct ipcc_score_table *old, *new = NULL;
	unsigned int arch_nr, nr;

	lockdep_assert_held(&ipcc_mutex);

	arch_nr = arch_ipcc_nr_classes();
	nr = min_t(unsigned int, arch_nr, IPCC_MAX_CLASSES);

	old = rcu_dereference_protected(ipcc_table,
					lockdep_is_held(&ipcc_mutex));
	if (nr) {
		new = ipcc_build_table(nr, arch_ipcc_get_scores,
				       ipcc_cpu_capacity);
		if (!new) {
			pr_warn_once("sched/ipcc: no memory for the score cache\n");
			new = old;
		}
	}

	if (new != old) {
		rcu_assign_pointer(ipcc_table, new);
		if (old)
			kvfree_rcu(old, rcu);
		ipcc_misfit_update();
	}

	WRITE_ONCE(ipcc_arch_nr, arch_nr);
	WRITE_ONCE(ipcc_nr, nr);

	ipcc_set_key_locked(READ_ONCE(sysctl_sched_ipcc) != IPCC_MODE_OFF &&
			    nr && new);
}

static void ipcc_update_workfn(struct work_struct *work)
{
	mutex_lock(&ipcc_mutex);
	ipcc_update_locked();
	mutex_unlock(&ipcc_mutex);
}

static DECLARE_WORK(ipcc_update_work, ipcc_update_workfn);

void sched_ipcc_scores_changed(void)
{
	schedule_work(&ipcc_update_work);
}

void sched_ipcc_arch_ready(void)
{
	mutex_lock(&ipcc_mutex);
	ipcc_update_locked();
	mutex_unlock(&ipcc_mutex);
}

unsigned int sched_ipcc_nr_classes(void)
{
	return READ_ONCE(ipcc_nr);
}

int sched_ipcc_task_class(const struct task_struct *p)
{
	return ipcc_class_to_int(READ_ONCE(p->ipcc.class));
}

int sched_ipcc_score(int cpu, int class)
{
	guard(rcu)();
	return ipcc_table_score(rcu_dereference(ipcc_table), cpu, class, false);
}

int sched_ipcc_eff(int cpu, int class)
{
	guard(rcu)();
	return ipcc_table_score(rcu_dereference(ipcc_table), cpu, class, true);
}

int sched_ipcc_task_gain(struct task_struct *p, int src_cpu, int dst_cpu)
{
	return sched_ipcc_task_gain_smt(p, src_cpu, dst_cpu, false, false);
}

int sched_ipcc_task_gain_smt(struct task_struct *p, int src_cpu, int dst_cpu,
			     bool src_shared, bool dst_shared)
{
	guard(rcu)();
	return ipcc_table_task_gain(rcu_dereference(ipcc_table), &p->ipcc,
				    src_cpu, dst_cpu, src_shared, dst_shared);
}

/**
 * ipcc_task_turn_gain_smt() - gain of a task giving up its CPU for a turn
 * @p:          the task
 * @src_cpu:    the CPU it would leave
 * @dst_cpu:    the CPU it would move to
 * @src_shared: another SMT thread of @src_cpu's core runs a task
 * @dst_shared: another SMT thread of @dst_cpu's core runs a task
 *
 * The lower of sched_ipcc_task_gain_smt() and the gain by the task's whole
 * class mix (ipcc_mix_weight()): a class that flaps between two values now
 * and then holds three quarters of the mix, and the task then passes for
 * one of that class alone, while its mix still says what it did over the
 * longer run. A turn (ipcc_rotate_candidate()) must cost the task that
 * gives up a faster CPU nothing by either estimate.
 *
 * Return: the gain in normalised units; 0 when @p is unclassified or
 * either CPU has no score for its classes.
 */
int ipcc_task_turn_gain_smt(struct task_struct *p, int src_cpu, int dst_cpu,
			    bool src_shared, bool dst_shared)
{
	guard(rcu)();
	return ipcc_table_turn_gain(rcu_dereference(ipcc_table), &p->ipcc,
				    src_cpu, dst_cpu, src_shared, dst_shared);
}

bool sched_ipcc_task_known(const struct task_struct *p)
{
	return ipcc_task_known(&p->ipcc);
}

int sched_ipcc_task_score(struct task_struct *p, int cpu, bool bigger)
{
	guard(rcu)();
	return ipcc_table_task_perf(rcu_dereference(ipcc_table), &p->ipcc,
				    cpu, bigger);
}

int sched_ipcc_misfit_room(void)
{
	const struct ipcc_score_table *t;

	guard(rcu)();
	t = rcu_dereference(ipcc_table);
	return t ? t->misfit_room : 0;
}

/*
 * Counters.
 */

void sched_ipcc_stat_inc(enum ipcc_stat stat)
{
	if (WARN_ON_ONCE((unsigned int)stat >= IPCC_STAT_NR))
		return;

	this_cpu_inc(ipcc_stats.cnt[stat]);
}

/**
 * ipcc_stat_read() - sum of one counter over all CPUs
 * @stat: the counter
 *
 * Return: the sum; 0 for an invalid @stat.
 */
u64 ipcc_stat_read(enum ipcc_stat stat)
{
	u64 sum = 0;
	int cpu;

	if ((unsigned int)stat >= IPCC_STAT_NR)
		return 0;

	for_each_possible_cpu(cpu)
		sum += per_cpu_ptr(&ipcc_stats, cpu)->cnt[stat];

	return sum;
}

void sched_ipcc_account_balance(enum ipcc_stat kind, struct task_struct *p,
				int src_cpu, int dst_cpu, int gain)
{
	sched_ipcc_stat_inc(kind);
	trace_sched_ipcc_balance(src_cpu, dst_cpu, task_pid_nr(p),
				 sched_ipcc_task_class(p), gain, kind);
}

int sched_ipcc_task_headroom(struct task_struct *p, int cpu)
{
	guard(rcu)();
	return ipcc_table_task_headroom(rcu_dereference(ipcc_table), &p->ipcc,
					cpu);
}

/*
 * Hooks.
 */

void __sched_ipcc_fork(struct task_struct *p)
{
	ipcc_task_init(&p->ipcc);
}

void __sched_ipcc_exec(struct task_struct *p)
{
	struct rq_flags rf;
	struct rq *rq;

	rq = task_rq_lock(p, &rf);
	ipcc_task_exec(&p->ipcc);
	task_rq_unlock(rq, p, &rf);
}

void __sched_ipcc_tick(struct rq *rq, struct task_struct *curr)
{
	struct sched_ipcc_task *st = &curr->ipcc;
	struct pt_regs *regs = get_irq_regs();
	u8 old = st->class;
	int read;

	lockdep_assert_rq_held(rq);

	if (unlikely(st->flags & IPCC_TASK_MISFIT))
		ipcc_misfit_tick(curr);
	/* Run here since a swap moved it: the balancer may move it again. */
	if (unlikely(st->flags & IPCC_TASK_SWAPPED))
		WRITE_ONCE(st->flags, st->flags & ~IPCC_TASK_SWAPPED);

	if (!regs || !user_mode(regs))
		return;
	if (curr->sched_class != &fair_sched_class ||
	    (curr->flags & PF_KTHREAD))
		return;
	if (st->flags & IPCC_TASK_OVERRIDDEN)
		return;

	read = arch_ipcc_read_class(curr);
	if (read >= (int)READ_ONCE(ipcc_arch_nr))
		read = -ERANGE;

	if (!ipcc_classify(st, read, READ_ONCE(ipcc_debounce_ticks)))
		return;

	sched_ipcc_stat_inc(IPCC_STAT_CLASS_CHANGES);
	trace_sched_ipcc_class_change(task_pid_nr(curr), ipcc_class_to_int(old),
				      ipcc_class_to_int(st->class));
}

/*
 * Knobs, called by ipcc_debug.c.
 */

/**
 * ipcc_set_mode() - set ``kernel.sched_ipcc``
 * @mode: an &enum sched_ipcc_mode
 *
 * Also reads the arch's classes and scores again and switches
 * sched_ipcc_key to match. A change to or from %IPCC_MODE_OFF also
 * switches the arch's classification hardware (arch_ipcc_set_active()):
 * off after the key, on before it.
 *
 * Context: process context, may sleep.
 * Return: 0, or -EINVAL for an invalid @mode (nothing changed).
 */
int ipcc_set_mode(int mode)
{
	bool was_off, off = mode == IPCC_MODE_OFF;

	if (mode < IPCC_MODE_OFF || mode > IPCC_MODE_FULL)
		return -EINVAL;

	guard(mutex)(&ipcc_mode_mutex);
	was_off = READ_ONCE(sysctl_sched_ipcc) == IPCC_MODE_OFF;

	/* The hardware classifies before any class is read... */
	if (was_off && !off)
		arch_ipcc_set_active(true);

	mutex_lock(&ipcc_mutex);
	WRITE_ONCE(sysctl_sched_ipcc, mode);
	ipcc_update_locked();
	mutex_unlock(&ipcc_mutex);

	/* ...and stops once none is. */
	if (!was_off && off)
		arch_ipcc_set_active(false);

	return 0;
}

/**
 * ipcc_get_debounce_ticks() - the debounce length
 *
 * Return: the number of consecutive ticks a new class must be read on.
 */
unsigned int ipcc_get_debounce_ticks(void)
{
	return READ_ONCE(ipcc_debounce_ticks);
}

/**
 * ipcc_set_debounce_ticks() - set the debounce length
 * @ticks: 1..255
 *
 * Candidates being debounced keep their count.
 *
 * Return: 0, or -EINVAL when @ticks is out of range (nothing changed).
 */
int ipcc_set_debounce_ticks(unsigned int ticks)
{
	if (!ticks || ticks > U8_MAX)
		return -EINVAL;

	mutex_lock(&ipcc_mutex);
	WRITE_ONCE(ipcc_debounce_ticks, ticks);
	mutex_unlock(&ipcc_mutex);

	return 0;
}

/**
 * ipcc_set_override() - pin or unpin a task's class
 * @pid:   the task, in the caller's PID namespace
 * @class: the class to pin, or -1 to unpin
 *
 * A pinned task keeps @class until unpinned, across exec; the hardware
 * class source cannot change it. Unpinning makes the task unclassified;
 * it then debounces afresh. Unpinning a task that is not pinned does
 * nothing.
 *
 * Context: process context, may sleep.
 * Return: 0 on success; -ESRCH when there is no task @pid; -EINVAL for a
 * kernel thread or a class that is not below sched_ipcc_nr_classes();
 * -EBUSY when pinning while IPCC is off. Nothing changes on error.
 */
int ipcc_set_override(pid_t pid, int class)
{
	struct task_struct *p;
	bool changed = false;
	int old = -1, ret = 0;

	if (pid <= 0 || class < -1 || class >= IPCC_MAX_CLASSES)
		return -EINVAL;

	mutex_lock(&ipcc_mutex);

	p = find_get_task_by_vpid(pid);
	if (!p) {
		ret = -ESRCH;
		goto unlock;
	}

	if (p->flags & PF_KTHREAD) {
		ret = -EINVAL;
		goto put;
	}

	if (class >= 0) {
		if ((unsigned int)class >= ipcc_nr) {
			ret = -EINVAL;
			goto put;
		}
		if (!static_key_enabled(&sched_ipcc_key)) {
			ret = -EBUSY;
			goto put;
		}
	}

	scoped_guard (task_rq_lock, p) {
		old = ipcc_class_to_int(p->ipcc.class);
		if (class >= 0) {
			ipcc_task_pin(&p->ipcc, class);
			changed = true;
		} else if (p->ipcc.flags & IPCC_TASK_OVERRIDDEN) {
			ipcc_task_init(&p->ipcc);
			changed = true;
		}
	}

	if (changed)
		trace_sched_ipcc_class_change(task_pid_nr(p), old, class);
put:
	put_task_struct(p);
unlock:
	mutex_unlock(&ipcc_mutex);
	return ret;
}

static int __init sched_ipcc_init(void)
{
	BUILD_BUG_ON(IPCC_SCORE_SCALE != SCHED_CAPACITY_SCALE);
	BUILD_BUG_ON(IPCC_MAX_CLASSES > IPCC_CLASS_NONE);
	BUILD_BUG_ON(IPCC_DEBOUNCE_TICKS_DEFAULT < 1 ||
		     IPCC_DEBOUNCE_TICKS_DEFAULT > U8_MAX);

	mutex_lock(&ipcc_mutex);
	ipcc_update_locked();
	mutex_unlock(&ipcc_mutex);

	return 0;
}
late_initcall(sched_ipcc_init);

#ifdef CONFIG_SCHED_IPCC_KUNIT_TEST
#include "tests/ipcc-kunit.h"
#endif
