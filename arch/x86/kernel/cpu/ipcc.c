// SPDX-License-Identifier: GPL-2.0
/*
 * Dispatch of the IPC classes arch interface between the x86 backends.
 *
 * <linux/sched/ipcc.h> has one set of arch_ipcc_*() hooks per
 * architecture. On x86 a backend implements them (Intel Thread Director,
 * ipcc_itd.c): it registers a &struct x86_ipcc_ops with
 * x86_ipcc_register() once it is usable, and the hooks below forward to
 * the registered backend. With none registered they answer like the
 * generic hooks: no classes, no scores.
 *
 * At most one backend is registered; a second one is refused.
 * arch_ipcc_set_active() is passed to every backend built in, registered
 * or not: each keeps the state asked for under its own lock.
 *
 * Every change is followed by sched_ipcc_arch_ready(), so the core reads
 * the class count and the scores of the new backend (or switches IPCC
 * off when none is left).
 *
 * Locking:
 *
 * x86_ipcc_mutex  Serialises register and unregister, the only writers of
 *                 x86_ipcc_cur and of the read_class static call. Nothing
 *                 else is taken under it but the CPU hotplug lock (by
 *                 static_call_update()).
 * RCU             x86_ipcc_cur is published with rcu_assign_pointer();
 *                 arch_ipcc_nr_classes() and arch_ipcc_get_scores() call
 *                 the backend under rcu_read_lock().
 * static call     arch_ipcc_read_class() runs on the scheduler tick with
 *                 interrupts disabled, which is an RCU read-side critical
 *                 section: after updating the static call, the writer's
 *                 synchronize_rcu() waits for every call into the old
 *                 target. A backend is therefore never called once
 *                 x86_ipcc_unregister() has returned.
 *
 * Lock order: a backend's own mutex -> x86_ipcc_mutex -> CPU hotplug
 * lock. sched_ipcc_arch_ready() is called without x86_ipcc_mutex.
 */
#define pr_fmt(fmt) "x86/ipcc: " fmt

#include <linux/errno.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/sched/ipcc.h>
#include <linux/static_call.h>

#include <kunit/static_stub.h>

#include <asm/ipcc.h>

static DEFINE_MUTEX(x86_ipcc_mutex);

/* The registered backend, or NULL. Written under x86_ipcc_mutex; RCU. */
static const struct x86_ipcc_ops __rcu *x86_ipcc_cur;

/* The class source while no backend is registered. */
static int x86_ipcc_no_class(struct task_struct *curr)
{
	return -EOPNOTSUPP;
}

DEFINE_STATIC_CALL(x86_ipcc_read_class_call, x86_ipcc_no_class);

/* Tell the core that the backend changed. A function for KUnit's sake. */
static void x86_ipcc_notify_core(void)
{
	KUNIT_STATIC_STUB_REDIRECT(x86_ipcc_notify_core);

	sched_ipcc_arch_ready();
}

/**
 * x86_ipcc_register() - make a backend the source of classes and scores
 * @ops: the backend; must stay valid until unregistered
 *
 * Lets the core read the class count and the scores of @ops.
 *
 * Context: process context, may sleep. Must not be called with the CPU
 * hotplug lock held.
 * Return: 0 on success; -EBUSY when a backend (@ops itself included) is
 * registered already; -EINVAL for incomplete @ops.
 */
int x86_ipcc_register(const struct x86_ipcc_ops *ops)
{
	if (WARN_ON_ONCE(!ops || !ops->nr_classes || !ops->read_class ||
			 !ops->get_scores))
		return -EINVAL;

	mutex_lock(&x86_ipcc_mutex);
	if (rcu_access_pointer(x86_ipcc_cur)) {
		mutex_unlock(&x86_ipcc_mutex);
		return -EBUSY;
	}

	rcu_assign_pointer(x86_ipcc_cur, ops);
	static_call_update(x86_ipcc_read_class_call, ops->read_class);
	mutex_unlock(&x86_ipcc_mutex);

	pr_debug("%s backend registered\n", ops->name);
	x86_ipcc_notify_core();
	return 0;
}

/**
 * x86_ipcc_unregister() - stop using a backend
 * @ops: the backend
 *
 * Does nothing unless @ops is the registered backend. Otherwise, once
 * this returns, @ops is no longer called: arch_ipcc_read_class() returns
 * -EOPNOTSUPP, arch_ipcc_nr_classes() 0, and the core has switched IPCC
 * off.
 *
 * Context: process context, may sleep. Must not be called with the CPU
 * hotplug lock held.
 */
void x86_ipcc_unregister(const struct x86_ipcc_ops *ops)
{
	mutex_lock(&x86_ipcc_mutex);
	if (rcu_access_pointer(x86_ipcc_cur) != ops) {
		mutex_unlock(&x86_ipcc_mutex);
		return;
	}

	static_call_update(x86_ipcc_read_class_call, x86_ipcc_no_class);
	RCU_INIT_POINTER(x86_ipcc_cur, NULL);
	synchronize_rcu();
	mutex_unlock(&x86_ipcc_mutex);

	x86_ipcc_notify_core();
}

/**
 * arch_ipcc_nr_classes() - number of classes of the registered backend
 *
 * Return: the backend's class count, 0 when no backend is registered.
 */
unsigned int arch_ipcc_nr_classes(void)
{
	const struct x86_ipcc_ops *ops;
	unsigned int nr = 0;

	rcu_read_lock();
	ops = rcu_dereference(x86_ipcc_cur);
	if (ops)
		nr = ops->nr_classes();
	rcu_read_unlock();

	return nr;
}

/**
 * arch_ipcc_read_class() - class of the running task, from the backend
 * @curr: the task running on this CPU
 *
 * A static call: no indirect branch and no pointer load on the tick.
 *
 * Context: the scheduler tick, interrupts disabled.
 * Return: what the backend's read_class returns; -EOPNOTSUPP when no
 * backend is registered.
 */
int arch_ipcc_read_class(struct task_struct *curr)
{
	return static_call(x86_ipcc_read_class_call)(curr);
}

/**
 * arch_ipcc_get_scores() - scores of one class on one CPU, from the backend
 * @cpu:   a possible CPU
 * @class: a class
 * @perf:  filled with the performance score on success
 * @eff:   filled with the efficiency score on success
 *
 * Return: what the backend's get_scores returns; -ENODATA when no backend
 * is registered.
 */
int arch_ipcc_get_scores(int cpu, unsigned int class, u8 *perf, u8 *eff)
{
	const struct x86_ipcc_ops *ops;
	int ret = -ENODATA;

	rcu_read_lock();
	ops = rcu_dereference(x86_ipcc_cur);
	if (ops)
		ret = ops->get_scores(cpu, class, perf, eff);
	rcu_read_unlock();

	return ret;
}

void arch_ipcc_set_active(bool on)
{
	ipcc_itd_set_active(on);
}

#if IS_ENABLED(CONFIG_X86_IPCC_ITD_KUNIT_TEST)
#include "ipcc_kunit.h"
#endif
