// SPDX-License-Identifier: GPL-2.0
/*
 * IPC classes: user interfaces.
 *
 * - sysctl kernel.sched_ipcc: 0 off, 1 tie-break only, 2 full.
 * - debugfs sched/ipcc/: scores, debounce_ticks, stats, override, and
 *   the balancer's swap_threshold, misfit_threshold and cooldown_ms.
 * - the ipcc.* lines of /proc/PID/sched.
 *
 * All writes go through the strict parsers and the setters of ipcc.c,
 * which serialise on its mutex; invalid input changes nothing. A value
 * is one write() at offset 0, as for the sysctl: a write at another
 * offset (pwrite(), a second write() on the same file) is refused
 * rather than taken for a whole value.
 */
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/sysctl.h>
#include <linux/uaccess.h>

#include "ipcc.h"

#ifdef CONFIG_SYSCTL
/*
 * The longest value the sysctl takes, without the optional newline: as
 * long as proc_dointvec_minmax() takes (it refuses 21 digits or more).
 */
#define IPCC_SYSCTL_MAX_DIGITS	20

/*
 * proc_dointvec_minmax() parses with base 0 (so "0x1" is 1), skips
 * leading blanks and ignores a second value, and an empty write succeeds:
 * writes are parsed strictly here, so that all of these fail with
 * -EINVAL, and it only formats reads.
 */
static int sched_ipcc_sysctl_handler(const struct ctl_table *table, int write,
				     void *buffer, size_t *lenp, loff_t *ppos)
{
	const char *buf = buffer;
	unsigned int val;
	size_t len;
	int ret;

	if (!write)
		return proc_dointvec_minmax(table, 0, buffer, lenp, ppos);

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (*ppos)
		return -EINVAL;
	len = *lenp;
	if (len && buf[len - 1] == '\n')
		len--;
	if (len > IPCC_SYSCTL_MAX_DIGITS)
		return -EINVAL;
	ret = ipcc_parse_uint(buffer, *lenp, *(int *)table->extra1,
			      *(int *)table->extra2, &val);
	if (ret)
		return ret;

	ret = ipcc_set_mode(val);
	/* The whole write is consumed, as with proc_dointvec_minmax(). */
	if (!ret)
		*ppos += *lenp;
	return ret;
}

static const struct ctl_table sched_ipcc_sysctls[] = {
	{
		.procname	= "sched_ipcc",
		.data		= &sysctl_sched_ipcc,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= sched_ipcc_sysctl_handler,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_TWO,
	},
};

static int __init sched_ipcc_sysctl_init(void)
{
	register_sysctl_init("kernel", sched_ipcc_sysctls);
	return 0;
}
late_initcall(sched_ipcc_sysctl_init);
#endif /* CONFIG_SYSCTL */

/*
 * /proc/PID/sched
 */

void sched_ipcc_proc_show(struct task_struct *p, struct seq_file *m)
{
	u8 class = READ_ONCE(p->ipcc.class);
	u8 flags = READ_ONCE(p->ipcc.flags);
	unsigned int c, total = 0, w[IPCC_MIX_CLASSES];
	char name[16];

	if (!m)
		return;

	for (c = 0; c < IPCC_MIX_CLASSES; c++) {
		w[c] = READ_ONCE(p->ipcc.mix[c]);
		total += w[c];
	}

	seq_printf(m, "%-45s:%21lld\n", "ipcc.class",
		   class == IPCC_CLASS_NONE ? -1LL : (long long)class);
	seq_printf(m, "%-45s:%21lld\n", "ipcc.overridden",
		   (flags & IPCC_TASK_OVERRIDDEN) ? 1LL : 0LL);
	seq_printf(m, "%-45s:%21lld\n", "ipcc.lag",
		   (long long)READ_ONCE(p->ipcc.lag));
	for (c = 0; c < IPCC_MIX_CLASSES; c++) {
		snprintf(name, sizeof(name), "ipcc.mix.%u", c);
		seq_printf(m, "%-45s:%21lld\n", name,
			   total ? (long long)w[c] * 1000 / total : 0LL);
	}
}

#ifdef CONFIG_DEBUG_FS
/*
 * scores: header "cpu class0 class1 ...", then per online CPU its number
 * and "perf/eff" per class on the raw hardware scale, as the arch reports
 * them now ("-/-" when it has none).
 */
static int ipcc_scores_show(struct seq_file *m, void *v)
{
	unsigned int nr = sched_ipcc_nr_classes();
	unsigned int class;
	int cpu;

	seq_puts(m, "cpu");
	for (class = 0; class < nr; class++)
		seq_printf(m, " class%u", class);
	seq_putc(m, '\n');

	for_each_online_cpu(cpu) {
		seq_printf(m, "%d", cpu);
		for (class = 0; class < nr; class++) {
			u8 perf, eff;

			if (arch_ipcc_get_scores(cpu, class, &perf, &eff))
				seq_puts(m, " -/-");
			else
				seq_printf(m, " %u/%u", perf, eff);
		}
		seq_putc(m, '\n');
	}

	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ipcc_scores);

static const char * const ipcc_stat_names[IPCC_STAT_NR] = {
	[IPCC_STAT_CLASS_CHANGES]	= "class_changes",
	[IPCC_STAT_PULL]		= "pull",
	[IPCC_STAT_GROUP_TIE]		= "group_tie",
	[IPCC_STAT_RQ_TIE]		= "rq_tie",
	[IPCC_STAT_SWAP]		= "swap",
	[IPCC_STAT_MISFIT]		= "misfit",
};

static int ipcc_stats_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < IPCC_STAT_NR; i++)
		seq_printf(m, "%s %llu\n", ipcc_stat_names[i],
			   (unsigned long long)ipcc_stat_read(i));

	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ipcc_stats);

/*
 * The decimal knobs: debounce_ticks and the balancer's (ipcc_balance.c),
 * each one unsigned value in min..max, parsed strictly by
 * ipcc_parse_uint(). The knob is the file's (and so the seq_file's)
 * private data. They are seq_files: a read formats the value once, so a
 * reader that needs several read() calls never sees two values mixed.
 */
struct ipcc_uint_knob {
	unsigned int	min;
	unsigned int	max;
	unsigned int	(*get)(void);
	int		(*set)(unsigned int val);
};

static const struct ipcc_uint_knob ipcc_debounce_knob = {
	.min	= 1,
	.max	= U8_MAX,
	.get	= ipcc_get_debounce_ticks,
	.set	= ipcc_set_debounce_ticks,
};

static const struct ipcc_uint_knob ipcc_swap_threshold_knob = {
	.max	= IPCC_SCORE_SCALE,
	.get	= ipcc_get_swap_threshold,
	.set	= ipcc_set_swap_threshold,
};

static const struct ipcc_uint_knob ipcc_misfit_threshold_knob = {
	.max	= IPCC_SCORE_SCALE,
	.get	= ipcc_get_misfit_threshold,
	.set	= ipcc_set_misfit_threshold,
};

static const struct ipcc_uint_knob ipcc_cooldown_knob = {
	.max	= IPCC_COOLDOWN_MS_MAX,
	.get	= ipcc_get_cooldown_ms,
	.set	= ipcc_set_cooldown_ms,
};

static int ipcc_uint_knob_show(struct seq_file *m, void *v)
{
	const struct ipcc_uint_knob *knob = m->private;

	seq_printf(m, "%u\n", knob->get());
	return 0;
}

static ssize_t ipcc_uint_knob_write(struct file *file,
				    const char __user *ubuf, size_t cnt,
				    loff_t *ppos)
{
	struct seq_file *m = file->private_data;
	const struct ipcc_uint_knob *knob = m->private;
	char buf[IPCC_KNOB_MAX_LEN];
	unsigned int val;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (*ppos || !cnt || cnt > sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, cnt))
		return -EFAULT;

	ret = ipcc_parse_uint(buf, cnt, knob->min, knob->max, &val);
	if (ret)
		return ret;

	ret = knob->set(val);
	if (ret)
		return ret;

	*ppos += cnt;
	return cnt;
}
DEFINE_SHOW_STORE_ATTRIBUTE(ipcc_uint_knob);

/* override: one "PID CLASS" line per overridden task. */
static int ipcc_override_show(struct seq_file *m, void *v)
{
	struct task_struct *g, *p;

	rcu_read_lock();
	for_each_process_thread(g, p) {
		pid_t pid;

		if (!(READ_ONCE(p->ipcc.flags) & IPCC_TASK_OVERRIDDEN))
			continue;

		pid = task_pid_vnr(p);
		if (pid)
			seq_printf(m, "%d %d\n", pid,
				   sched_ipcc_task_class(p));
	}
	rcu_read_unlock();

	return 0;
}

static ssize_t ipcc_override_write(struct file *file, const char __user *ubuf,
				   size_t cnt, loff_t *ppos)
{
	char buf[IPCC_KNOB_MAX_LEN];
	pid_t pid;
	int class, ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (*ppos || !cnt || cnt > sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, cnt))
		return -EFAULT;

	ret = ipcc_parse_override(buf, cnt, sched_ipcc_nr_classes(), &pid,
				  &class);
	if (ret)
		return ret;

	ret = ipcc_set_override(pid, class);
	if (ret)
		return ret;

	*ppos += cnt;
	return cnt;
}
DEFINE_SHOW_STORE_ATTRIBUTE(ipcc_override);

void __init sched_ipcc_debugfs_init(struct dentry *parent)
{
	struct dentry *dir;

	dir = debugfs_create_dir("ipcc", parent);

	debugfs_create_file("scores", 0444, dir, NULL, &ipcc_scores_fops);
	debugfs_create_file("debounce_ticks", 0644, dir,
			    (void *)&ipcc_debounce_knob, &ipcc_uint_knob_fops);
	debugfs_create_file("stats", 0444, dir, NULL, &ipcc_stats_fops);
	debugfs_create_file("override", 0600, dir, NULL, &ipcc_override_fops);
	debugfs_create_file("swap_threshold", 0644, dir,
			    (void *)&ipcc_swap_threshold_knob,
			    &ipcc_uint_knob_fops);
	debugfs_create_file("misfit_threshold", 0644, dir,
			    (void *)&ipcc_misfit_threshold_knob,
			    &ipcc_uint_knob_fops);
	debugfs_create_file("cooldown_ms", 0644, dir,
			    (void *)&ipcc_cooldown_knob, &ipcc_uint_knob_fops);
}
#else /* !CONFIG_DEBUG_FS */
void __init sched_ipcc_debugfs_init(struct dentry *parent)
{
}
#endif /* CONFIG_DEBUG_FS */
