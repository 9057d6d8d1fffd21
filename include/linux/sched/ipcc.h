/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SCHED_IPCC_H
#define _LINUX_SCHED_IPCC_H

/*
 * IPC classes (IPCC): hardware classification of tasks on hybrid CPUs.
 *
 * This header is the whole interface between the scheduler core and an
 * architecture backend (a hardware class source plus a per-CPU,
 * per-class score table), and the set of entry points the rest of the
 * kernel calls. An arch implements the four arch_ipcc_*() functions and
 * calls sched_ipcc_arch_ready() and sched_ipcc_scores_changed().
 */

#include <linux/compiler.h>
#include <linux/jump_label.h>
#include <linux/types.h>
#include <linux/sched/ipcc_types.h>

struct dentry;
struct rq;
struct sched_domain;
struct seq_file;
struct task_struct;

/**
 * struct sched_ipcc_group - a sched group's best task to move, by class
 * @gain: the gain on the balancing CPU of @task (ipcc_tie_gain())
 * @cpu:  the CPU @task runs on
 * @task: the group's task whose class gains most there; NULL for none.
 *        Valid under the balancer's RCU read lock, for one balance pass.
 *
 * Kept in the fair class's per-group load balancing statistics to break
 * ties between groups. Empty without CONFIG_SCHED_IPCC.
 */
struct sched_ipcc_group {
#ifdef CONFIG_SCHED_IPCC
	int			gain;
	int			cpu;
	struct task_struct	*task;
#endif
};

/**
 * define IPCC_MAX_CLASSES - number of hardware classes the core tracks
 *
 * If the hardware reports more classes, the extra ones are treated as
 * unclassified: a task that keeps reading such a class debounces to
 * %IPCC_CLASS_NONE, and it has no scores.
 */
#define IPCC_MAX_CLASSES	16

/**
 * define IPCC_RAW_SCORE_MAX - top of the raw hardware score scale
 *
 * Scores reported by arch_ipcc_get_scores() range from 0 to this value
 * (the HFI scale). 0 is the hardware asking not to use the CPU.
 */
#define IPCC_RAW_SCORE_MAX	255

/**
 * define IPCC_SCORE_SCALE - top of the normalised score scale
 *
 * The core keeps scores on the same scale as CPU capacity
 * (%SCHED_CAPACITY_SCALE): ``norm = round(raw * 1024 / 255)``.
 */
#define IPCC_SCORE_SCALE	1024

/**
 * define IPCC_SCORE_NEUTRAL - normalised score of "no information"
 *
 * Returned for unclassified tasks, classes without scores and CPUs the
 * arch has no data for. It is the same on every CPU, so any gain
 * computed from it is zero.
 */
#define IPCC_SCORE_NEUTRAL	(IPCC_SCORE_SCALE / 2)

/**
 * define IPCC_DEBOUNCE_TICKS_DEFAULT - default debounce length in ticks
 *
 * A new class is accepted after this many consecutive user ticks of the
 * task read it. 4 ticks are 16 ms at HZ=250 (4 ms at HZ=1000): short
 * against the hundreds of milliseconds over which load balancing acts on
 * a placement, long enough to filter a phase that lasts a tick or two.
 */
#define IPCC_DEBOUNCE_TICKS_DEFAULT	4

/**
 * enum sched_ipcc_mode - values of the ``kernel.sched_ipcc`` sysctl
 * @IPCC_MODE_OFF:      mainline behaviour; nothing IPCC-related runs.
 * @IPCC_MODE_TIEBREAK: classes only break ties the balancer would
 *                      otherwise break arbitrarily.
 * @IPCC_MODE_FULL:     classes also drive pulls, swaps and misfit.
 */
enum sched_ipcc_mode {
	IPCC_MODE_OFF		= 0,
	IPCC_MODE_TIEBREAK	= 1,
	IPCC_MODE_FULL		= 2,
};

/**
 * enum ipcc_stat - counters shown in the debugfs ``stats`` file
 * @IPCC_STAT_CLASS_CHANGES: debounced class changes of tasks.
 * @IPCC_STAT_PULL:      a task picked for a pull by class, and pulled.
 * @IPCC_STAT_GROUP_TIE: a busiest-group tie broken by class.
 * @IPCC_STAT_RQ_TIE:    a busiest-runqueue tie broken by class.
 * @IPCC_STAT_SWAP:      two tasks swapped across CPUs by class.
 * @IPCC_STAT_MISFIT:    a task marked misfit because of its class.
 * @IPCC_STAT_NR:        number of counters.
 *
 * All but @IPCC_STAT_CLASS_CHANGES are kinds of balancing decisions and
 * are also the ``kind`` of the ``sched_ipcc_balance`` tracepoint.
 */
enum ipcc_stat {
	IPCC_STAT_CLASS_CHANGES,
	IPCC_STAT_PULL,
	IPCC_STAT_GROUP_TIE,
	IPCC_STAT_RQ_TIE,
	IPCC_STAT_SWAP,
	IPCC_STAT_MISFIT,
	IPCC_STAT_NR,
};

/*
 * Arch interface. Generic __weak versions that report "no IPCC support"
 * live in kernel/sched/ipcc.c.
 */

/**
 * arch_ipcc_nr_classes() - number of hardware classes
 *
 * Read by the core at boot, on sched_ipcc_arch_ready() and on every
 * score rebuild. The value must not change without one of those
 * following. Classes at or beyond %IPCC_MAX_CLASSES are treated as
 * unclassified.
 *
 * Context: process context.
 * Return: the number of classes, 0 when the CPU cannot classify tasks
 * (IPCC then cannot be switched on). The generic version returns 0.
 */
unsigned int arch_ipcc_nr_classes(void);

/**
 * arch_ipcc_read_class() - read the class of the running task
 * @curr: the task running on this CPU
 *
 * Called from the scheduler tick when the tick interrupted @curr in user
 * mode and @curr is a fair-class user task; never for kernel threads.
 * Reads the hardware's class of the thread running on the current CPU
 * (for example the Thread Director class register). The arch applies
 * its own validity and accuracy rules here.
 *
 * Context: hard interrupt, on @curr's CPU, with interrupts disabled and
 * the runqueue lock held. Must not sleep or take scheduler locks.
 * Return: the 0-based class, below arch_ipcc_nr_classes(); or a negative
 * errno when the hardware has no trustworthy class (valid bit clear,
 * value out of range, result known to be inaccurate). The generic version
 * returns -EOPNOTSUPP.
 */
int arch_ipcc_read_class(struct task_struct *curr);

/**
 * arch_ipcc_get_scores() - raw scores of one class on one CPU
 * @cpu:   a possible CPU
 * @class: a class below arch_ipcc_nr_classes()
 * @perf:  filled with the performance score, 0..%IPCC_RAW_SCORE_MAX
 * @eff:   filled with the energy-efficiency score, 0..%IPCC_RAW_SCORE_MAX
 *
 * Scores are on the hardware's own scale (the HFI table's 0..255);
 * higher is better, and only scores of the same class are compared
 * across CPUs. A score of 0 asks the OS not to use the CPU for that
 * purpose. Hardware without an efficiency capability reports the same
 * non-zero @eff on every CPU, so that efficiency comparisons come out
 * neutral.
 *
 * Context: process context (the core's rebuild work item and debugfs
 * reads). May run concurrently for different CPUs.
 * Return: 0 when @perf and @eff are valid; -ENODATA (or another negative
 * errno) when the arch has no scores for this CPU and class, in which
 * case the core treats the pair as neutral. The generic version returns
 * -ENODATA.
 */
int arch_ipcc_get_scores(int cpu, unsigned int class, u8 *perf, u8 *eff);

/**
 * arch_ipcc_set_active() - let the hardware classify tasks, or stop it
 * @on: false when ``kernel.sched_ipcc`` goes to 0, true when it leaves 0
 *
 * With @on false, the arch stops the hardware work that exists only to
 * classify tasks (on x86: Thread Director and the HRESET on every context
 * switch) until called with @on true; its scores stay readable. The core
 * calls it only when the mode crosses 0, after switching IPCC off or
 * before switching it on, so that no class is read while it is off. An
 * arch that becomes ready later must start in the state last asked for.
 *
 * Context: process context, may sleep; never with the core's locks or the
 * CPU hotplug lock held. The generic version does nothing.
 */
void arch_ipcc_set_active(bool on);

#ifdef CONFIG_SCHED_IPCC

/*
 * sched_ipcc_key is on iff kernel.sched_ipcc is not 0 and the arch reports
 * classes; every hook tests it first. sysctl_sched_ipcc holds the sysctl
 * value (an &enum sched_ipcc_mode); read it through sched_ipcc_mode().
 */
DECLARE_STATIC_KEY_FALSE(sched_ipcc_key);

extern int sysctl_sched_ipcc;

/**
 * sched_ipcc_scores_changed() - tell the core the arch's scores changed
 *
 * Queues a work item that reads every score again with
 * arch_ipcc_get_scores() (and the class count with
 * arch_ipcc_nr_classes()), and publishes the new score cache. Until the
 * work item has run, readers see the previous scores.
 *
 * Context: any, including hard interrupt.
 */
void sched_ipcc_scores_changed(void);

/**
 * sched_ipcc_arch_ready() - tell the core the arch's class count changed
 *
 * Call when the backend becomes usable (or stops being usable): the core
 * reads arch_ipcc_nr_classes() again, rebuilds the score cache and
 * switches IPCC on or off accordingly before returning. The core also
 * reads the class count once at boot, so a backend that is ready before
 * late_initcall time need not call this.
 *
 * Context: process context, may sleep. Must not be called with the CPU
 * hotplug lock held.
 */
void sched_ipcc_arch_ready(void);

/**
 * sched_ipcc_enabled() - whether IPCC is on
 *
 * True when ``kernel.sched_ipcc`` is not 0 and the arch reports at least
 * one class. A static branch: free while IPCC is off.
 *
 * Return: true when IPCC is on.
 */
static inline bool sched_ipcc_enabled(void)
{
	return static_branch_unlikely(&sched_ipcc_key);
}

/**
 * sched_ipcc_mode() - the IPCC mode in force
 *
 * Return: a &enum sched_ipcc_mode; %IPCC_MODE_OFF whenever IPCC is off,
 * whatever the sysctl says.
 */
static inline int sched_ipcc_mode(void)
{
	if (!sched_ipcc_enabled())
		return IPCC_MODE_OFF;
	return READ_ONCE(sysctl_sched_ipcc);
}

/**
 * sched_ipcc_nr_classes() - number of classes the core uses
 *
 * Return: arch_ipcc_nr_classes() capped at %IPCC_MAX_CLASSES, as last
 * read by the core.
 */
unsigned int sched_ipcc_nr_classes(void);

/**
 * sched_ipcc_task_class() - current class of a task
 * @p: the task
 *
 * Lockless snapshot.
 *
 * Return: the 0-based class, or -1 when @p is unclassified.
 */
int sched_ipcc_task_class(const struct task_struct *p);

/**
 * sched_ipcc_score() - normalised performance score
 * @cpu:   the CPU
 * @class: a class, or %IPCC_CLASS_NONE or a negative value for
 *         unclassified
 *
 * Reads the core's score cache under RCU (callers may already hold
 * rcu_read_lock(), as load balancing does).
 *
 * Return: the score on the 0..%IPCC_SCORE_SCALE scale; 0 means the
 * hardware asks not to use @cpu. %IPCC_SCORE_NEUTRAL for an unclassified
 * task, an unknown class or CPU, or a pair the arch has no data for.
 */
int sched_ipcc_score(int cpu, int class);

/**
 * sched_ipcc_eff() - normalised energy-efficiency score
 * @cpu:   the CPU
 * @class: a class, or %IPCC_CLASS_NONE or a negative value for
 *         unclassified
 *
 * Same as sched_ipcc_score() for the efficiency capability.
 *
 * Return: the score on the 0..%IPCC_SCORE_SCALE scale, or
 * %IPCC_SCORE_NEUTRAL.
 */
int sched_ipcc_eff(int cpu, int class);

/**
 * sched_ipcc_task_gain() - performance gain of moving a task
 * @p:       the task
 * @src_cpu: the CPU it would leave
 * @dst_cpu: the CPU it would move to
 *
 * The gain of each class in @p's class mix (&struct sched_ipcc_task.mix),
 * weighted by the mix; of @p's class alone when @p is overridden or has
 * no mix yet.
 *
 * Return: score(@dst_cpu) - score(@src_cpu), in normalised units
 * (-%IPCC_SCORE_SCALE..%IPCC_SCORE_SCALE); positive when @p runs better on
 * @dst_cpu. 0 when @p is unclassified; a class without a score on either
 * CPU counts 0.
 */
int sched_ipcc_task_gain(struct task_struct *p, int src_cpu, int dst_cpu);

/**
 * sched_ipcc_task_gain_smt() - gain of moving a task, with SMT contention
 * @p:          the task
 * @src_cpu:    the CPU it would leave
 * @dst_cpu:    the CPU it would move to
 * @src_shared: another SMT thread of @src_cpu's core runs a task
 * @dst_shared: another SMT thread of @dst_cpu's core runs a task
 *
 * Like sched_ipcc_task_gain(), with the score of a CPU whose core is
 * shared scaled to a thread's share of the core (about 0.6): a P-core
 * thread beside a busy sibling is no whole P-core.
 *
 * Return: the gain in normalised units; 0 when @p is unclassified or
 * either CPU has no score for the class.
 */
int sched_ipcc_task_gain_smt(struct task_struct *p, int src_cpu, int dst_cpu,
			     bool src_shared, bool dst_shared);

/**
 * sched_ipcc_task_headroom() - how much better a task could run elsewhere
 * @p:   the task
 * @cpu: the CPU it runs on
 *
 * Compares the score of @p's class on @cpu with its best score on any CPU
 * the scores cover, whatever @p's affinity and whether that CPU is online:
 * an upper bound of sched_ipcc_task_gain() from @cpu, found without
 * looking at other CPUs.
 *
 * Return: best score - score on @cpu, in normalised units
 * (0..%IPCC_SCORE_SCALE); 0 when @p is unclassified or the scores are
 * unknown.
 */
int sched_ipcc_task_headroom(struct task_struct *p, int cpu);

/**
 * sched_ipcc_task_known() - whether class logic has anything to go by
 * @p: the task
 *
 * Return: true when @p has a class, or valid class readings in its mix.
 */
bool sched_ipcc_task_known(const struct task_struct *p);

/**
 * sched_ipcc_task_score() - a task's expected perf score on a CPU
 * @p:      the task
 * @cpu:    the CPU
 * @bigger: the best score on the CPUs bigger than @cpu instead
 *
 * The scores of the classes in @p's mix weighted by it, as in
 * sched_ipcc_task_gain().
 *
 * Return: the score on the 0..%IPCC_SCORE_SCALE scale; -1 when @p is
 * unclassified or a class of its mix has no such score.
 */
int sched_ipcc_task_score(struct task_struct *p, int cpu, bool bigger);

/**
 * sched_ipcc_misfit_room() - the most a class gains on a bigger CPU
 *
 * The largest amount by which the perf score of any class on any CPU is
 * exceeded by its best score on the CPUs of more capacity, both known:
 * no task, whatever its class or class mix, scores more than this better
 * on a bigger CPU (sched_ipcc_task_score()). Found when the score cache
 * is built. A class misfit needs more than ``misfit_threshold``; where
 * no class gains that much (the emulated Lunar Lake-like part at the
 * default threshold), the misfit check at every pick ends here.
 *
 * Context: any; takes the RCU read lock.
 * Return: the room in normalised units, 0 when no class gains.
 */
int sched_ipcc_misfit_room(void);

/**
 * sched_ipcc_stat_inc() - bump a debugfs ``stats`` counter
 * @stat: the counter
 *
 * Per-CPU counter, summed when the file is read.
 *
 * Context: any.
 */
void sched_ipcc_stat_inc(enum ipcc_stat stat);

/**
 * sched_ipcc_account_balance() - record a class-driven balancing decision
 * @kind:    what was decided, one of the balancing &enum ipcc_stat values
 * @p:       the task the decision is about
 * @src_cpu: the CPU @p leaves (or would leave)
 * @dst_cpu: the CPU @p goes to (or would go to)
 * @gain:    the gain that drove the decision
 *
 * Bumps the @kind counter and emits the ``sched_ipcc_balance``
 * tracepoint.
 *
 * Context: any.
 */
void sched_ipcc_account_balance(enum ipcc_stat kind, struct task_struct *p,
				int src_cpu, int dst_cpu, int gain);

/*
 * Class-aware load balancing (kernel/sched/ipcc_balance.c).
 *
 * The decisions are pure functions of plain values, documented where
 * they are defined; the fair-class balancer gathers their inputs under
 * the locks it already holds and acts on their verdict with its own
 * mechanisms. Gains are in normalised score units (see
 * sched_ipcc_task_gain()).
 */
int ipcc_pick_pull(const int *gain, int nr);
bool ipcc_break_group_tie(int mode, bool tie, bool pick, int gain_cand,
			  int gain_busiest);
bool ipcc_asym_pick(int mode, int prio_cmp, int gain_cand, int gain_busiest);
bool ipcc_break_rq_tie(int mode, int gain_cand, int gain_busiest);
bool ipcc_should_swap(int gain_a, int gain_b, int threshold, u64 now,
		      u64 last_swap, u64 ratelimit);
bool ipcc_class_misfit(int score_here, int best_score, int threshold);
int ipcc_wake_fits(int fits, int score_here, int best_score, int threshold);
bool ipcc_in_cooldown(u32 now, u32 last, u32 cooldown);

/**
 * sched_ipcc_balance_gain() - gain of moving a task, as the balancer sees it
 * @p:       the task
 * @src_cpu: the CPU it would leave
 * @dst_cpu: the CPU it would go to
 *
 * Like sched_ipcc_task_gain_smt() with each core as shared as it is now
 * (another SMT thread than @src_cpu and @dst_cpu busy), but 0 (neutral)
 * for every task whose class must not drive a migration: tasks of other
 * scheduling classes than the fair class (RT, deadline, idle, ...),
 * kernel threads (per-CPU ones included), exiting tasks, tasks that may
 * run on a single CPU, and tasks in the cooldown after a class-driven
 * migration.
 *
 * Context: any; lockless reads of @p's state and of the SMT siblings'
 * runqueues.
 * Return: the gain in normalised units, or 0.
 */
int sched_ipcc_balance_gain(struct task_struct *p, int src_cpu, int dst_cpu);

/**
 * sched_ipcc_balance_movable() - whether class may drive a task's migration
 * @p: the task
 *
 * Return: false for the tasks sched_ipcc_balance_gain() treats as
 * neutral, whatever their class; true otherwise.
 */
bool sched_ipcc_balance_movable(struct task_struct *p);

/**
 * __sched_ipcc_group_update() - out-of-line part of sched_ipcc_group_update()
 * @g:       the group's statistics
 * @sd:      the domain being balanced
 * @rq:      a runqueue of the group, not locked
 * @dst_cpu: the CPU balancing
 */
void __sched_ipcc_group_update(struct sched_ipcc_group *g,
			       struct sched_domain *sd, struct rq *rq,
			       int dst_cpu);

/**
 * __sched_ipcc_group_pick() - out-of-line part of sched_ipcc_group_pick()
 * @cand:    the candidate group's statistics
 * @busiest: the current busiest group's statistics
 * @dst_cpu: the CPU balancing
 * @pick:    the existing rules' verdict on a tie
 *
 * Return: see sched_ipcc_group_pick().
 */
bool __sched_ipcc_group_pick(const struct sched_ipcc_group *cand,
			     const struct sched_ipcc_group *busiest,
			     int dst_cpu, bool pick);

/**
 * sched_ipcc_group_asym() - pick between two asym packing groups
 * @cand:        the candidate group's statistics
 * @busiest:     the current busiest group's statistics
 * @dst_cpu:     the CPU balancing
 * @cand_cpu:    the candidate group's asym_prefer_cpu
 * @busiest_cpu: the current busiest group's asym_prefer_cpu
 *
 * The group on the CPUs of lowest priority goes first; between equal
 * priorities, the one whose task gains most on @dst_cpu; in
 * %IPCC_MODE_FULL the gain ranks above the priority (ipcc_asym_pick()).
 * A choice class changed is counted (%IPCC_STAT_GROUP_TIE).
 *
 * Context: as sched_ipcc_group_update(); IPCC on.
 * Return: true when the candidate becomes the busiest group.
 */
bool sched_ipcc_group_asym(const struct sched_ipcc_group *cand,
			   const struct sched_ipcc_group *busiest, int dst_cpu,
			   int cand_cpu, int busiest_cpu);

/**
 * __sched_ipcc_rq_tie() - out-of-line part of sched_ipcc_rq_tie()
 * @sd:      the domain being balanced
 * @rq:      the candidate runqueue, not locked
 * @busiest: the current choice, not locked
 * @dst_cpu: the CPU balancing
 *
 * Return: see sched_ipcc_rq_tie().
 */
bool __sched_ipcc_rq_tie(struct sched_domain *sd, struct rq *rq,
			 struct rq *busiest, int dst_cpu);

/**
 * sched_ipcc_group_update() - note a runqueue's task for group ties
 * @g:       the group's statistics
 * @sd:      the domain being balanced
 * @rq:      a runqueue of the group, not locked
 * @dst_cpu: the CPU balancing
 *
 * Records in @g the task ipcc_tie_gain() names for @rq when its
 * class gains more on @dst_cpu than those of the group's other
 * runqueues seen so far.
 *
 * Context: update_sg_lb_stats(), RCU read lock held, no runqueue lock.
 */
static inline void sched_ipcc_group_update(struct sched_ipcc_group *g,
					   struct sched_domain *sd,
					   struct rq *rq, int dst_cpu)
{
	if (sched_ipcc_enabled())
		__sched_ipcc_group_update(g, sd, rq, dst_cpu);
}

/**
 * sched_ipcc_group_pick() - final verdict on two busiest-group candidates
 * @cand:    the candidate group's statistics
 * @busiest: the current busiest group's statistics
 * @dst_cpu: the CPU balancing
 * @tie:     whether update_sd_pick_busiest()'s rules see the two as equal
 * @pick:    those rules' verdict: true when the candidate replaces
 *           @busiest
 *
 * Ties go to the group whose task gains more on @dst_cpu
 * (ipcc_break_group_tie()); a choice class changed is counted
 * (%IPCC_STAT_GROUP_TIE).
 *
 * Context: update_sd_pick_busiest(), as sched_ipcc_group_update().
 * Return: the verdict.
 */
static inline bool sched_ipcc_group_pick(const struct sched_ipcc_group *cand,
					 const struct sched_ipcc_group *busiest,
					 int dst_cpu, bool tie, bool pick)
{
	if (!sched_ipcc_enabled() || !tie)
		return pick;
	return __sched_ipcc_group_pick(cand, busiest, dst_cpu, pick);
}

/**
 * sched_ipcc_rq_tie() - whether a runqueue replaces an equally busy one
 * @sd:      the domain being balanced
 * @rq:      the candidate runqueue, not locked
 * @busiest: the current choice, NULL for none yet
 * @dst_cpu: the CPU balancing
 * @tie:     whether sched_balance_find_src_rq()'s measure sees the two as
 *           exactly as busy
 *
 * @rq replaces @busiest when the task ipcc_tie_gain() names for it
 * gains strictly more on @dst_cpu (ipcc_break_rq_tie()); a choice class
 * changed is counted (%IPCC_STAT_RQ_TIE).
 *
 * Context: sched_balance_find_src_rq(), RCU read lock held, no runqueue
 * lock.
 * Return: true when @rq replaces @busiest.
 */
static inline bool sched_ipcc_rq_tie(struct sched_domain *sd, struct rq *rq,
				     struct rq *busiest, int dst_cpu, bool tie)
{
	if (!sched_ipcc_enabled() || !tie || !busiest)
		return false;
	return __sched_ipcc_rq_tie(sd, rq, busiest, dst_cpu);
}

/**
 * sched_ipcc_note_migrate() - record a class-driven migration
 * @p: the task that is being moved because of its class
 *
 * Starts @p's cooldown (&struct sched_ipcc_task.last_migrate).
 *
 * Context: any.
 */
void sched_ipcc_note_migrate(struct task_struct *p);

/**
 * __sched_ipcc_pull_pick() - out-of-line part of sched_ipcc_pull_pick()
 * @src:      the runqueue pulled from, locked
 * @dst_cpu:  the CPU pulling
 * @loop_max: the most tasks detach_tasks() looks at
 * @misfit:   the pull moves a misfit task
 * @any_task: the pull is an idle or newly idle one that counts tasks
 *
 * Return: see sched_ipcc_pull_pick().
 */
struct task_struct *__sched_ipcc_pull_pick(struct rq *src, int dst_cpu,
					   unsigned int loop_max, bool misfit,
					   bool any_task);

/**
 * sched_ipcc_pull_pick() - put the task that gains most where a pull starts
 * @src:      the runqueue pulled from, locked
 * @dst_cpu:  the CPU pulling
 * @loop_max: the most tasks detach_tasks() looks at (env->loop_max)
 * @misfit:   the pull moves a misfit task (migrate_misfit)
 * @any_task: the pull is an idle or newly idle one that counts tasks
 *            (migrate_task), which any task serves equally
 *
 * Among the first tasks detach_tasks() would try, up to eight at the end
 * of @src->cfs_tasks that pass can_migrate_task()'s tests without side
 * effects (not running, not a per-CPU kthread, allowed on @dst_cpu),
 * picks the one whose class gains most on @dst_cpu, or loses least at
 * @src, with ipcc_pick_pull(), and moves it to the end of the list, so
 * that detach_tasks() tries it first. All of can_migrate_task()'s rules
 * (cache hotness, NUMA locality, throttled groups) and the load and
 * utilization limits still apply to it; when they refuse it,
 * detach_tasks() goes on in its own order. %IPCC_MODE_TIEBREAK picks only
 * for @any_task pulls, %IPCC_MODE_FULL for every pull but a misfit one.
 *
 * Context: detach_tasks(), @src locked.
 * Return: the task moved, or NULL when the list's order stands.
 */
static inline struct task_struct *
sched_ipcc_pull_pick(struct rq *src, int dst_cpu, unsigned int loop_max,
		     bool misfit, bool any_task)
{
	if (!sched_ipcc_enabled())
		return NULL;
	return __sched_ipcc_pull_pick(src, dst_cpu, loop_max, misfit,
				      any_task);
}

/**
 * sched_ipcc_pulled() - the task sched_ipcc_pull_pick() picked was pulled
 * @p:       the task, detached
 * @src_cpu: the CPU it left
 * @dst_cpu: the CPU that pulled it
 *
 * Counts the pull (%IPCC_STAT_PULL) and starts @p's cooldown.
 *
 * Context: detach_tasks(), @src_cpu's runqueue locked.
 */
void sched_ipcc_pulled(struct task_struct *p, int src_cpu, int dst_cpu);

/**
 * __sched_ipcc_task_fits() - out-of-line part of sched_ipcc_task_fits()
 * @rq:   the runqueue @p runs or is picked on, locked
 * @p:    the task
 * @fits: whether @p fits by utilization
 *
 * Return: see sched_ipcc_task_fits().
 */
bool __sched_ipcc_task_fits(struct rq *rq, struct task_struct *p, bool fits);

/**
 * __sched_ipcc_wake_fits() - out-of-line part of sched_ipcc_wake_fits()
 * @p:    the waking task
 * @cpu:  the idle CPU considered
 * @fits: util_fits_cpu() of @p on @cpu, not 0
 *
 * Return: see sched_ipcc_wake_fits().
 */
int __sched_ipcc_wake_fits(struct task_struct *p, int cpu, int fits);

/* Some class gains more than misfit_threshold on a bigger CPU. */
extern bool ipcc_misfit_possible;

/**
 * __sched_ipcc_misfit_pull() - whether a CPU should pull a task as a misfit
 * @p:       the task
 * @src_cpu: the CPU it is on
 * @dst_cpu: the CPU that would pull it
 * @queued:  @p is a queued task detach_tasks() looks at, rather than the
 *           running task of a runqueue the balancer picked for its misfit
 *
 * Return: see sched_ipcc_misfit_pull() (@queued) and
 * sched_ipcc_misfit_src_ok().
 */
bool __sched_ipcc_misfit_pull(struct task_struct *p, int src_cpu, int dst_cpu,
			      bool queued);

/**
 * __sched_ipcc_misfit_src_ok() - out-of-line part of sched_ipcc_misfit_src_ok()
 * @src:     a runqueue with a misfit task, not locked
 * @dst_cpu: the CPU balancing
 *
 * Return: see sched_ipcc_misfit_src_ok().
 */
bool __sched_ipcc_misfit_src_ok(struct rq *src, int dst_cpu);

/**
 * __sched_ipcc_swap_moving() - out-of-line part of sched_ipcc_swap_moving()
 * @p: a task queued on the runqueue being balanced, which is locked
 *
 * Return: see sched_ipcc_swap_moving().
 */
bool __sched_ipcc_swap_moving(struct task_struct *p);

/**
 * __sched_ipcc_balance_swap() - out-of-line part of sched_ipcc_balance_swap()
 * @rq: this CPU's runqueue, not locked
 * @sd: the domain that was just balanced
 */
void __sched_ipcc_balance_swap(struct rq *rq, struct sched_domain *sd);

/**
 * __sched_ipcc_tick_swap() - out-of-line part of sched_ipcc_tick_swap()
 * @rq: this CPU's runqueue, not locked
 */
void __sched_ipcc_tick_swap(struct rq *rq);

/**
 * sched_ipcc_task_fits() - whether a task fits its CPU, by class too
 * @rq:   the runqueue @p runs or is picked on, locked
 * @p:    a fair task on a CPU of less than the highest capacity it may use
 * @fits: whether @p fits that CPU by utilization (task_fits_cpu())
 *
 * In %IPCC_MODE_FULL, a task that fits by utilization but whose class
 * scores more than the ``misfit_threshold`` knob better on some CPU of
 * higher capacity than on its own does not fit: the misfit machinery of
 * asymmetric capacity systems then pulls it up, to a bigger CPU that has
 * room and where its class gains that much (sched_ipcc_misfit_src_ok()).
 * The check reads the task's mix and two cells of the score cache, and
 * nothing of the task where no class gains more than the threshold
 * (sched_ipcc_misfit_room()). Unclassified tasks and the tasks
 * sched_ipcc_balance_gain() treats as neutral always fit by class.
 * A newly marked class misfit is counted (%IPCC_STAT_MISFIT).
 *
 * Context: update_misfit_status(), @rq locked.
 * Return: whether @p fits, by utilization and by class.
 */
static inline bool sched_ipcc_task_fits(struct rq *rq, struct task_struct *p,
					bool fits)
{
	if (sched_ipcc_mode() != IPCC_MODE_FULL)
		return fits;
	return __sched_ipcc_task_fits(rq, p, fits);
}

/**
 * sched_ipcc_wake_fits() - whether a waking task fits an idle CPU, by class too
 * @p:    the waking fair task
 * @cpu:  an idle CPU the wake-up path considers for @p
 * @fits: util_fits_cpu() of @p on @cpu: 1 fits, 0 does not, -1 fits but
 *        for the uclamp_min hint
 *
 * The wake-up path's capacity checks on asymmetric capacity systems
 * (asym_fits_cpu() and select_idle_capacity()) look for an idle CPU the
 * task fits. In %IPCC_MODE_FULL a task that is a misfit by class on
 * @cpu (sched_ipcc_task_fits(): its class scores more than
 * ``misfit_threshold`` better on some CPU of higher capacity, and it may
 * use a CPU of higher capacity than @cpu) does not fit it either, so
 * that it wakes up on an idle CPU where its class runs well instead of
 * waiting there for the misfit pull. The same tasks are left alone as by
 * sched_ipcc_task_fits(). Where no class gains more than the threshold
 * anywhere (``ipcc_misfit_possible`` false) it returns @fits without a
 * call.
 *
 * Context: select_idle_sibling(), RCU read lock held, interrupts
 * disabled; no runqueue lock (lockless reads of @p's class state).
 * Return: @fits, or 0 when @p is a misfit by class on @cpu.
 */
static inline int sched_ipcc_wake_fits(struct task_struct *p, int cpu,
				       int fits)
{
	if (sched_ipcc_mode() != IPCC_MODE_FULL || !fits ||
	    !READ_ONCE(ipcc_misfit_possible))
		return fits;
	return __sched_ipcc_wake_fits(p, cpu, fits);
}

/**
 * sched_ipcc_misfit_pull() - whether detach_tasks() pulls a task by class
 * @p:       a queued task that fits @src_cpu by utilization
 * @src_cpu: the CPU being balanced from
 * @dst_cpu: the CPU pulling
 *
 * In %IPCC_MODE_FULL, a misfit pull takes such a task when its class
 * scores more than ``misfit_threshold`` better on @dst_cpu than on
 * @src_cpu; that starts its cooldown.
 *
 * Context: detach_tasks(), @src_cpu's runqueue locked.
 * Return: true when @p is to be pulled as a misfit.
 */
static inline bool sched_ipcc_misfit_pull(struct task_struct *p, int src_cpu,
					  int dst_cpu)
{
	if (sched_ipcc_mode() != IPCC_MODE_FULL)
		return false;
	return __sched_ipcc_misfit_pull(p, src_cpu, dst_cpu, true);
}

/**
 * sched_ipcc_misfit_src_ok() - whether a misfit runqueue is worth pulling
 * @src:     a runqueue with a misfit task
 * @dst_cpu: the CPU balancing
 *
 * In %IPCC_MODE_FULL, when the running task of @src is a misfit by class
 * only, @dst_cpu must be a CPU it may use where its class scores more
 * than ``misfit_threshold`` better than on @src's CPU; otherwise the
 * balancer would pull it, actively if need be, to where it gains
 * nothing. Misfits by utilization are not affected.
 *
 * Context: sched_balance_find_src_rq(), RCU read lock held, @src not
 * locked (lockless reads of its running task).
 * Return: false when @dst_cpu should not pull @src's misfit.
 */
static inline bool sched_ipcc_misfit_src_ok(struct rq *src, int dst_cpu)
{
	if (sched_ipcc_mode() != IPCC_MODE_FULL)
		return true;
	return __sched_ipcc_misfit_src_ok(src, dst_cpu);
}

/**
 * sched_ipcc_swap_moving() - whether a task waits for its swap's second move
 * @p: a task queued on the runqueue being balanced
 *
 * A class swap moves the task of the CPU that decided it to the partner's
 * CPU first, where it waits until a CPU stop there moves the partner to
 * the CPU it left (%IPCC_TASK_SWAPPING). Meanwhile that CPU is idle, and
 * a pull of @p would undo the swap: the load balancer leaves @p for the
 * few microseconds (on hardware) until the stop has run. It leaves both
 * tasks of a swap also after it, until each has run a tick on its new CPU
 * (%IPCC_TASK_SWAPPED), within the ``cooldown_ms`` knob: a balance queued
 * while the swap was halfway would move them back.
 *
 * Context: can_migrate_task(), @p's runqueue locked.
 * Return: true while @p waits for its swap's second move, or was moved by
 * a swap and has not run a tick since.
 */
static inline bool sched_ipcc_swap_moving(struct task_struct *p)
{
	return sched_ipcc_enabled() && __sched_ipcc_swap_moving(p);
}

/**
 * sched_ipcc_balance_swap() - swap a task with a better-placed one by class
 * @rq: this CPU's runqueue, not locked
 * @sd: the domain that was just balanced, with nothing moved
 *
 * Called when the periodic balance of a busy CPU moved nothing. In
 * %IPCC_MODE_FULL, for an asymmetric domain (%SD_ASYM_PACKING or
 * %SD_ASYM_CPUCAPACITY; not the SMT level, not NUMA) that holds a CPU
 * where the class of this CPU's running task scores better than here:
 * looks for the busy CPU of @sd whose running task and this CPU's would
 * gain most from trading places, and has them exchanged (a work item
 * moves this CPU's task, a CPU stop the other) when ipcc_should_swap()
 * agrees. Both tasks must be
 * fair tasks that sched_ipcc_balance_gain() does not treat as neutral.
 *
 * Context: softirq, RCU read lock held (sched_balance_rq()), no
 * runqueue lock held.
 */
static inline void sched_ipcc_balance_swap(struct rq *rq,
					   struct sched_domain *sd)
{
	if (sched_ipcc_mode() == IPCC_MODE_FULL)
		__sched_ipcc_balance_swap(rq, sd);
}

/**
 * sched_ipcc_tick_swap() - look for a class swap on the tick
 * @rq: this CPU's runqueue, not locked
 *
 * While the load is balanced, the periodic balance of a busy CPU runs
 * rarely (its interval grows to the domain's maximum times its busy
 * factor: about a quarter of a second on an eight-CPU domain), and so
 * would sched_ipcc_balance_swap(). In %IPCC_MODE_FULL, a CPU whose running
 * task's class scores better elsewhere by more than half the
 * ``swap_threshold`` knob (sched_ipcc_task_headroom()) does the same
 * search on its tick instead, in its lowest asymmetric domain that holds
 * a CPU where that class scores better. A search that finds nothing
 * doubles the wait before the next one, from 4 ms to 32 ms; a swap, a
 * swap worth making that has to wait, a new class or a new number of
 * allowed CPUs starts over.
 *
 * Context: the scheduler tick (hard interrupt), no runqueue lock held.
 */
static inline void sched_ipcc_tick_swap(struct rq *rq)
{
	if (sched_ipcc_mode() == IPCC_MODE_FULL)
		__sched_ipcc_tick_swap(rq);
}

/**
 * sched_ipcc_debugfs_init() - create the ``ipcc`` debugfs directory
 * @parent: the scheduler's debugfs directory
 *
 * Called once from sched_init_debug().
 */
void sched_ipcc_debugfs_init(struct dentry *parent);

/**
 * sched_ipcc_proc_show() - print a task's IPCC state in /proc/PID/sched
 * @p: the task
 * @m: the seq_file of /proc/PID/sched
 *
 * Prints ``ipcc.class`` (-1 when unclassified), ``ipcc.overridden``
 * (0 or 1) and ``ipcc.mix.0`` .. ``ipcc.mix.3``, the class mix in
 * thousandths (all 0 while it is empty), in the format of the other
 * fields.
 */
void sched_ipcc_proc_show(struct task_struct *p, struct seq_file *m);

/**
 * __sched_ipcc_fork() - out-of-line part of sched_ipcc_fork()
 * @p: the child
 */
void __sched_ipcc_fork(struct task_struct *p);

/**
 * __sched_ipcc_exec() - out-of-line part of sched_ipcc_exec()
 * @p: current
 */
void __sched_ipcc_exec(struct task_struct *p);

/**
 * __sched_ipcc_tick() - out-of-line part of sched_ipcc_tick()
 * @rq:   this CPU's runqueue, locked
 * @curr: the task running on it
 */
void __sched_ipcc_tick(struct rq *rq, struct task_struct *curr);

/**
 * sched_ipcc_fork() - set up the IPCC state of a new task
 * @p: the child, not yet visible to anyone
 *
 * The child starts unclassified and not overridden. Called from
 * sched_fork().
 */
static inline void sched_ipcc_fork(struct task_struct *p)
{
	if (static_branch_unlikely(&sched_ipcc_key))
		__sched_ipcc_fork(p);
}

/**
 * sched_ipcc_exec() - reset the IPCC state of a task that exec'd
 * @p: current, after a successful exec
 *
 * The task becomes unclassified unless it is overridden. Called from
 * bprm_execve().
 */
static inline void sched_ipcc_exec(struct task_struct *p)
{
	if (static_branch_unlikely(&sched_ipcc_key))
		__sched_ipcc_exec(p);
}

/**
 * sched_ipcc_tick() - feed one tick's class reading into the debounce
 * @rq:   this CPU's runqueue, locked
 * @curr: the task running on it
 *
 * Reads @curr's class with arch_ipcc_read_class() when the tick
 * interrupted user mode of a fair-class user task, and changes its class
 * once the debounce accepts a new one. Called from sched_tick().
 */
static inline void sched_ipcc_tick(struct rq *rq, struct task_struct *curr)
{
	if (static_branch_unlikely(&sched_ipcc_key))
		__sched_ipcc_tick(rq, curr);
}

#else /* !CONFIG_SCHED_IPCC */

static inline void sched_ipcc_scores_changed(void) { }
static inline void sched_ipcc_arch_ready(void) { }
static inline bool sched_ipcc_enabled(void) { return false; }
static inline int sched_ipcc_mode(void) { return IPCC_MODE_OFF; }
static inline unsigned int sched_ipcc_nr_classes(void) { return 0; }

static inline int sched_ipcc_task_class(const struct task_struct *p)
{
	return -1;
}

static inline int sched_ipcc_score(int cpu, int class)
{
	return IPCC_SCORE_NEUTRAL;
}

static inline int sched_ipcc_eff(int cpu, int class)
{
	return IPCC_SCORE_NEUTRAL;
}

static inline int sched_ipcc_task_gain(struct task_struct *p, int src_cpu,
				       int dst_cpu)
{
	return 0;
}

static inline int sched_ipcc_task_gain_smt(struct task_struct *p, int src_cpu,
					   int dst_cpu, bool src_shared,
					   bool dst_shared)
{
	return 0;
}

static inline void sched_ipcc_stat_inc(enum ipcc_stat stat) { }

static inline void sched_ipcc_account_balance(enum ipcc_stat kind,
					      struct task_struct *p,
					      int src_cpu, int dst_cpu,
					      int gain) { }

static inline int ipcc_pick_pull(const int *gain, int nr)
{
	return -1;
}

static inline bool ipcc_break_group_tie(int mode, bool tie, bool pick,
					int gain_cand, int gain_busiest)
{
	return pick;
}

static inline bool ipcc_asym_pick(int mode, int prio_cmp, int gain_cand,
				  int gain_busiest)
{
	return prio_cmp > 0;
}

static inline bool ipcc_break_rq_tie(int mode, int gain_cand,
				     int gain_busiest)
{
	return false;
}

static inline bool ipcc_should_swap(int gain_a, int gain_b, int threshold,
				    u64 now, u64 last_swap, u64 ratelimit)
{
	return false;
}

static inline bool ipcc_class_misfit(int score_here, int best_score,
				     int threshold)
{
	return false;
}

static inline int ipcc_wake_fits(int fits, int score_here, int best_score,
				 int threshold)
{
	return fits;
}

static inline bool ipcc_in_cooldown(u32 now, u32 last, u32 cooldown)
{
	return false;
}

static inline int sched_ipcc_balance_gain(struct task_struct *p, int src_cpu,
					  int dst_cpu)
{
	return 0;
}

static inline bool sched_ipcc_balance_movable(struct task_struct *p)
{
	return false;
}

static inline void sched_ipcc_note_migrate(struct task_struct *p) { }

static inline void sched_ipcc_group_update(struct sched_ipcc_group *g,
					   struct sched_domain *sd,
					   struct rq *rq, int dst_cpu) { }

static inline bool sched_ipcc_group_pick(const struct sched_ipcc_group *cand,
					 const struct sched_ipcc_group *busiest,
					 int dst_cpu, bool tie, bool pick)
{
	return pick;
}

static inline bool sched_ipcc_group_asym(const struct sched_ipcc_group *cand,
					 const struct sched_ipcc_group *busiest,
					 int dst_cpu, int cand_cpu,
					 int busiest_cpu)
{
	return false;
}

static inline bool sched_ipcc_rq_tie(struct sched_domain *sd, struct rq *rq,
				     struct rq *busiest, int dst_cpu, bool tie)
{
	return false;
}

static inline struct task_struct *
sched_ipcc_pull_pick(struct rq *src, int dst_cpu, unsigned int loop_max,
		     bool misfit, bool any_task)
{
	return NULL;
}

static inline void sched_ipcc_pulled(struct task_struct *p, int src_cpu,
				     int dst_cpu) { }

static inline bool sched_ipcc_task_fits(struct rq *rq, struct task_struct *p,
					bool fits)
{
	return fits;
}

static inline int sched_ipcc_wake_fits(struct task_struct *p, int cpu,
				       int fits)
{
	return fits;
}

static inline bool sched_ipcc_misfit_pull(struct task_struct *p, int src_cpu,
					  int dst_cpu)
{
	return false;
}

static inline bool sched_ipcc_misfit_src_ok(struct rq *src, int dst_cpu)
{
	return true;
}

static inline bool sched_ipcc_swap_moving(struct task_struct *p)
{
	return false;
}

static inline void sched_ipcc_balance_swap(struct rq *rq,
					   struct sched_domain *sd) { }

static inline void sched_ipcc_tick_swap(struct rq *rq) { }

static inline void sched_ipcc_debugfs_init(struct dentry *parent) { }

static inline void sched_ipcc_proc_show(struct task_struct *p,
					struct seq_file *m) { }

static inline void sched_ipcc_fork(struct task_struct *p) { }
static inline void sched_ipcc_exec(struct task_struct *p) { }

static inline void sched_ipcc_tick(struct rq *rq,
				   struct task_struct *curr) { }

#endif /* CONFIG_SCHED_IPCC */

#endif /* _LINUX_SCHED_IPCC_H */
