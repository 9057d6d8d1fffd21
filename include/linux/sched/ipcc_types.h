/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SCHED_IPCC_TYPES_H
#define _LINUX_SCHED_IPCC_TYPES_H

/*
 * Per-task state of IPC classes (IPCC). Kept apart from
 * <linux/sched/ipcc.h> so that <linux/sched.h> only pulls in this
 * dependency-free definition.
 */

#include <linux/bits.h>
#include <linux/types.h>

/**
 * define IPCC_CLASS_NONE - class value of an unclassified task
 *
 * Distinct from class 0, which is a real hardware class. Unclassified
 * tasks are neutral in every class-aware decision.
 */
#define IPCC_CLASS_NONE		0xff

/**
 * define IPCC_TASK_OVERRIDDEN - flags bit of a task whose class is pinned
 *
 * Set and cleared only through the debugfs ``override`` file. While set,
 * the hardware class source never changes the task's class.
 */
#define IPCC_TASK_OVERRIDDEN	BIT(0)

/**
 * define IPCC_TASK_MISFIT - flags bit of a task marked misfit by its class
 *
 * Set while the misfit machinery holds the task, running on a CPU where
 * it fits by utilization, as a misfit because of its class; cleared when
 * that verdict ends, or once the task runs on another CPU (which starts
 * its cooldown). Tells the balancer to check the class gain on the CPU
 * that would pull the task.
 */
#define IPCC_TASK_MISFIT	BIT(1)

/**
 * define IPCC_TASK_STEADY - flags bit of a task whose candidate class is new
 *
 * Set by the tick when the hardware first reads a class other than the
 * task's, the class mix is full (all but a sixteenth of its weight) and
 * the new class holds less than a sixteenth of it; cleared when a later
 * candidate starts otherwise. Should the new class then win the debounce,
 * the task changed phase rather than flapped, and its mix starts afresh.
 */
#define IPCC_TASK_STEADY	BIT(2)

/**
 * define IPCC_TASK_SWAPPING - flags bit of a task halfway through a swap
 *
 * Set when a class swap's first move puts the task on its partner's CPU,
 * where it waits queued until a CPU stop there moves the partner to the
 * CPU the task left; cleared when the swap ends. The load balancer leaves
 * such a task where it is: the CPU it left is idle until the partner
 * arrives, and its newly idle balance would otherwise pull it straight
 * back and undo the swap.
 */
#define IPCC_TASK_SWAPPING	BIT(3)

/**
 * define IPCC_TASK_SWAPPED - flags bit of a task a swap moved, not run since
 *
 * Set when a swap has put the task on its new CPU (the first task when the
 * swap ends, the partner by the swap's second move); cleared by the
 * task's next tick there. Until then the load balancer leaves it, for at
 * most the ``cooldown_ms`` knob after the swap: a balance queued while the
 * swap was halfway, such as an active balance queued on the partner's CPU
 * behind the swap's own CPU stop, would otherwise move the task straight
 * back.
 */
#define IPCC_TASK_SWAPPED	BIT(4)

/**
 * define IPCC_MIX_CLASSES - classes a task's class mix tracks
 *
 * Thread Director has four classes on every part so far. A task that
 * reads a higher class goes by its debounced class alone.
 */
#define IPCC_MIX_CLASSES	4

/**
 * define IPCC_MIX_ONE - total weight of a task's class mix once full
 */
#define IPCC_MIX_ONE		BIT(14)

/**
 * struct sched_ipcc_task - IPC class state of one task
 * @class: current class, 0-based, or %IPCC_CLASS_NONE when unclassified.
 * @cand:  candidate class being debounced; meaningful only while @cnt > 0.
 * @cnt:   number of consecutive user ticks of the task that read @cand.
 * @flags: %IPCC_TASK_OVERRIDDEN, %IPCC_TASK_MISFIT, %IPCC_TASK_STEADY,
 *         %IPCC_TASK_SWAPPING, %IPCC_TASK_SWAPPED.
 * @last_migrate: low 32 bits of jiffies at the task's last class-driven
 *         migration (a pull or a swap by class), never 0 once set;
 *         0 when there was none. The balancer leaves the task's class out
 *         of its decisions for the ``cooldown_ms`` knob after it, so that
 *         class logic never moves a task back and forth. Copied at fork.
 * @mix:   the class mix: per class, a weight of the task's recent valid
 *         readings, each reading adding a share that older ones give up
 *         (an exponentially decayed histogram, about twice the debounce
 *         length long), summing to at most about %IPCC_MIX_ONE; all zero
 *         until the first valid reading. The balancer weighs a task's
 *         scores by it (its expected gain), so that a class the hardware
 *         flaps between two values still counts for what it mostly is.
 * @lag:   how far the task falls behind the progress its class would make
 *         on its best CPU: on each tick in full mode, the headroom of its
 *         class where it runs (sched_ipcc_task_headroom()) is added and an
 *         eighth of the lag is forgotten. Two tasks of the same class that
 *         share a P-core and an E-core trade places when the one on the
 *         E-core lags behind by more than %IPCC_ROTATE_TICKS ticks of
 *         its gain (a rotation), so that equal work finishes together.
 *         0 at fork.
 *
 * Twenty bytes, embedded in &struct task_struct as ``ipcc``.
 *
 * Lifecycle:
 *
 * - fork: the child starts unclassified (@class = %IPCC_CLASS_NONE, no
 *   candidate, an empty mix) and is never overridden: an override is not
 *   inherited.
 * - exec: the task goes back to unclassified and debounces afresh, unless
 *   it is overridden; an override survives exec (only the candidate and
 *   the mix are dropped).
 * - override: the mix is emptied; an overridden task goes by its class.
 * - kernel threads: always unclassified; their class is never read and
 *   they cannot be overridden.
 *
 * While IPCC is switched off nothing updates this state; switching it on
 * or off resets every task to unclassified and drops all overrides.
 *
 * Writers hold the task's runqueue lock (the tick runs with it held,
 * exec and overrides take task_rq_lock()); fork writes the child before
 * it is visible. Readers may read @class and @flags locklessly with
 * READ_ONCE(), and @mix one element at a time: a reader racing with a
 * tick sees each weight old or new, which only shifts one estimate by a
 * fraction of a reading. @last_migrate is written with WRITE_ONCE() by the
 * balancer, not always under the task's runqueue lock (a swap is decided
 * without it), and read with READ_ONCE(): a stale value only shifts one
 * cooldown. @lag is written with WRITE_ONCE() only by the tick of the CPU
 * the task runs on (in hard interrupt context, without the runqueue lock)
 * and by the resets above, and read remotely with READ_ONCE(): a stale
 * value only delays one rotation by a tick.
 */
struct sched_ipcc_task {
	u8	class;
	u8	cand;
	u8	cnt;
	u8	flags;
	u32	last_migrate;
	u16	mix[IPCC_MIX_CLASSES];
	u16	lag;
};

/**
 * define SCHED_IPCC_TASK_INIT - initialiser of an unclassified task's state
 */
#define SCHED_IPCC_TASK_INIT {			\
	.class	= IPCC_CLASS_NONE,		\
	.cand	= IPCC_CLASS_NONE,		\
	.cnt	= 0,				\
	.flags	= 0,				\
	.last_migrate = 0,			\
	.mix	= { 0 },			\
	.lag	= 0,				\
}

#endif /* _LINUX_SCHED_IPCC_TYPES_H */
