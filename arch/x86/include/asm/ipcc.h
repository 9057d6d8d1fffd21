/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_IPCC_H
#define _ASM_X86_IPCC_H

/*
 * x86 implementations of the IPC classes arch interface.
 *
 * <linux/sched/ipcc.h> wants one set of arch_ipcc_*() hooks per
 * architecture. On x86 a backend provides them: Intel Thread Director
 * (CONFIG_X86_IPCC_ITD), the only one so far. A backend fills a
 * &struct x86_ipcc_ops and registers it once it is usable;
 * arch/x86/kernel/cpu/ipcc.c forwards the hooks to it.
 *
 * The second half of this file is the Thread Director backend's interface
 * to the rest of the kernel: the HRESET on context switch and the hooks
 * the HFI driver (drivers/thermal/intel/intel_hfi.c) calls.
 */

#include <linux/jump_label.h>
#include <linux/math.h>
#include <linux/percpu.h>
#include <linux/types.h>

#include <asm/alternative.h>
#include <asm/cpufeatures.h>

struct cpumask;
struct raw_spinlock;
struct task_struct;

/**
 * struct x86_ipcc_ops - one implementation of the IPCC arch interface
 * @name:       short name, for messages.
 * @nr_classes: implements arch_ipcc_nr_classes(). Called under
 *              rcu_read_lock(): must not sleep.
 * @read_class: implements arch_ipcc_read_class(), on the scheduler tick
 *              with interrupts disabled. Called through a static call.
 * @get_scores: implements arch_ipcc_get_scores(). Called under
 *              rcu_read_lock(): must not sleep.
 *
 * The contracts of the three hooks are those of <linux/sched/ipcc.h>.
 */
struct x86_ipcc_ops {
	const char		*name;
	unsigned int		(*nr_classes)(void);
	int			(*read_class)(struct task_struct *curr);
	int			(*get_scores)(int cpu, unsigned int class,
					      u8 *perf, u8 *eff);
};

#ifdef CONFIG_X86_IPCC
int x86_ipcc_register(const struct x86_ipcc_ops *ops);
void x86_ipcc_unregister(const struct x86_ipcc_ops *ops);
#endif

/*
 * HRESET: reset the Thread Director history of this logical processor,
 * so that the class of the next task is not computed from the previous
 * task's instructions. The instruction is F3 0F 3A F0 C0 ib, here with
 * imm8 0, and takes the histories to reset in EAX; it is spelled in bytes
 * for assemblers that do not know it.
 */
#define X86_IPCC_HRESET_INSN	".byte 0xf3, 0x0f, 0x3a, 0xf0, 0xc0, 0x00"

#ifdef CONFIG_X86_IPCC_ITD

/*
 * x86_ipcc_hreset_key is on while Thread Director is in use on a CPU
 * with HRESET. x86_ipcc_hreset_mask is this CPU's IA32_HRESET_ENABLE
 * value, 0 while that MSR is not programmed; it is only written on its
 * own CPU (hotplug and syscore callbacks), before the MSR is cleared and
 * after it is set.
 */
DECLARE_STATIC_KEY_FALSE(x86_ipcc_hreset_key);
DECLARE_PER_CPU(u32, x86_ipcc_hreset_mask);

/**
 * x86_ipcc_hreset() - reset the hardware history on a context switch
 *
 * Called by __switch_to(). A patched-out jump unless Thread Director is
 * in use; the instruction itself is patched in only on CPUs with
 * %X86_FEATURE_HRESET, and runs only once this CPU's IA32_HRESET_ENABLE
 * holds the histories it resets (HRESET faults on histories that are not
 * enabled).
 */
static __always_inline void x86_ipcc_hreset(void)
{
	u32 mask;

	if (!static_branch_unlikely(&x86_ipcc_hreset_key))
		return;

	mask = this_cpu_read(x86_ipcc_hreset_mask);
	if (mask)
		alternative_input("", X86_IPCC_HRESET_INSN, X86_FEATURE_HRESET,
				  "a" (mask));
}

void __init ipcc_itd_hfi_layout(unsigned int nr_caps, size_t table_size,
				unsigned int *hdr_size,
				unsigned int *row_stride);
bool __init ipcc_itd_hfi_init(void);
u64 ipcc_itd_hfi_config(void);
void ipcc_itd_hfi_online(unsigned int cpu, int index,
			 struct raw_spinlock *table_lock, const void *table);
void ipcc_itd_hfi_update(const struct cpumask *cpus,
			 struct raw_spinlock *table_lock, const void *table);
void ipcc_itd_disable(void);
void ipcc_itd_set_active(bool on);

#else /* !CONFIG_X86_IPCC_ITD */

static inline void x86_ipcc_hreset(void) { }

/* Without Thread Director support the HFI table has one class. */
static inline void ipcc_itd_hfi_layout(unsigned int nr_caps,
				       size_t table_size,
				       unsigned int *hdr_size,
				       unsigned int *row_stride)
{
	*hdr_size = DIV_ROUND_UP(nr_caps, 8) * 8;
	*row_stride = DIV_ROUND_UP(nr_caps, 8) * 8;
}

static inline bool ipcc_itd_hfi_init(void) { return false; }
static inline u64 ipcc_itd_hfi_config(void) { return 0; }
static inline void ipcc_itd_hfi_online(unsigned int cpu, int index,
				       struct raw_spinlock *table_lock,
				       const void *table) { }
static inline void ipcc_itd_hfi_update(const struct cpumask *cpus,
				       struct raw_spinlock *table_lock,
				       const void *table) { }
static inline void ipcc_itd_disable(void) { }
static inline void ipcc_itd_set_active(bool on) { }

#endif /* CONFIG_X86_IPCC_ITD */

#endif /* _ASM_X86_IPCC_H */
