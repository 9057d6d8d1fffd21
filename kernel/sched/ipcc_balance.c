// SPDX-License-Identifier: GPL-2.0
/*
 * IPC classes (IPCC): class-aware load balancing.
 *
 * The gain of moving a task from CPU s to CPU d is the score of its class
 * on d minus its score on s, averaged over its class mix
 * (sched_ipcc_task_gain(), normalised units); a swap gains the sum of
 * both moves. Unclassified tasks gain 0. The
 * fair-class balancer consults classes in these places, each behind
 * sched_ipcc_key and the mode (kernel.sched_ipcc):
 *
 * =================== ===== ==============================================
 * where (fair.c)      mode  decision
 * =================== ===== ==============================================
 * detach_tasks()      1, 2  ipcc_pick_pull(): which task a pull takes
 *                           first (mode 1: only idle and newly idle pulls
 *                           that count tasks, which any task serves
 *                           equally; mode 2: every pull but misfit).
 * update_sd_pick_     1, 2  ipcc_break_group_tie(), ipcc_asym_pick(): the
 * busiest()                 busiest group, when the existing rules tie
 *                           (mode 2: asym packing ranks gain above CPU
 *                           priority).
 * sched_balance_      1, 2  ipcc_break_rq_tie(): the busiest runqueue, when
 * find_src_rq()             the existing rules tie.
 * sched_balance_rq()  2     ipcc_should_swap(): exchange two running
 *                           tasks (ipcc_swap_workfn()) when every CPU is
 *                           busy and nothing else moves;
 *                           ipcc_swap_outranks(): leave the partner to a
 *                           task that gains more there.
 * can_migrate_       2     sched_ipcc_swap_moving(): a task a swap moved
 * task()                    stays until the swap ends and it ran a tick.
 * sched_balance_      2     ipcc_tick_swap_due(), ipcc_swap_scan_wait(),
 * trigger()                 ipcc_swap_candidate(): the same search from
 *                           the tick, on CPUs whose task could gain,
 *                           without waiting for the periodic balance;
 *                           ipcc_lag_update(), ipcc_rotate_candidate():
 *                           two tasks of one class take turns on a P-core
 *                           (a swap of no gain) by how far each lags;
 *                           ipcc_unknown_rotatable(): so does a task left
 *                           unknown beside a busy SMT sibling.
 * update_misfit_      2     ipcc_class_misfit(): a task whose class runs
 * status()                  much better on a bigger CPU is a misfit.
 * select_idle_        2     ipcc_wake_fits(): a waking task does not fit
 * capacity(),               an idle CPU where it is a misfit by class, so
 * asym_fits_cpu()           it wakes up on one where it is not.
 * sched_balance_find_ 2     ipcc_misfit_pull_ok(): a class misfit is
 * src_rq(),                 pulled only by a CPU where its class runs
 * detach_tasks()            that much better.
 * =================== ===== ==============================================
 *
 * The decisions are pure functions of plain values, unit tested by
 * tests/ipcc_balance-kunit.h, which is included at the end of this file.
 * The hooks in fair.c only gather their inputs and act through the
 * balancer's own mechanisms.
 *
 * Safety. Class logic never touches tasks of other scheduling classes
 * than the fair class, kernel threads (per-CPU ones included), tasks
 * that may run on one CPU only, or exiting tasks; their gain is 0, as is
 * the gain of an unclassified task. A task moved because of its class (a
 * pull it was picked for, a swap) is left alone by class logic for
 * the ``cooldown_ms`` knob (&struct sched_ipcc_task.last_migrate), and a
 * CPU takes part in at most one swap per %IPCC_SWAP_RATELIMIT_NS, so that
 * class logic cannot make tasks ping-pong. Every class-driven decision is
 * counted with sched_ipcc_account_balance().
 *
 * Locking:
 *
 * rq->lock   The pull and misfit hooks run with the source runqueue
 *            locked by fair.c, but for sched_ipcc_misfit_src_ok(),
 *            which reads a remote runqueue's running task under RCU;
 *            the rest decides without runqueue locks. A swap's moves
 *            (ipcc_move_queued()) lock both runqueues, as an RT push
 *            does: that keeps the task queued where it was and its
 *            affinity as read. The first of them marks its task
 *            %IPCC_TASK_SWAPPING until the swap ends, under the lock of
 *            the runqueue the task is on, which can_migrate_task()
 *            holds as it reads the mark.
 * RCU        Remote rq->curr is read with ipcc_rcu_dereference() in the
 *            balancer's RCU read-side section (rcu_read_lock(), or in
 *            7.3's newidle balance preemption disabled alone); a task
 *            found that way is only
 *            referenced inside that section, or pinned with
 *            get_task_struct() first (swaps). The score table is RCU
 *            protected by the core.
 * per-CPU    A CPU's swap slot is claimed with an atomic flag and
 *            released at the swap's end (its work item, or the CPU stop
 *            that makes the second move), which drops the task
 *            references. ipcc_swap_inflight counts the swaps in flight a
 *            CPU takes part in (atomic): such a CPU is not swapped again
 *            until they are done. Racing deciders may still pick the
 *            same partner; ipcc_move_queued() then finds a task moved.
 *            The tick's look state (struct ipcc_tick_scan) is read and
 *            written by its CPU's tick only. ipcc_misfit_marked is
 *            written with its CPU's runqueue locked, read by its tick.
 * (none)     Knobs and swap timestamps are single words read and written
 *            with READ_ONCE()/WRITE_ONCE(); a stale value only shifts one
 *            decision.
 */
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/mmu_context.h>
#include <linux/stop_machine.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#include "sched.h"
#include "ipcc.h"

/*
 * The balancer's RCU read-side sections: rcu_read_lock(), or on newer
 * kernels (7.3's newidle balance) preemption disabled alone, which RCU
 * honours as well. rcu_dereference() would splat on the latter.
 */
#define ipcc_rcu_dereference(p) \
	rcu_dereference_check(p, rcu_read_lock_any_held())

/*
 * A CPU takes part in at most one class-driven swap per 4 ms: as long as
 * a tick at HZ=250, about the time a swap's two stopper runs and the
 * following context switches take on a loaded system, and short against
 * the busy balance interval of a domain.
 */
#define IPCC_SWAP_RATELIMIT_NS	(4 * NSEC_PER_MSEC)

/*
 * A busy CPU whose running task could gain from a swap looks for one on
 * its tick (ipcc_tick_swap_due()), instead of waiting for the periodic
 * balance of its domain, which stretches to hundreds of milliseconds
 * while the load is balanced. A look that finds nothing doubles the wait
 * before the next one, from IPCC_SWAP_RATELIMIT_NS up to this.
 */
#define IPCC_SWAP_SCAN_MAX_NS	(32 * NSEC_PER_MSEC)

/*
 * CPU time after which a task that is still unknown to class logic and
 * runs beside a busy SMT sibling may be rotated out of its CPU
 * (ipcc_unknown_rotatable()): twice what the default debounce takes to
 * classify a task whose readings are trusted (4 ticks at HZ=250).
 */
#define IPCC_UNKNOWN_RUNTIME_NS	(32 * NSEC_PER_MSEC)

static unsigned int ipcc_swap_threshold __read_mostly =
	IPCC_SWAP_THRESHOLD_DEFAULT;
static unsigned int ipcc_misfit_threshold __read_mostly =
	IPCC_MISFIT_THRESHOLD_DEFAULT;
static unsigned int ipcc_cooldown_ms __read_mostly = IPCC_COOLDOWN_MS_DEFAULT;
/* ipcc_cooldown_ms in jiffies, as used by the hot paths. */
static unsigned long ipcc_cooldown_jiffies __read_mostly;

/*
 * Pure decisions.
 */

/**
 * ipcc_pick_pull() - pick the task a pull should take first
 * @gain: gains on the destination of the candidates, in the order the
 *        balancer would try them (index 0 first)
 * @nr:   number of candidates
 *
 * The candidate with the highest gain wins, so that the destination gets
 * the task that gains most there, or loses least at the source. Equal
 * gains keep the balancer's order. The pick never has a lower gain than
 * the balancer's own first choice, so class never makes a pull worse.
 *
 * Return: the index of the pick; 0 when the balancer's order stands; -1
 * when there is no candidate.
 */
int ipcc_pick_pull(const int *gain, int nr)
{
	int i, best = -1;

	for (i = 0; i < nr; i++) {
		if (best < 0 || gain[i] > gain[best])
			best = i;
	}

	return best;
}

/**
 * ipcc_break_group_tie() - break a tie between two busiest-group candidates
 * @mode:         the IPCC mode
 * @tie:          whether the existing rules see the two groups as equal
 * @pick:         the existing rules' verdict: true when the candidate
 *                replaces the current busiest group
 * @gain_cand:    best gain on the destination of a task running in the
 *                candidate group
 * @gain_busiest: the same for the current busiest group
 *
 * Only ties are broken, in any mode but %IPCC_MODE_OFF: the group whose
 * running task gains more on the destination wins. Equal gains keep the
 * existing verdict.
 *
 * Return: true when the candidate becomes the busiest group.
 */
bool ipcc_break_group_tie(int mode, bool tie, bool pick, int gain_cand,
			  int gain_busiest)
{
	if (mode < IPCC_MODE_TIEBREAK || !tie || gain_cand == gain_busiest)
		return pick;

	return gain_cand > gain_busiest;
}

/**
 * ipcc_asym_pick() - choose between two asym packing groups
 * @mode:         the IPCC mode
 * @prio_cmp:     the existing rule: > 0 when the current busiest group's
 *                preferred CPU has the higher priority (the candidate, on
 *                lower-priority CPUs, wins), < 0 when the candidate's
 *                has, 0 when the priorities are equal
 * @gain_cand:    best gain on the destination of a task running in the
 *                candidate group
 * @gain_busiest: the same for the current busiest group
 *
 * Several groups could send a task to an idle CPU of higher priority.
 * The balancer empties the lowest-priority one first; with equal
 * priorities the group whose task gains most on the destination goes
 * first (%IPCC_MODE_TIEBREAK). In %IPCC_MODE_FULL the gain ranks above
 * the priority, which only decides between equal gains.
 *
 * Return: true when the candidate becomes the busiest group.
 */
bool ipcc_asym_pick(int mode, int prio_cmp, int gain_cand, int gain_busiest)
{
	if (mode >= IPCC_MODE_FULL && gain_cand != gain_busiest)
		return gain_cand > gain_busiest;

	if (prio_cmp)
		return prio_cmp > 0;

	return ipcc_break_group_tie(mode, true, false, gain_cand, gain_busiest);
}

/**
 * ipcc_break_rq_tie() - break a tie between two CPUs or runqueues
 * @mode:         the IPCC mode
 * @gain_cand:    gain on the destination of the candidate's task
 * @gain_busiest: gain on the destination of the current choice's task
 *
 * For choices the existing rules see as equal (two runqueues with the
 * same load, utilization, task count or misfit load; two idle CPUs of a
 * node): the candidate wins only with a strictly higher gain, so equal
 * gains keep the existing choice.
 *
 * Return: true when the candidate replaces the current choice.
 */
bool ipcc_break_rq_tie(int mode, int gain_cand, int gain_busiest)
{
	return mode >= IPCC_MODE_TIEBREAK && gain_cand > gain_busiest;
}

/**
 * ipcc_should_swap() - whether to exchange two running tasks
 * @gain_a:    gain of the first task moving to the second one's CPU
 * @gain_b:    gain of the second task moving to the first one's CPU
 * @threshold: the sum of both gains must exceed this (``swap_threshold``)
 * @now:       the current time, in ns
 * @last_swap: time of the last swap either CPU took part in, 0 for none
 * @ratelimit: minimum time between two swaps of a CPU, in ns
 *
 * A swap where one task loses must keep at least a quarter of what the
 * other gains (the loss is at most three quarters of the gain): it makes
 * the system faster by a margin, rather than moving most of one task's
 * speed to the other (say -900 for +1000 of 1024).
 *
 * Return: true when the swap gains more than @threshold, neither task
 * loses more than three quarters of the other's gain, and neither CPU
 * swapped within the last @ratelimit ns.
 */
bool ipcc_should_swap(int gain_a, int gain_b, int threshold, u64 now,
		      u64 last_swap, u64 ratelimit)
{
	if (gain_a + gain_b <= threshold)
		return false;
	if (4 * -min(gain_a, gain_b) > 3 * max(gain_a, gain_b))
		return false;

	return !last_swap || now >= last_swap + ratelimit;
}

/**
 * ipcc_swap_candidate() - what a look makes of one possible swap partner
 * @gain_a:    gain of the looking CPU's task moving to the partner's CPU
 * @gain_b:    gain of the partner moving to the looking CPU
 * @threshold: the ``swap_threshold`` knob
 * @now:       the current time, in ns
 * @last_swap: time of the last swap either CPU took part in, 0 for none
 * @ratelimit: minimum time between two swaps of a CPU, in ns
 * @pending:   the partner's CPU takes part in a swap not done yet
 *
 * A swap that ipcc_should_swap() would take but for the rate limit, or
 * whose partner is still being swapped, is worth looking again for soon:
 * the tick then does not stretch its wait (ipcc_swap_scan_wait()), and
 * the second of two tasks that want a P-core each does not lose up to
 * %IPCC_SWAP_SCAN_MAX_NS to the first one's swap.
 *
 * Return: %IPCC_LOOK_FOUND when the swap may be made now,
 * %IPCC_LOOK_LATER when it is worth making but must wait, else
 * %IPCC_LOOK_NONE.
 */
enum ipcc_look ipcc_swap_candidate(int gain_a, int gain_b, int threshold,
				   u64 now, u64 last_swap, u64 ratelimit,
				   bool pending)
{
	if (!ipcc_should_swap(gain_a, gain_b, threshold, 0, 0, 0))
		return IPCC_LOOK_NONE;
	if (pending || !ipcc_should_swap(gain_a, gain_b, threshold, now,
					 last_swap, ratelimit))
		return IPCC_LOOK_LATER;

	return IPCC_LOOK_FOUND;
}

/**
 * ipcc_lag_update() - one tick of a task's progress lag
 * @lag:      the task's lag (&struct sched_ipcc_task.lag)
 * @headroom: how much better the task's class scores on its best CPU
 *            than where it runs (sched_ipcc_task_headroom()), >= 0
 *
 * Return: @lag less 1/2^%IPCC_LAG_SHIFT of it (rounded up, so that it
 * reaches 0 on the best CPU), plus @headroom; at most %U16_MAX.
 */
u16 ipcc_lag_update(u16 lag, int headroom)
{
	unsigned int v = lag - DIV_ROUND_UP(lag, 1U << IPCC_LAG_SHIFT);

	return min_t(unsigned int, v + max(headroom, 0), U16_MAX);
}

/**
 * ipcc_rotate_candidate() - whether two tasks should take turns on a CPU
 * @gain_a:    gain of the looking CPU's task moving to the partner's CPU
 * @gain_b:    gain of the partner moving to the looking CPU
 * @lag_a:     the looking CPU's task's lag (&struct sched_ipcc_task.lag)
 * @lag_b:     the partner's lag
 * @threshold: the ``swap_threshold`` knob
 * @now:       the current time, in ns
 * @last_swap: time of the last swap either CPU took part in, 0 for none
 * @ratelimit: minimum time between two swaps of a CPU, in ns
 * @pending:   the partner's CPU takes part in a swap not done yet
 *
 * Two tasks of one class, one on a P-core and one on an E-core, gain
 * nothing together from a swap, so ipcc_swap_candidate() leaves them
 * where they are, and the one on the E-core falls behind for as long as
 * both run: four equal chunks of work on two P-cores and two E-cores
 * finish when the E-cores' two do, at about 0.87 of the best schedule.
 * A swap that loses nothing (the sum of the gains between 0 and
 * @threshold, the looking task gaining) lets them take turns instead,
 * when the looking task lags behind the partner by more than
 * %IPCC_ROTATE_TICKS times @gain_a, and never by less than as many times
 * @threshold: a swap stops two CPUs, and a small gain would otherwise
 * buy a turn as often as a large one. The lags of two tasks of one class
 * part by at most 2^%IPCC_LAG_SHIFT ticks of the difference between their
 * CPUs' scores for it, so CPUs that differ by less than half @threshold
 * (the favoured P-core and another, for class 0) see no turns.
 *
 * Return: %IPCC_LOOK_FOUND when the tasks should trade places now;
 * %IPCC_LOOK_LATER when they are such a pair but the lag, the rate limit
 * or a pending swap says not yet; else %IPCC_LOOK_NONE.
 */
enum ipcc_look ipcc_rotate_candidate(int gain_a, int gain_b,
				     unsigned int lag_a, unsigned int lag_b,
				     int threshold, u64 now, u64 last_swap,
				     u64 ratelimit, bool pending)
{
	if (gain_a <= 0 || gain_a + gain_b < 0 || gain_a + gain_b > threshold)
		return IPCC_LOOK_NONE;
	if (lag_a <= lag_b + IPCC_ROTATE_TICKS * max(gain_a, threshold) ||
	    pending || (last_swap && now < last_swap + ratelimit))
		return IPCC_LOOK_LATER;

	return IPCC_LOOK_FOUND;
}

/**
 * ipcc_unknown_rotatable() - whether an unknown task may take turns
 * @shared:  another SMT thread of the task's core runs a task
 * @runtime: the task's CPU time so far, in ns
 *
 * A task unknown to class logic (no class, no mix) is never swapped: its
 * gain is unknown, not nil. Where it runs beside a busy SMT sibling it may
 * stay unknown for good, though: the x86 backend trusts no class 0 or 1
 * reading there (the Alder and Raptor Lake accuracy rule), so a task of
 * those classes that only ever ran on a shared P-core is never classified
 * and never leaves it for a task that gains from that P-core. Such a task
 * takes turns with a lagging task as if it were of that task's kind (a
 * swap of no gain, ipcc_rotate_candidate()): on the other CPU it can be
 * classified, and the swaps that follow go by its class. A task that ran
 * less than %IPCC_UNKNOWN_RUNTIME_NS may yet be classified where it is.
 *
 * Return: true when the task may be rotated out of its CPU.
 */
bool ipcc_unknown_rotatable(bool shared, u64 runtime)
{
	return shared && runtime >= IPCC_UNKNOWN_RUNTIME_NS;
}

/**
 * ipcc_rotation_busy() - whether a task is busy enough to take a turn
 * @runnable: the task's PELT runnable average (&struct sched_avg)
 *
 * Rotation shares the faster CPUs among tasks that compete for them all
 * the time. A task that runs only part of every period (a duty-cycled
 * thread, a spin-wait that sleeps between its rounds) would leave the
 * faster CPU idle whenever it sleeps, while the task it took the turn
 * from waits on a slower one: the swap then costs more than the estimate
 * of the gains says. Only a task runnable at least %IPCC_ROTATE_BUSY of
 * the time takes a turn; gain swaps are not limited.
 *
 * Return: true when the task may take a turn.
 */
bool ipcc_rotation_busy(unsigned long runnable)
{
	return runnable >= IPCC_ROTATE_BUSY;
}

/**
 * ipcc_swap_holds() - whether the load balancer leaves a swapped task alone
 * @flags:   the task's &struct sched_ipcc_task.flags
 * @cooling: the task is within the ``cooldown_ms`` knob of its last
 *           class-driven migration (ipcc_in_cooldown())
 *
 * A swap's first task waits on the partner's CPU until the second move
 * (%IPCC_TASK_SWAPPING), and a pull from the CPU it left, idle meanwhile,
 * would undo the swap. After the swap both tasks wait on their new CPUs
 * for their turn to run (%IPCC_TASK_SWAPPED), and a balance queued while
 * the swap was halfway would undo it as well: under TCG, an active
 * balance queued behind the swap's CPU stop on the partner's CPU moved
 * the first task back 0.04 ms after the swap, in 4 of 14 swaps of a
 * traced phase-change run. That hold ends with the task's first tick on
 * its new CPU, or with the cooldown, so that a task that does not run
 * soon is not held for long.
 *
 * Return: true while the balancer must not move the task.
 */
bool ipcc_swap_holds(u8 flags, bool cooling)
{
	if (flags & IPCC_TASK_SWAPPING)
		return true;

	return (flags & IPCC_TASK_SWAPPED) && cooling;
}

/**
 * ipcc_swap_outranks() - whether another task should have a swap partner
 * @gain:       gain of the task whose CPU found the partner, moving there
 * @gain_other: gain of another CPU's task moving to the partner's CPU
 * @gain_back:  gain of the partner moving to that other CPU
 * @threshold:  the ``swap_threshold`` knob
 *
 * Swaps are decided by the CPU whose task would gain, as soon as it
 * looks: without this, the first task to look takes a partner's place
 * even when another task would gain more there, and the swap that would
 * then put the better task there may fall under the threshold.
 *
 * Return: true when the other task gains strictly more and its own swap
 * with the partner would pass ipcc_should_swap() (rate limit aside).
 */
bool ipcc_swap_outranks(int gain, int gain_other, int gain_back,
			int threshold)
{
	return gain_other > gain &&
	       ipcc_should_swap(gain_other, gain_back, threshold, 0, 0, 0);
}

/**
 * ipcc_tick_swap_due() - whether a busy CPU looks for a swap on this tick
 * @headroom:  how much better the running task's class scores on its best
 *             CPU than here (sched_ipcc_task_headroom())
 * @threshold: the ``swap_threshold`` knob
 * @now:       the current time, in ns
 * @next:      the time before which this CPU does not look again, in ns
 *
 * A swap needs the sum of two gains above @threshold, so one of the two
 * tasks gains more than half of it: the CPU of that task looks. The other
 * CPU need not, which keeps CPUs whose tasks are well placed from looking
 * at all.
 *
 * Return: true when @headroom exceeds half of @threshold and @now has
 * reached @next.
 */
bool ipcc_tick_swap_due(int headroom, int threshold, u64 now, u64 next)
{
	return headroom > threshold / 2 && now >= next;
}

/**
 * ipcc_swap_scan_wait() - how long a CPU waits before it looks again
 * @prev:  the previous wait, in ns; 0 when there was none
 * @look:  what this look came to
 * @same:  whether the running task's class and the number of CPUs it may
 *         use are those the previous look was for
 *
 * A look that found a swap, or one worth making later
 * (ipcc_swap_candidate()), or one for a class or an affinity that has
 * just changed (a task unpinned from the E-cores), starts over at the
 * swap rate limit; a fruitless look doubles the wait, up to
 * %IPCC_SWAP_SCAN_MAX_NS, so that a task that cannot be placed better
 * (more vector tasks than P-cores) costs at most one look per 32 ms.
 *
 * Return: the wait, in ns.
 */
u64 ipcc_swap_scan_wait(u64 prev, enum ipcc_look look, bool same)
{
	if (look != IPCC_LOOK_NONE || !same || !prev)
		return IPCC_SWAP_RATELIMIT_NS;

	return clamp_t(u64, prev * 2, IPCC_SWAP_RATELIMIT_NS,
		       IPCC_SWAP_SCAN_MAX_NS);
}

/**
 * ipcc_class_misfit() - whether a class makes a task a misfit
 * @score_here: the score of the task's class on its CPU
 * @best_score: its best score on a bigger CPU the task may use
 * @threshold:  the margin the best score must exceed (``misfit_threshold``)
 *
 * A score of 0 on the bigger CPUs (the hardware asking not to use them)
 * never makes a misfit; a score of 0 here makes one whenever a bigger CPU
 * scores above @threshold.
 *
 * Return: true when @best_score exceeds @score_here by more than
 * @threshold.
 */
bool ipcc_class_misfit(int score_here, int best_score, int threshold)
{
	return best_score - score_here > threshold;
}

/**
 * ipcc_in_cooldown() - whether a task is in its post-migration cooldown
 * @now:      the low 32 bits of jiffies
 * @last:     &struct sched_ipcc_task.last_migrate, 0 for never
 * @cooldown: the cooldown, in jiffies; 0 for none
 *
 * Wraparound safe for cooldowns below 2^31 jiffies.
 *
 * Return: true within @cooldown jiffies of @last.
 */
bool ipcc_in_cooldown(u32 now, u32 last, u32 cooldown)
{
	return last && (u32)(now - last) < cooldown;
}

/*
 * Task state.
 */

bool sched_ipcc_balance_movable(struct task_struct *p)
{
	if (p->sched_class != &fair_sched_class)
		return false;
	if (p->flags & (PF_KTHREAD | PF_EXITING))
		return false;
	if (p->nr_cpus_allowed <= 1)
		return false;

	return !ipcc_in_cooldown((u32)jiffies, READ_ONCE(p->ipcc.last_migrate),
				 READ_ONCE(ipcc_cooldown_jiffies));
}

/*
 * Whether another SMT thread of @cpu's core than @other runs a task: then
 * a task on @cpu gets a thread's share of the core, not the whole core.
 * @other is the CPU a move comes from or goes to, which the move itself
 * frees or fills. Lockless and bounded by the SMT width; may be out of
 * date by the time it is used, like any remote idle check of the
 * balancer.
 */
static bool ipcc_core_shared(int cpu, int other)
{
#ifdef CONFIG_SCHED_SMT
	int sib;

	if (!sched_smt_active())
		return false;

	for_each_cpu(sib, cpu_smt_mask(cpu)) {
		if (sib != cpu && sib != other && !idle_cpu(sib))
			return true;
	}
#endif
	return false;
}

/* @p's gain from @src_cpu to @dst_cpu, each core as shared as it is now. */
static int ipcc_smt_gain(struct task_struct *p, int src_cpu, int dst_cpu)
{
	return sched_ipcc_task_gain_smt(p, src_cpu, dst_cpu,
					ipcc_core_shared(src_cpu, dst_cpu),
					ipcc_core_shared(dst_cpu, src_cpu));
}

/* ipcc_smt_gain() of a task giving up its CPU for a turn. */
static int ipcc_smt_turn_gain(struct task_struct *p, int src_cpu, int dst_cpu)
{
	return ipcc_task_turn_gain_smt(p, src_cpu, dst_cpu,
				       ipcc_core_shared(src_cpu, dst_cpu),
				       ipcc_core_shared(dst_cpu, src_cpu));
}

int sched_ipcc_balance_gain(struct task_struct *p, int src_cpu, int dst_cpu)
{
	if (!sched_ipcc_balance_movable(p))
		return 0;

	return ipcc_smt_gain(p, src_cpu, dst_cpu);
}

/**
 * ipcc_tie_gain() - class gain of the task a balance would move
 * @sd:      the domain being balanced
 * @rq:      a runqueue of @sd, not locked
 * @dst_cpu: the CPU balancing
 * @task:    set to the task the gain is for, or NULL when there is none
 *
 * The balancer breaks ties between groups and between runqueues by the
 * gain on @dst_cpu of the task that would move. Only one such task is
 * known without the runqueue's lock: the running task of a runqueue that
 * has no other, which an active balance (asym packing, misfit) moves.
 * A runqueue with more tasks gives up one of its queued tasks instead,
 * which detach_tasks() picks by class with the runqueue locked. So the
 * gain is that of the running task when it is the runqueue's only task,
 * a fair task allowed on @dst_cpu, and @sd has asymmetric CPUs
 * (%SD_ASYM_PACKING or %SD_ASYM_CPUCAPACITY), as
 * sched_ipcc_balance_gain() sees it; 0 otherwise.
 *
 * Context: in the balancer's RCU read-side section.
 * Return: the gain, in normalised units, or 0.
 */
static int ipcc_tie_gain(struct sched_domain *sd, struct rq *rq, int dst_cpu,
			 struct task_struct **task)
{
	struct task_struct *curr;

	*task = NULL;
	if (!(sd->flags & (SD_ASYM_PACKING | SD_ASYM_CPUCAPACITY)))
		return 0;
	if (READ_ONCE(rq->nr_running) != 1)
		return 0;

	curr = ipcc_rcu_dereference(rq->curr);
	if (!curr || curr->sched_class != &fair_sched_class ||
	    !cpumask_test_cpu(dst_cpu, curr->cpus_ptr))
		return 0;

	*task = curr;
	return sched_ipcc_balance_gain(curr, cpu_of(rq), dst_cpu);
}

void __sched_ipcc_group_update(struct sched_ipcc_group *g,
			       struct sched_domain *sd, struct rq *rq,
			       int dst_cpu)
{
	struct task_struct *p;
	int gain;

	gain = ipcc_tie_gain(sd, rq, dst_cpu, &p);
	if (!p || (g->task && gain <= g->gain))
		return;

	g->gain = gain;
	g->cpu = cpu_of(rq);
	g->task = p;
}

/* Count a busiest-group choice class changed: @win over @lose. */
static void ipcc_account_group(const struct sched_ipcc_group *win,
			       const struct sched_ipcc_group *lose,
			       int dst_cpu)
{
	/* The gains differ, so at least one group has a task. */
	const struct sched_ipcc_group *g = win->task ? win : lose;

	if (g->task)
		sched_ipcc_account_balance(IPCC_STAT_GROUP_TIE, g->task, g->cpu,
					   dst_cpu, win->gain - lose->gain);
}

bool __sched_ipcc_group_pick(const struct sched_ipcc_group *cand,
			     const struct sched_ipcc_group *busiest,
			     int dst_cpu, bool pick)
{
	bool ret = ipcc_break_group_tie(sched_ipcc_mode(), true, pick,
					cand->gain, busiest->gain);

	if (ret != pick)
		ipcc_account_group(ret ? cand : busiest, ret ? busiest : cand,
				   dst_cpu);
	return ret;
}

bool sched_ipcc_group_asym(const struct sched_ipcc_group *cand,
			   const struct sched_ipcc_group *busiest, int dst_cpu,
			   int cand_cpu, int busiest_cpu)
{
	bool pick = sched_asym_prefer(busiest_cpu, cand_cpu), ret;
	int prio_cmp = pick ? 1 : (sched_asym_prefer(cand_cpu, busiest_cpu) ?
				   -1 : 0);

	ret = ipcc_asym_pick(sched_ipcc_mode(), prio_cmp, cand->gain,
			     busiest->gain);
	if (ret != pick)
		ipcc_account_group(ret ? cand : busiest, ret ? busiest : cand,
				   dst_cpu);
	return ret;
}

bool __sched_ipcc_rq_tie(struct sched_domain *sd, struct rq *rq,
			 struct rq *busiest, int dst_cpu)
{
	struct task_struct *pc, *pb;
	int gc, gb;

	gc = ipcc_tie_gain(sd, rq, dst_cpu, &pc);
	gb = ipcc_tie_gain(sd, busiest, dst_cpu, &pb);
	if (!ipcc_break_rq_tie(sched_ipcc_mode(), gc, gb))
		return false;

	/* gc > gb: at least one of the two has a task that would move. */
	sched_ipcc_account_balance(IPCC_STAT_RQ_TIE, pc ? pc : pb,
				   pc ? cpu_of(rq) : cpu_of(busiest), dst_cpu,
				   gc - gb);
	return true;
}

void sched_ipcc_note_migrate(struct task_struct *p)
{
	u32 now = (u32)jiffies;

	WRITE_ONCE(p->ipcc.last_migrate, now ?: 1);
}

/* The pull pick looks at this many tasks at most. */
#define IPCC_PULL_SCAN	8

struct task_struct *__sched_ipcc_pull_pick(struct rq *src, int dst_cpu,
					   unsigned int loop_max, bool misfit,
					   bool any_task)
{
	struct task_struct *cand[IPCC_PULL_SCAN], *p;
	int gain[IPCC_PULL_SCAN], mode = sched_ipcc_mode(), nr = 0, best;
	struct list_head *tasks = &src->cfs_tasks;
	unsigned int limit, scanned = 0;

	lockdep_assert_rq_held(src);
	if (misfit || (mode == IPCC_MODE_TIEBREAK && !any_task))
		return NULL;

	limit = min_t(unsigned int, IPCC_PULL_SCAN, loop_max);
	list_for_each_entry_reverse(p, tasks, se.group_node) {
		if (scanned++ >= limit)
			break;
		/* can_migrate_task()'s tests without side effects. */
		if (task_on_cpu(src, p) || kthread_is_per_cpu(p) ||
		    !cpumask_test_cpu(dst_cpu, p->cpus_ptr))
			continue;
		cand[nr] = p;
		gain[nr++] = sched_ipcc_balance_gain(p, cpu_of(src), dst_cpu);
	}

	best = ipcc_pick_pull(gain, nr);
	if (best <= 0)
		return NULL;

	list_move_tail(&cand[best]->se.group_node, tasks);
	return cand[best];
}

void sched_ipcc_pulled(struct task_struct *p, int src_cpu, int dst_cpu)
{
	sched_ipcc_account_balance(IPCC_STAT_PULL, p, src_cpu, dst_cpu,
				   sched_ipcc_task_gain(p, src_cpu, dst_cpu));
	sched_ipcc_note_migrate(p);
}

/*
 * Class misfit. The task a CPU's update_misfit_status() last marked a
 * misfit by class: written by that CPU with its runqueue locked, read by
 * its tick, compared and never dereferenced.
 */
static DEFINE_PER_CPU(struct task_struct *, ipcc_misfit_marked);

static void ipcc_misfit_mark(struct rq *rq, struct task_struct *p, bool on)
{
	u8 flags = p->ipcc.flags;

	if (on) {
		flags |= IPCC_TASK_MISFIT;
		per_cpu(ipcc_misfit_marked, cpu_of(rq)) = p;
	} else {
		flags &= ~IPCC_TASK_MISFIT;
	}
	if (flags != p->ipcc.flags)
		WRITE_ONCE(p->ipcc.flags, flags);
}

/*
 * Whether some class gains more than ``misfit_threshold`` on a bigger
 * CPU, for the wake-up path's inline check (sched_ipcc_wake_fits()),
 * which would otherwise call out for every CPU it looks at. Written by
 * ipcc_misfit_update() under ipcc_misfit_lock, read locklessly; the
 * out-of-line checks do not trust it.
 */
bool ipcc_misfit_possible __read_mostly;
static DEFINE_MUTEX(ipcc_misfit_lock);

/**
 * ipcc_misfit_update() - recompute ipcc_misfit_possible
 *
 * Called after the score cache was published and after the threshold
 * was written. Each caller publishes its input first and then reads
 * both under the lock, so the last update sees the latest of each.
 *
 * Context: process context; may sleep.
 */
void ipcc_misfit_update(void)
{
	guard(mutex)(&ipcc_misfit_lock);
	WRITE_ONCE(ipcc_misfit_possible,
		   sched_ipcc_misfit_room() > READ_ONCE(ipcc_misfit_threshold));
}

bool __sched_ipcc_task_fits(struct rq *rq, struct task_struct *p, bool fits)
{
	int threshold = READ_ONCE(ipcc_misfit_threshold);
	int cpu = cpu_of(rq);
	bool misfit = false;
	int here, best;

	lockdep_assert_rq_held(rq);

	/* No class gains enough anywhere: no task needs its mix read. */
	if (fits && sched_ipcc_misfit_room() > threshold &&
	    sched_ipcc_task_known(p) && sched_ipcc_balance_movable(p)) {
		best = sched_ipcc_task_score(p, cpu, true);
		here = sched_ipcc_task_score(p, cpu, false);
		misfit = best >= 0 && here >= 0 &&
			 ipcc_class_misfit(here, best, threshold);
	}

	if (misfit && !rq->misfit_task_load)
		sched_ipcc_account_balance(IPCC_STAT_MISFIT, p, cpu, -1,
					   best - here);
	ipcc_misfit_mark(rq, p, misfit);

	return fits && !misfit;
}

/**
 * ipcc_misfit_pull_ok() - whether a CPU should pull a class misfit
 * @allowed:   the task may run on the pulling CPU
 * @score_src: the score of the task's class where it runs
 * @score_dst: the score of its class on the pulling CPU
 * @threshold: the ``misfit_threshold`` knob
 *
 * A class misfit was marked for its best score on some bigger CPU; the
 * CPU that pulls it must itself beat its score here by the same margin
 * (a Lunar Lake-like part has bigger CPUs of two kinds). Misfits by
 * utilization do not come here: they keep the existing rules.
 *
 * Return: true when the pull may go on.
 */
bool ipcc_misfit_pull_ok(bool allowed, int score_src, int score_dst,
			 int threshold)
{
	return allowed && ipcc_class_misfit(score_src, score_dst, threshold);
}

bool __sched_ipcc_misfit_pull(struct task_struct *p, int src_cpu, int dst_cpu,
			      bool queued)
{
	int src, dst;
	bool ok;

	if (!sched_ipcc_task_known(p) || !sched_ipcc_balance_movable(p))
		return !queued;
	if (!queued && !(READ_ONCE(p->ipcc.flags) & IPCC_TASK_MISFIT))
		return true;

	src = sched_ipcc_task_score(p, src_cpu, false);
	dst = sched_ipcc_task_score(p, dst_cpu, false);
	ok = ipcc_misfit_pull_ok(cpumask_test_cpu(dst_cpu, p->cpus_ptr),
				 src < 0 ? IPCC_SCORE_NEUTRAL : src,
				 dst < 0 ? IPCC_SCORE_NEUTRAL : dst,
				 READ_ONCE(ipcc_misfit_threshold));
	/* detach_tasks() takes a queued task it accepts: the cooldown starts. */
	if (ok && queued)
		sched_ipcc_note_migrate(p);

	return ok;
}

bool __sched_ipcc_misfit_src_ok(struct rq *src, int dst_cpu)
{
	guard(rcu)();
	return __sched_ipcc_misfit_pull(ipcc_rcu_dereference(src->curr), cpu_of(src),
					dst_cpu, false);
}

/**
 * ipcc_wake_fits() - the wake-up path's verdict on an idle CPU, by class too
 * @fits:       util_fits_cpu() of the task on the CPU: 1 fits, 0 does not,
 *              -1 fits but for the uclamp_min hint
 * @score_here: the task's score on the CPU, -1 when unknown
 * @best_score: its best score on the CPUs of more capacity, -1 when there
 *              is none or it is unknown
 * @threshold:  the ``misfit_threshold`` knob
 *
 * A CPU the task fits by utilization does not fit it when its class is a
 * misfit there (ipcc_class_misfit()): select_idle_capacity() then ranks
 * it with the CPUs too small for the task and takes an idle one the task
 * fits, or the biggest idle one. Unknown scores leave @fits as it is.
 *
 * Return: @fits, or 0 when the task is a misfit by class on the CPU.
 */
int ipcc_wake_fits(int fits, int score_here, int best_score, int threshold)
{
	if (!fits || score_here < 0 || best_score < 0)
		return fits;

	return ipcc_class_misfit(score_here, best_score, threshold) ? 0 : fits;
}

int __sched_ipcc_wake_fits(struct task_struct *p, int cpu, int fits)
{
	int threshold = READ_ONCE(ipcc_misfit_threshold);

	/* As in update_misfit_status(): nowhere bigger to go. */
	if (arch_scale_cpu_capacity(cpu) >= p->max_allowed_capacity)
		return fits;
	/* No class gains enough anywhere: no task needs its mix read. */
	if (sched_ipcc_misfit_room() <= threshold ||
	    !sched_ipcc_task_known(p) || !sched_ipcc_balance_movable(p))
		return fits;

	return ipcc_wake_fits(fits, sched_ipcc_task_score(p, cpu, false),
			      sched_ipcc_task_score(p, cpu, true), threshold);
}

/*
 * @curr, marked a misfit by class, runs on this CPU's tick. When this
 * CPU is not the one that marked it, it has moved (pulled up, or placed
 * elsewhere by a wake-up): its cooldown starts and the mark goes.
 */
void ipcc_misfit_tick(struct task_struct *curr)
{
	if (this_cpu_read(ipcc_misfit_marked) == curr)
		return;

	sched_ipcc_note_migrate(curr);
	WRITE_ONCE(curr->ipcc.flags, curr->ipcc.flags & ~IPCC_TASK_MISFIT);
}

/*
 * Swaps. Each CPU has one slot: a swap it decided and that is not done
 * yet. A swap is two moves of a queued task, each made on the CPU the
 * task leaves while something else runs there: the deciding CPU's work
 * item moves that CPU's task (the work item preempted it), then a CPU
 * stop on the partner's CPU moves the partner. No CPU waits for another,
 * unlike migrate_swap(), whose stop_two_cpus() holds both CPUs until both
 * have arrived.
 */
struct ipcc_swap {
	struct work_struct	work;
	struct cpu_stop_work	stop;
	struct task_struct	*a;
	struct task_struct	*b;
	int			cpu_a;
	int			cpu_b;
	int			gain;
	atomic_t		busy;
};

static DEFINE_PER_CPU(struct ipcc_swap, ipcc_swap_slot);
/*
 * Time (ipcc_now()) of the start and of the end of a CPU's last swap.
 * Compared across CPUs, so from a clock all CPUs share.
 */
static DEFINE_PER_CPU(u64, ipcc_last_swap);
/* Swaps decided and not yet done that a CPU takes part in. */
static DEFINE_PER_CPU(atomic_t, ipcc_swap_inflight);

/*
 * The time swaps are rate limited by: CLOCK_MONOTONIC, which every CPU
 * reads alike (local_clock() may drift between CPUs), and which may be
 * read from the tick's hard interrupt.
 */
static u64 ipcc_now(void)
{
	return ktime_get_mono_fast_ns();
}

/* Whether a CPU has no RT or deadline task that stopping it would delay. */
static bool ipcc_rq_only_fair(int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	return !READ_ONCE(rq->rt.rt_nr_running) &&
	       !READ_ONCE(rq->dl.dl_nr_running);
}

/*
 * Whether the swap @s still makes sense as its work item runs, on @s's
 * first CPU: the second task still runs on its CPU, the first one still
 * waits on its own (this work item preempted it), and neither CPU has a
 * task of a higher scheduling class that stopping it would delay.
 * Lockless: ipcc_move_queued() checks each task again under its locks.
 */
static bool ipcc_swap_still_due(struct ipcc_swap *s)
{
	guard(rcu)();
	return task_cpu(s->a) == s->cpu_a && task_on_rq_queued(s->a) &&
	       ipcc_rcu_dereference(cpu_rq(s->cpu_b)->curr) == s->b &&
	       ipcc_rq_only_fair(s->cpu_a) && ipcc_rq_only_fair(s->cpu_b);
}

/*
 * Move @p from @src_cpu to @dst_cpu as an RT push moves a queued task,
 * with both runqueues locked: only when it is still a fair task queued
 * there and not running (something else runs on @src_cpu: the swap's
 * work item or its CPU stop), runnable, free to migrate and allowed on
 * @dst_cpu, which is active. The two locks keep it queued where it is
 * and its affinity as read. A swap's @first move marks @p
 * %IPCC_TASK_SWAPPING, under the lock of the runqueue it is now on, so
 * that no balance pulls it back before the second move; the second marks
 * the partner %IPCC_TASK_SWAPPED (ipcc_swap_holds()) and starts its
 * cooldown again from now (ipcc_swap_end() does so for the first task).
 * Any context but hard IRQ.
 *
 * Return: true when @p moved.
 */
static bool ipcc_move_queued(struct task_struct *p, int src_cpu, int dst_cpu,
			     bool first)
{
	struct rq *src = cpu_rq(src_cpu), *dst = cpu_rq(dst_cpu);

	guard(irqsave)();
	guard(double_rq_lock)(src, dst);
	if (task_cpu(p) != src_cpu || p->sched_class != &fair_sched_class ||
	    !task_on_rq_queued(p) || task_on_cpu(src, p) ||
	    !task_is_running(p) || is_migration_disabled(p) ||
	    kthread_is_per_cpu(p) || !cpumask_test_cpu(dst_cpu, p->cpus_ptr) ||
	    !cpu_active(dst_cpu))
		return false;

	move_queued_task_locked(src, dst, p);
	WRITE_ONCE(p->ipcc.flags, p->ipcc.flags |
		   (first ? IPCC_TASK_SWAPPING : IPCC_TASK_SWAPPED));
	if (!first)
		sched_ipcc_note_migrate(p);
	return true;
}

/*
 * The end of the swap @s, done when both tasks moved: the first task is
 * no longer halfway, but when it moved it stays held until it has run on
 * its new CPU (ipcc_swap_holds()); the slot is free. A swap that is done
 * starts the first task's cooldown again, from the end of the swap, as
 * the second move did for the partner: the look noted its decision, but
 * the work item may wait for the workqueue to create a worker and the CPU
 * stop for the partner's CPU (tens of milliseconds under QEMU's TCG), and
 * a cooldown that ran out meanwhile would let a balance queued behind the
 * stop move the first task straight back.
 */
static void ipcc_swap_end(struct ipcc_swap *s, bool done)
{
	scoped_guard (task_rq_lock, s->a) {
		u8 flags = s->a->ipcc.flags & ~IPCC_TASK_SWAPPING;

		if (flags != s->a->ipcc.flags && task_cpu(s->a) == s->cpu_b)
			flags |= IPCC_TASK_SWAPPED;
		WRITE_ONCE(s->a->ipcc.flags, flags);
		if (done)
			sched_ipcc_note_migrate(s->a);
	}
	if (done)
		sched_ipcc_account_balance(IPCC_STAT_SWAP, s->a, s->cpu_a,
					   s->cpu_b, s->gain);

	/* The rate limit runs from the end of the swap too. */
	WRITE_ONCE(per_cpu(ipcc_last_swap, s->cpu_a), ipcc_now());
	WRITE_ONCE(per_cpu(ipcc_last_swap, s->cpu_b), ipcc_now());
	atomic_dec(per_cpu_ptr(&ipcc_swap_inflight, s->cpu_a));
	atomic_dec(per_cpu_ptr(&ipcc_swap_inflight, s->cpu_b));

	put_task_struct(s->a);
	put_task_struct(s->b);
	atomic_set_release(&s->busy, 0);
}

/*
 * The second half of a swap, a CPU stop on the partner's CPU (preemption
 * off): the partner, preempted by this stop, goes to the first task's
 * old CPU, if the first task is still here. The load balancer leaves the
 * first task here meanwhile (sched_ipcc_swap_moving()), but a change of
 * its affinity or a CPU going offline may have moved it; then the
 * partner stays. If the partner no longer waits here (it blocked or
 * moved), the first task's move stands alone, to a CPU where it gains.
 */
static int ipcc_swap_stop(void *arg)
{
	struct ipcc_swap *s = arg;

	ipcc_swap_end(s, task_cpu(s->a) == s->cpu_b &&
		      ipcc_move_queued(s->b, s->cpu_b, s->cpu_a, false));
	return 0;
}

/*
 * The first half, on the deciding CPU's high-priority kworker, which
 * preempted the deciding CPU's task: that task goes to the partner's CPU,
 * then a CPU stop there moves the partner back here. Between the two the
 * first task waits behind the partner, for as long as the stop takes to
 * start.
 */
static void ipcc_swap_workfn(struct work_struct *work)
{
	struct ipcc_swap *s = container_of(work, struct ipcc_swap, work);

	if (sched_ipcc_mode() == IPCC_MODE_FULL && ipcc_swap_still_due(s) &&
	    ipcc_move_queued(s->a, s->cpu_a, s->cpu_b, true)) {
		/*
		 * Not preemptible, as the balancer queues an active balance:
		 * a CPU that is active here cannot park its stopper before
		 * this CPU lets stop_machine() run, so the stop is queued and
		 * runs.
		 */
		guard(preempt)();
		if (cpu_active(s->cpu_b)) {
			stop_one_cpu_nowait(s->cpu_b, ipcc_swap_stop, s, &s->stop);
			return;
		}
	}
	ipcc_swap_end(s, false);
}

bool __sched_ipcc_swap_moving(struct task_struct *p)
{
	u8 flags = READ_ONCE(p->ipcc.flags);

	if (likely(!(flags & (IPCC_TASK_SWAPPING | IPCC_TASK_SWAPPED))))
		return false;

	return ipcc_swap_holds(flags,
			       ipcc_in_cooldown((u32)jiffies,
						READ_ONCE(p->ipcc.last_migrate),
						READ_ONCE(ipcc_cooldown_jiffies)));
}

/* Whether @cpu takes part in a swap that is not done yet. */
static bool ipcc_swap_pending(int cpu)
{
	return atomic_read(per_cpu_ptr(&ipcc_swap_inflight, cpu));
}

/* A CPU's running task that class logic may move: not idle, movable. */
static bool ipcc_movable_curr(struct task_struct *p)
{
	return p && !is_idle_task(p) && sched_ipcc_balance_movable(p);
}

/*
 * A task class may swap: running, movable by class, and known (a class
 * or a class mix, sched_ipcc_task_known()). An unknown task's gain is
 * unknown rather than nil: swapping it out
 * of a P-core for a classified one would let whichever task the hardware
 * classified first take the P-cores (a vector task still unclassified at
 * start lost its P-core to a scalar one, and the swap back was under the
 * threshold). It may only take turns (ipcc_unknown_rotatable()).
 */
static bool ipcc_swappable(struct task_struct *p)
{
	return ipcc_movable_curr(p) && sched_ipcc_task_known(p);
}

/* The domains class swaps work in: asymmetric, not SMT, not NUMA. */
static bool ipcc_swap_domain(struct sched_domain *sd)
{
	return (sd->flags & (SD_ASYM_PACKING | SD_ASYM_CPUCAPACITY)) &&
	       !(sd->flags & (SD_SHARE_CPUCAPACITY | SD_NUMA));
}

/*
 * Whether @sd holds a CPU where @p's class scores better than on @cpu.
 * A cluster of E-cores (CLS, with SD_ASYM_PACKING from ITMT) holds none:
 * a swap search there cannot find a partner. Bounded by the span; stops
 * at the first such CPU.
 */
static bool ipcc_domain_has_better(struct sched_domain *sd,
				   struct task_struct *p, int cpu)
{
	int other;

	for_each_cpu(other, sched_domain_span(sd)) {
		if (sched_ipcc_task_gain(p, cpu, other) > 0)
			return true;
	}

	return false;
}

/*
 * Whether another CPU of @sd than @this_cpu runs a task that would gain
 * strictly more than @gain from trading places with @partner, which runs
 * on @dst, in a swap that would itself pass: then this swap is left to
 * that CPU's own search, so that @dst goes to the task that gains most
 * rather than to the first that looked. The task that gains most is never
 * outranked, so one of them swaps. Bounded by the span; called only when
 * a swap was found. RCU read lock held.
 */
static bool ipcc_swap_outranked(struct sched_domain *sd, int this_cpu,
				int dst, struct task_struct *partner, int gain,
				int threshold)
{
	struct task_struct *c;
	int cpu;

	for_each_cpu_and(cpu, sched_domain_span(sd), cpu_active_mask) {
		if (cpu == this_cpu || cpu == dst || ipcc_swap_pending(cpu))
			continue;

		c = ipcc_rcu_dereference(cpu_rq(cpu)->curr);
		if (!ipcc_swappable(c) || !cpumask_test_cpu(dst, c->cpus_ptr) ||
		    !cpumask_test_cpu(cpu, partner->cpus_ptr))
			continue;

		if (ipcc_swap_outranks(gain, ipcc_smt_gain(c, cpu, dst),
				       ipcc_smt_gain(partner, dst, cpu),
				       threshold))
			return true;
	}

	return false;
}

/*
 * Look in @sd for the CPU whose running task and this CPU's gain most
 * from trading places, and queue the swap. Called with the RCU read lock
 * held and no runqueue lock.
 *
 * Return: %IPCC_LOOK_FOUND when a swap was queued, %IPCC_LOOK_LATER when
 * one is worth making but has to wait (this CPU or the partner is still
 * swapping or rate limited, or the partner is left to a task that gains
 * more), else %IPCC_LOOK_NONE.
 */
static enum ipcc_look ipcc_try_swap(struct rq *rq, struct sched_domain *sd)
{
	int this_cpu = cpu_of(rq), threshold = READ_ONCE(ipcc_swap_threshold);
	int cpu, ga, gb, gt, best_cpu = -1, best_gain = 0, best_ga = 0;
	unsigned int lag_a, lag_b, best_lag = 0;
	struct task_struct *a, *b, *best = NULL;
	bool rotate = false, unknown, busy;
	enum ipcc_look look, res = IPCC_LOOK_NONE;
	struct ipcc_swap *s;
	u64 now, last_a, last;

	s = per_cpu_ptr(&ipcc_swap_slot, this_cpu);
	if (atomic_read(&s->busy) || ipcc_swap_pending(this_cpu))
		return IPCC_LOOK_LATER;

	a = ipcc_rcu_dereference(rq->curr);
	if (!ipcc_swappable(a))
		return IPCC_LOOK_NONE;

	now = ipcc_now();
	last_a = READ_ONCE(per_cpu(ipcc_last_swap, this_cpu));
	lag_a = READ_ONCE(a->ipcc.lag);
	/* Written by this CPU with its runqueue locked; a stale read is fine. */
	busy = ipcc_rotation_busy(READ_ONCE(a->se.avg.runnable_avg));

	for_each_cpu_and(cpu, sched_domain_span(sd), cpu_active_mask) {
		if (cpu == this_cpu)
			continue;

		b = ipcc_rcu_dereference(cpu_rq(cpu)->curr);
		if (!ipcc_movable_curr(b) || !cpumask_test_cpu(cpu, a->cpus_ptr) ||
		    !cpumask_test_cpu(this_cpu, b->cpus_ptr))
			continue;
		/*
		 * An unknown partner only takes turns, and only where it may
		 * never be classified. Its runtime is read without its
		 * runqueue's lock: a stale value shifts this by a tick.
		 */
		unknown = !sched_ipcc_task_known(b);
		if (unknown &&
		    !ipcc_unknown_rotatable(ipcc_core_shared(cpu, this_cpu),
					    READ_ONCE(b->se.sum_exec_runtime)))
			continue;

		ga = ipcc_smt_gain(a, this_cpu, cpu);
		last = max(last_a, READ_ONCE(per_cpu(ipcc_last_swap, cpu)));
		if (unknown) {
			/* Only a turn, as if of @a's kind. */
			gb = -ga;
			look = IPCC_LOOK_NONE;
		} else {
			gb = ipcc_smt_gain(b, cpu, this_cpu);
			look = ipcc_swap_candidate(ga, gb, threshold, now,
						   last,
						   IPCC_SWAP_RATELIMIT_NS,
						   ipcc_swap_pending(cpu));
		}
		if (look == IPCC_LOOK_NONE && busy && (!best || rotate)) {
			/*
			 * A turn costs the partner nothing by its class nor by
			 * its whole mix: a vector task whose class flaps to 0
			 * for a while passes for scalar by its class alone.
			 */
			gt = unknown ? gb : ipcc_smt_turn_gain(b, cpu, this_cpu);
			lag_b = READ_ONCE(b->ipcc.lag);
			look = ipcc_rotate_candidate(ga, gt, lag_a, lag_b,
						     threshold, now, last,
						     IPCC_SWAP_RATELIMIT_NS,
						     ipcc_swap_pending(cpu));
			if (look == IPCC_LOOK_LATER)
				res = IPCC_LOOK_LATER;
			/* The partner furthest ahead; the first of equal ones. */
			if (look != IPCC_LOOK_FOUND ||
			    (best && lag_b >= best_lag))
				continue;

			rotate = true;
			best_lag = lag_b;
		} else {
			if (look == IPCC_LOOK_LATER)
				res = IPCC_LOOK_LATER;
			if (look != IPCC_LOOK_FOUND)
				continue;

			/* The pair that gains most; the first of equal ones. */
			if (best && !rotate && ga + gb <= best_gain)
				continue;

			rotate = false;
		}

		best = b;
		best_cpu = cpu;
		best_gain = ga + gb;
		best_ga = ga;
	}

	if (!best)
		return res;
	if (ipcc_swap_outranked(sd, this_cpu, best_cpu, best, best_ga,
				threshold) ||
	    atomic_cmpxchg_acquire(&s->busy, 0, 1))
		return IPCC_LOOK_LATER;

	atomic_inc(per_cpu_ptr(&ipcc_swap_inflight, this_cpu));
	atomic_inc(per_cpu_ptr(&ipcc_swap_inflight, best_cpu));
	WRITE_ONCE(per_cpu(ipcc_last_swap, this_cpu), now);
	WRITE_ONCE(per_cpu(ipcc_last_swap, best_cpu), now);
	sched_ipcc_note_migrate(a);
	sched_ipcc_note_migrate(best);

	get_task_struct(a);
	get_task_struct(best);
	s->a = a;
	s->b = best;
	s->cpu_a = this_cpu;
	s->cpu_b = best_cpu;
	s->gain = best_gain;
	/*
	 * A high-priority kworker of this CPU: it preempts the busy task
	 * here at once, and swaps decided on different CPUs run side by side
	 * rather than one after the other in the unbound pool.
	 */
	queue_work_on(this_cpu, system_highpri_wq, &s->work);
	return IPCC_LOOK_FOUND;
}

void __sched_ipcc_balance_swap(struct rq *rq, struct sched_domain *sd)
{
	struct task_struct *curr;

	if (!ipcc_swap_domain(sd))
		return;

	guard(rcu)();
	curr = ipcc_rcu_dereference(rq->curr);
	if (ipcc_swappable(curr) && ipcc_domain_has_better(sd, curr, cpu_of(rq)))
		ipcc_try_swap(rq, sd);
}

/*
 * The tick's look for a swap: when this CPU looks next, how long it waited
 * and for which class and number of allowed CPUs it looked last. Only this
 * CPU's tick touches it.
 */
struct ipcc_tick_scan {
	u64	next;
	u64	wait;
	int	class;
	int	nr_allowed;
};

static DEFINE_PER_CPU(struct ipcc_tick_scan, ipcc_tick_scan);

void __sched_ipcc_tick_swap(struct rq *rq)
{
	struct ipcc_tick_scan *ts = this_cpu_ptr(&ipcc_tick_scan);
	enum ipcc_look look = IPCC_LOOK_NONE;
	int cpu = cpu_of(rq), class, nr, headroom;
	struct task_struct *curr;
	struct sched_domain *sd;
	bool same;
	u64 now;

	guard(rcu)();
	curr = ipcc_rcu_dereference(rq->curr);
	if (!curr || curr->sched_class != &fair_sched_class ||
	    (curr->flags & PF_KTHREAD))
		return;

	/*
	 * Only this tick writes the lag of the task running here; it runs
	 * on in the cooldown, when the task may not swap.
	 */
	headroom = sched_ipcc_task_headroom(curr, cpu);
	WRITE_ONCE(curr->ipcc.lag,
		   ipcc_lag_update(READ_ONCE(curr->ipcc.lag), headroom));
	if (!ipcc_swappable(curr))
		return;

	/*
	 * A class, or a number of allowed CPUs, the last look was not for is
	 * looked for at once: a task unpinned from the E-cores need not wait
	 * out the looks that found nothing while it was pinned.
	 */
	class = sched_ipcc_task_class(curr);
	nr = READ_ONCE(curr->nr_cpus_allowed);
	same = class == ts->class && nr == ts->nr_allowed;
	now = ipcc_now();
	if (!ipcc_tick_swap_due(headroom, READ_ONCE(ipcc_swap_threshold), now,
				same ? ts->next : 0))
		return;

	/* The lowest asymmetric domain that holds a better CPU for curr. */
	sd = ipcc_rcu_dereference(rq->sd);
	while (sd && !(ipcc_swap_domain(sd) &&
		       ipcc_domain_has_better(sd, curr, cpu)))
		sd = ipcc_rcu_dereference(sd->parent);
	if (sd)
		look = ipcc_try_swap(rq, sd);

	ts->wait = ipcc_swap_scan_wait(ts->wait, look, same);
	ts->class = class;
	ts->nr_allowed = nr;
	ts->next = now + ts->wait;
}

/*
 * Knobs, called by ipcc_debug.c. Each is a single word: no lock.
 */

/**
 * ipcc_get_swap_threshold() - the ``swap_threshold`` knob
 *
 * Return: the gain, in normalised units, a swap must exceed.
 */
unsigned int ipcc_get_swap_threshold(void)
{
	return READ_ONCE(ipcc_swap_threshold);
}

/**
 * ipcc_set_swap_threshold() - set the ``swap_threshold`` knob
 * @val: 0..%IPCC_SCORE_SCALE
 *
 * Return: 0, or -EINVAL when @val is out of range (nothing changed).
 */
int ipcc_set_swap_threshold(unsigned int val)
{
	if (val > IPCC_SCORE_SCALE)
		return -EINVAL;

	WRITE_ONCE(ipcc_swap_threshold, val);
	return 0;
}

/**
 * ipcc_get_misfit_threshold() - the ``misfit_threshold`` knob
 *
 * Return: the margin, in normalised units, by which a bigger CPU must
 * score better for a class misfit.
 */
unsigned int ipcc_get_misfit_threshold(void)
{
	return READ_ONCE(ipcc_misfit_threshold);
}

/**
 * ipcc_set_misfit_threshold() - set the ``misfit_threshold`` knob
 * @val: 0..%IPCC_SCORE_SCALE
 *
 * Return: 0, or -EINVAL when @val is out of range (nothing changed).
 */
int ipcc_set_misfit_threshold(unsigned int val)
{
	if (val > IPCC_SCORE_SCALE)
		return -EINVAL;

	WRITE_ONCE(ipcc_misfit_threshold, val);
	ipcc_misfit_update();
	return 0;
}

/**
 * ipcc_get_cooldown_ms() - the ``cooldown_ms`` knob
 *
 * Return: how long class logic leaves a task alone after moving it, in
 * milliseconds.
 */
unsigned int ipcc_get_cooldown_ms(void)
{
	return READ_ONCE(ipcc_cooldown_ms);
}

/**
 * ipcc_set_cooldown_ms() - set the ``cooldown_ms`` knob
 * @ms: 0..%IPCC_COOLDOWN_MS_MAX; 0 disables the cooldown
 *
 * The value takes effect in whole jiffies, rounded up.
 *
 * Return: 0, or -EINVAL when @ms is out of range (nothing changed).
 */
int ipcc_set_cooldown_ms(unsigned int ms)
{
	if (ms > IPCC_COOLDOWN_MS_MAX)
		return -EINVAL;

	WRITE_ONCE(ipcc_cooldown_ms, ms);
	WRITE_ONCE(ipcc_cooldown_jiffies, msecs_to_jiffies(ms));
	return 0;
}

static int __init sched_ipcc_balance_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		INIT_WORK(&per_cpu_ptr(&ipcc_swap_slot, cpu)->work,
			  ipcc_swap_workfn);

	ipcc_cooldown_jiffies = msecs_to_jiffies(ipcc_cooldown_ms);

	return 0;
}
early_initcall(sched_ipcc_balance_init);

#ifdef CONFIG_SCHED_IPCC_KUNIT_TEST
#include "tests/ipcc_balance-kunit.h"
#endif
