// SPDX-License-Identifier: GPL-2.0
/*
 * Intel Thread Director backend of the IPC classes scheduler support.
 *
 * Thread Director (CPUID.06H:EAX[23]) classifies the instruction mix of
 * the thread running on each logical processor into one of
 * CPUID.06H:ECX[15:8] classes, readable in IA32_HW_FEEDBACK_CHAR (class in
 * bits 7:0, valid bit 63), and extends the HFI table with per-class
 * performance and energy-efficiency capabilities of every CPU. This file
 * turns both into the IPCC arch interface (<linux/sched/ipcc.h>) through
 * the x86 dispatch (<asm/ipcc.h>):
 *
 * - Scores. The HFI driver (drivers/thermal/intel/intel_hfi.c) owns the
 *   table: it allocates it, programs IA32_HW_FEEDBACK_PTR, enables the
 *   HFI and copies the table on every update interrupt. It calls the
 *   ipcc_itd_hfi_*() hooks below: at boot for the table layout, when a
 *   CPU joins its HFI instance and from its update work after each table
 *   update. Each CPU's row is parsed into a per-CPU score cache, and the
 *   core is told with sched_ipcc_scores_changed(). The scheduler keeps
 *   the HFI enabled (it is a permanent client, like a thermal netlink
 *   listener).
 *
 * - Classes. Thread Director's enable, IA32_HW_FEEDBACK_CONFIG bit 1, is
 *   set by the HFI driver in the same write as the HFI's bit 0
 *   (ipcc_itd_hfi_config()), so that the first table carries every
 *   class. Once the first scores exist, classification is switched on:
 *   IA32_HW_FEEDBACK_THREAD_CONFIG bit 0 and, with HRESET,
 *   IA32_HRESET_ENABLE = CPUID.20H:EBX on each CPU (and bit 1 on each
 *   package, where it is not set yet). The backend then
 *   registers with the dispatch, and the tick reads the class register.
 *   While kernel.sched_ipcc is 0 the hardware is paused
 *   (ipcc_itd_set_active()): those bits and HRESET are clear on every
 *   CPU, and the scores stay.
 *
 * - HRESET. With classification on, __switch_to() resets the history of
 *   the CPU (x86_ipcc_hreset()), so that a task's class is not computed
 *   from its predecessor's instructions.
 *
 * - Accuracy. Some parts classify some classes badly while the SMT
 *   sibling runs: on Alder Lake and Raptor Lake, classes 0 and 1 are
 *   reported to be trustworthy only while the sibling is idle; Meteor
 *   Lake is given the same rule. Such
 *   rules are per-model data (ipcc_itd_models[]); the debugfs knob
 *   smt_classes changes them at run time.
 *
 * HFI table layout (a page-aligned table per package, copied by the HFI
 * driver): an 8-byte timestamp; a header of, per class, one byte per
 * capability ("performance changed", "efficiency changed"), rounded up to
 * a multiple of 8 bytes; then one row per row index (CPUID.06H:EDX[31:16]
 * of each CPU; CPUs may share a row), each holding per class one byte per
 * capability (performance, efficiency, 0..255), rounded up to a multiple
 * of 8 bytes. A capability of 0 asks the OS not to use the CPU; it is
 * passed through to the core as is.
 *
 * Boot parameter: ``ipcc_itd=off`` leaves Thread Director alone (the HFI
 * driver then behaves as without this backend); ``ipcc_itd=on`` is the
 * default. Any other value is reported and ignored.
 *
 * debugfs, in ipcc_itd/ (only on CPUs with Thread Director; writes need
 * CAP_SYS_ADMIN, one write() of at most 15 bytes; a refused write returns
 * -EINVAL and changes
 * nothing):
 *
 *   status       r   "state on|waiting|off", "hardware on|off" (off
 *                    also while kernel.sched_ipcc is 0), "classes N",
 *                    "hreset_mask 0xM".
 *   enabled      rw  "1" while classification is on. Write "0" to switch
 *                    it off (ipcc_itd_disable()), "1" to switch it on
 *                    again once scores exist.
 *   smt_classes  rw  hexadecimal mask of the classes trusted only while
 *                    every SMT sibling is idle; the model's default at
 *                    boot. Bits at or above the class count are refused.
 *
 * Nothing of this happens on CPUs without Thread Director: the HFI
 * driver does not call in, no MSR is touched and nothing is logged.
 *
 * Locking:
 *
 * ipcc_itd_mutex   Serialises switching classification on and off and
 *                  the writers of ipcc_itd_active, ipcc_itd_off,
 *                  ipcc_itd_paused, ipcc_itd_cpuhp_state and
 *                  ipcc_itd_smt_classes. Taken in process context only,
 *                  never in CPU hotplug callbacks or under the HFI
 *                  driver's locks (those hooks queue work instead).
 * cpus_read_lock  ipcc_itd_paused is also written with the CPU hotplug
 *                  lock read-held, so that a CPU coming online sees the
 *                  value the other CPUs were switched to.
 * (none)           ipcc_itd_active, ipcc_itd_off, ipcc_itd_paused and
 *                  ipcc_itd_smt_classes are written with WRITE_ONCE() and
 *                  read with READ_ONCE() by the hotplug, syscore, tick
 *                  and HFI hook paths; ipcc_itd_have_scores is set with
 *                  WRITE_ONCE() by the HFI hooks.
 * HFI table lock   Each CPU's score cache is written under a seqcount
 *                  whose writers hold the table lock of the CPU's HFI
 *                  instance (a CPU belongs to one instance), interrupts
 *                  disabled. Readers (arch_ipcc_get_scores()) take no
 *                  lock and retry.
 * HFI instance     A CPU's row index is written and read only by the HFI
 *   mutex          hooks, which the HFI driver calls with its instance
 *                  mutex held.
 * CPU-local        x86_ipcc_hreset_mask is written on its own CPU only.
 *
 * Lock order: ipcc_itd_mutex -> x86 dispatch mutex -> CPU hotplug lock
 * -> HFI instance mutex -> HFI table lock -> seqcount.
 */
#define pr_fmt(fmt) "ipcc_itd: " fmt

#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/capability.h>
#include <linux/cpu.h>
#include <linux/cpufeature.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/processor.h>
#include <linux/sched.h>
#include <linux/sched/ipcc.h>
#include <linux/seq_file.h>
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/syscore_ops.h>
#include <linux/topology.h>
#include <linux/uaccess.h>
#include <linux/unaligned.h>
#include <linux/workqueue.h>

#include <kunit/static_stub.h>

#include <asm/cpu_device_id.h>
#include <asm/cpuid/api.h>
#include <asm/intel-family.h>
#include <asm/ipcc.h>
#include <asm/msr.h>

#define ITD_CPUID_LEAF_THERM		0x06
#define ITD_CPUID_ECX_NR_CLASSES	GENMASK(15, 8)
#define ITD_CPUID_LEAF_HRESET		0x20

#define ITD_CONFIG_ITD_ENABLE		BIT_ULL(1)
#define ITD_THREAD_CONFIG_ENABLE	BIT_ULL(0)
#define ITD_CHAR_VALID			BIT_ULL(63)
#define ITD_CHAR_CLASS			GENMASK_ULL(7, 0)

/* The table starts with an 8-byte timestamp. */
#define ITD_TIMESTAMP_SIZE		8

/* Buffer size for debugfs writes: they must be shorter. */
#define ITD_KNOB_MAX			16

/*
 * Classes 0 (scalar) and 1 (vector) of Alder Lake and Raptor Lake are
 * reported to be classified accurately only while the SMT sibling is
 * idle; classes 2 and 3 always. Measured on Raptor Lake: with a busy
 * sibling every read was class 0. Meteor Lake's P-cores have SMT and a
 * Thread Director of the same kind, and nothing published says its
 * classes survive a busy sibling, so it gets the same rule; the
 * smt_classes knob changes it at run time. Parts without SMT (Lunar
 * Lake, Arrow Lake) need none.
 */
#define ITD_SMT_CLASSES_ADL		(BIT(0) | BIT(1))

/**
 * struct ipcc_itd_model - per-model classification accuracy rule
 * @vfm:         vendor, family and model (&struct cpuinfo_x86.x86_vfm).
 * @smt_classes: classes trusted only while every SMT sibling is idle.
 */
struct ipcc_itd_model {
	u32	vfm;
	u32	smt_classes;
};

static const struct ipcc_itd_model ipcc_itd_models[] = {
	{ INTEL_ALDERLAKE,	ITD_SMT_CLASSES_ADL },
	{ INTEL_ALDERLAKE_L,	ITD_SMT_CLASSES_ADL },
	{ INTEL_RAPTORLAKE,	ITD_SMT_CLASSES_ADL },
	{ INTEL_RAPTORLAKE_P,	ITD_SMT_CLASSES_ADL },
	{ INTEL_RAPTORLAKE_S,	ITD_SMT_CLASSES_ADL },
	{ INTEL_METEORLAKE,	ITD_SMT_CLASSES_ADL },
	{ INTEL_METEORLAKE_L,	ITD_SMT_CLASSES_ADL },
};

/**
 * struct ipcc_itd_hw - what CPUID says about Thread Director
 * @nr_classes:  CPUID.06H:ECX[15:8]; 0 without Thread Director.
 * @hreset_mask: CPUID.20H:EBX, the histories HRESET can reset; 0 without
 *               HRESET.
 */
struct ipcc_itd_hw {
	unsigned int	nr_classes;
	u32		hreset_mask;
};

/**
 * struct ipcc_itd_layout - geometry of an HFI table
 * @nr_classes:   classes per row.
 * @class_stride: bytes per class in the header and in a row: one per
 *                capability (1: performance only, 2: and efficiency).
 * @hdr_size:     bytes of the header that follows the timestamp.
 * @row_stride:   bytes of a row.
 * @size:         bytes of the table.
 */
struct ipcc_itd_layout {
	unsigned int	nr_classes;
	unsigned int	class_stride;
	unsigned int	hdr_size;
	unsigned int	row_stride;
	size_t		size;
};

/**
 * struct ipcc_itd_score - capabilities of one class on one CPU
 * @perf: performance, 0..255; 0 asks not to use the CPU.
 * @eff:  energy efficiency, 0..255; 0 asks not to use the CPU.
 */
struct ipcc_itd_score {
	u8	perf;
	u8	eff;
};

/**
 * struct ipcc_itd_cache - a CPU's scores as last parsed from its HFI row
 * @seq:    write side serialised by the table lock of the CPU's HFI
 *          instance, taken with interrupts disabled.
 * @valid:  @scores hold the CPU's row; under @seq.
 * @scores: per class; under @seq.
 */
struct ipcc_itd_cache {
	seqcount_t		seq;
	bool			valid;
	struct ipcc_itd_score	scores[IPCC_MAX_CLASSES];
};

/**
 * struct ipcc_itd_cpu - Thread Director state of one CPU
 * @cache: its scores.
 * @index: its row in the HFI table, -1 until it joined its HFI instance;
 *         accessed only from the HFI hooks, under the HFI instance mutex.
 */
struct ipcc_itd_cpu {
	struct ipcc_itd_cache	cache;
	int			index;
};

static DEFINE_PER_CPU(struct ipcc_itd_cpu, ipcc_itd_cpus);

DEFINE_STATIC_KEY_FALSE(x86_ipcc_hreset_key);
DEFINE_PER_CPU(u32, x86_ipcc_hreset_mask);

static DEFINE_MUTEX(ipcc_itd_mutex);

/* Set at boot by the HFI hooks, constant afterwards. */
static struct ipcc_itd_hw ipcc_itd_hw __ro_after_init;
static struct ipcc_itd_layout ipcc_itd_layout __ro_after_init;
static bool ipcc_itd_wanted __ro_after_init;

static bool ipcc_itd_param_off __initdata;

/* Written under ipcc_itd_mutex; see "Locking" for the lockless readers. */
static bool ipcc_itd_active;
static bool ipcc_itd_off;
/* kernel.sched_ipcc is 0: the hardware does not classify (see below). */
static bool ipcc_itd_paused;
static int ipcc_itd_cpuhp_state;
static u32 ipcc_itd_smt_classes;

/* Some CPU has scores. Set once, by the HFI hooks. */
static bool ipcc_itd_have_scores;

/*
 * Hardware access. Every CPUID and MSR access of this file goes through
 * these wrappers, which KUnit redirects to fakes, except the tick's class
 * read (ipcc_itd_read_class()), which has no test hook.
 */

static u64 ipcc_itd_rdmsr(u32 msr)
{
	u64 val;

	KUNIT_STATIC_STUB_REDIRECT(ipcc_itd_rdmsr, msr);

	rdmsrq(msr, val);
	return val;
}

static void ipcc_itd_wrmsr(u32 msr, u64 val)
{
	KUNIT_STATIC_STUB_REDIRECT(ipcc_itd_wrmsr, msr, val);

	wrmsrq(msr, val);
}

static void ipcc_itd_cpuid(u32 leaf, u32 *eax, u32 *ebx, u32 *ecx, u32 *edx)
{
	KUNIT_STATIC_STUB_REDIRECT(ipcc_itd_cpuid, leaf, eax, ebx, ecx, edx);

	cpuid_count(leaf, 0, eax, ebx, ecx, edx);
}

/* This CPU's x86_ipcc_hreset_mask. */
static void ipcc_itd_set_hreset_mask(u32 mask)
{
	KUNIT_STATIC_STUB_REDIRECT(ipcc_itd_set_hreset_mask, mask);

	this_cpu_write(x86_ipcc_hreset_mask, mask);
}

/*
 * Whether every other SMT sibling of @cpu is idle. Lockless and racy: a
 * sibling may start or stop running right after it was looked at, and the
 * hardware's class describes the last few milliseconds anyway. A wrong
 * verdict on one tick costs at most one dropped or one kept reading,
 * which the core's debounce filters. Offline siblings are idle.
 */
static bool ipcc_itd_siblings_idle(int cpu)
{
	int sib;

	for_each_cpu(sib, topology_sibling_cpumask(cpu)) {
		if (sib != cpu && !idle_cpu(sib))
			return false;
	}

	return true;
}

/*
 * Whether @cpu, going offline, is the last online CPU of its package (of
 * its HFI instance). Called from the CPU's own hotplug teardown, while it
 * is still online; hotplug operations are serialised.
 */
static bool ipcc_itd_last_in_package(unsigned int cpu)
{
	unsigned int other;
	int pkg;

	KUNIT_STATIC_STUB_REDIRECT(ipcc_itd_last_in_package, cpu);

	pkg = topology_logical_package_id(cpu);
	for_each_online_cpu(other) {
		if (other != cpu && topology_logical_package_id(other) == pkg)
			return false;
	}

	return true;
}

#ifdef CONFIG_X86_IPCC_ITD_KUNIT_TEST
/* Between the two reads of a score pair; KUnit races a writer here. */
static void ipcc_itd_cache_read_point(struct ipcc_itd_cache *c)
{
	KUNIT_STATIC_STUB_REDIRECT(ipcc_itd_cache_read_point, c);
}
#else
static inline void ipcc_itd_cache_read_point(struct ipcc_itd_cache *c) { }
#endif

/*
 * Pure helpers: enumeration, table parsing, class decoding, accuracy,
 * parameter parsing. They touch no global state.
 */

/**
 * ipcc_itd_probe() - read what CPUID says about Thread Director
 * @itd:      the CPU has %X86_FEATURE_ITD
 * @hreset:   the CPU has %X86_FEATURE_HRESET
 * @max_leaf: the highest basic CPUID leaf
 * @hw:       filled with the class count and the HRESET mask
 *
 * Queries CPUID leaf 6 only with @itd, leaf 0x20 only with @itd, @hreset
 * and a @max_leaf that has it.
 */
static void ipcc_itd_probe(bool itd, bool hreset, unsigned int max_leaf,
			   struct ipcc_itd_hw *hw)
{
	u32 eax, ebx, ecx, edx;

	hw->nr_classes = 0;
	hw->hreset_mask = 0;
	if (!itd)
		return;

	ipcc_itd_cpuid(ITD_CPUID_LEAF_THERM, &eax, &ebx, &ecx, &edx);
	hw->nr_classes = FIELD_GET(ITD_CPUID_ECX_NR_CLASSES, ecx);

	if (!hreset || max_leaf < ITD_CPUID_LEAF_HRESET)
		return;

	ipcc_itd_cpuid(ITD_CPUID_LEAF_HRESET, &eax, &ebx, &ecx, &edx);
	hw->hreset_mask = ebx;
}

/**
 * ipcc_itd_layout_init() - compute the geometry of an HFI table
 * @l:          filled with the geometry
 * @nr_classes: classes in the table, at least 1
 * @nr_caps:    capabilities per class (1 or 2)
 * @size:       bytes of the table
 *
 * The header holds @nr_caps bytes per class, the rows likewise, both
 * rounded up to a multiple of 8 bytes. With one class this is the layout
 * of the HFI without Thread Director.
 */
static void ipcc_itd_layout_init(struct ipcc_itd_layout *l,
				 unsigned int nr_classes, unsigned int nr_caps,
				 size_t size)
{
	l->nr_classes = nr_classes;
	l->class_stride = nr_caps;
	l->hdr_size = round_up(nr_classes * nr_caps, 8);
	l->row_stride = round_up(nr_classes * nr_caps, 8);
	l->size = size;
}

/**
 * ipcc_itd_parse_row() - extract one row of an HFI table image
 * @table:  the table image, @l->size bytes, 8-byte aligned
 * @l:      its geometry
 * @index:  the row index of a CPU
 * @scores: filled with the capabilities of the first @nr classes
 * @nr:     room in @scores
 *
 * Without an efficiency capability, every efficiency score is reported
 * as 255, the same on every CPU. Capabilities of 0 are kept, but for a
 * row that has them in every class above 0 while class 0 has a
 * performance: the hardware fills in those classes only while Thread
 * Director is enabled, so such a row comes from a table made while it
 * was off (before it was enabled, or while kernel.sched_ipcc was 0), not
 * from a request to keep every class but one off the CPU. Those classes
 * then get class 0's capabilities, which makes them neutral (every CPU
 * ranks them as it ranks class 0) until the next table update.
 *
 * Return: the number of classes filled in, min(@nr, @l->nr_classes);
 * -ENODATA when the table was never written (timestamp 0), @index is
 * negative or its row lies beyond the table.
 */
static int ipcc_itd_parse_row(const void *table,
			      const struct ipcc_itd_layout *l, int index,
			      struct ipcc_itd_score *scores, unsigned int nr)
{
	unsigned int class, n;
	const u8 *row;
	size_t off;

	if (index < 0)
		return -ENODATA;

	off = ITD_TIMESTAMP_SIZE + l->hdr_size +
	      (size_t)index * l->row_stride;
	if (off + l->row_stride > l->size)
		return -ENODATA;

	if (!get_unaligned((const u64 *)table))
		return -ENODATA;

	row = (const u8 *)table + off;
	n = min(nr, l->nr_classes);
	for (class = 0; class < n; class++) {
		const u8 *cap = row + class * l->class_stride;

		scores[class].perf = cap[0];
		scores[class].eff = l->class_stride > 1 ? cap[1] :
							  IPCC_RAW_SCORE_MAX;
	}

	if (row[0] && !memchr_inv(row + l->class_stride, 0,
				  (l->nr_classes - 1) * l->class_stride)) {
		for (class = 1; class < n; class++)
			scores[class] = scores[0];
	}

	return n;
}

/**
 * ipcc_itd_config_bits() - IA32_HW_FEEDBACK_CONFIG bits the backend wants
 * @wanted: the backend is in use (Thread Director, no ``ipcc_itd=off``)
 * @off:    classification was switched off (debugfs, or a failure)
 * @paused: kernel.sched_ipcc is 0
 *
 * Return: the Thread Director enable bit when in use, on and not paused;
 * 0 otherwise.
 */
static u64 ipcc_itd_config_bits(bool wanted, bool off, bool paused)
{
	return wanted && !off && !paused ? ITD_CONFIG_ITD_ENABLE : 0;
}

/**
 * ipcc_itd_decode_char() - decode an IA32_HW_FEEDBACK_CHAR value
 * @val: the MSR value
 * @nr:  number of classes
 *
 * Return: the class in bits 7:0; -ENODATA when the valid bit (63) is
 * clear; -ERANGE when the class is not below @nr. Reserved bits are
 * ignored.
 */
static int ipcc_itd_decode_char(u64 val, unsigned int nr)
{
	unsigned int class;

	if (!(val & ITD_CHAR_VALID))
		return -ENODATA;

	class = FIELD_GET(ITD_CHAR_CLASS, val);
	if (class >= nr)
		return -ERANGE;

	return class;
}

/**
 * ipcc_itd_classify() - the class of a class register value, if trusted
 * @val:         the IA32_HW_FEEDBACK_CHAR value
 * @nr:          number of classes
 * @smt_classes: classes trusted only while the SMT siblings are idle
 * @cpu:         the CPU the value was read on
 * @idle:        whether the SMT siblings of a CPU are idle
 *               (ipcc_itd_siblings_idle(); KUnit passes a fake)
 *
 * Calls @idle only for a class in @smt_classes. Always inlined, so that
 * the tick's call of @idle is a direct one.
 *
 * Return: the class; the error of ipcc_itd_decode_char(); -EAGAIN when
 * the class is in @smt_classes and a sibling of @cpu is busy.
 */
static __always_inline int ipcc_itd_classify(u64 val, unsigned int nr,
					     u32 smt_classes, int cpu,
					     bool (*idle)(int cpu))
{
	int class = ipcc_itd_decode_char(val, nr);

	if (class < 0)
		return class;

	if (class < 32 && (smt_classes & BIT(class)) && !idle(cpu))
		return -EAGAIN;

	return class;
}

/**
 * ipcc_itd_model_smt_classes() - the accuracy rule of a CPU model
 * @vfm: vendor, family and model
 *
 * Return: the classes of @vfm trusted only while the SMT siblings are
 * idle; 0 (all trusted) for models without a rule.
 */
static u32 ipcc_itd_model_smt_classes(u32 vfm)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ipcc_itd_models); i++) {
		if (ipcc_itd_models[i].vfm == vfm)
			return ipcc_itd_models[i].smt_classes;
	}

	return 0;
}

/**
 * ipcc_itd_parse_param() - parse the value of ``ipcc_itd=``
 * @s:   the value; NULL when the parameter has none
 * @off: set to true for "off", false for "on"
 *
 * Return: 0 on success, -EINVAL (and @off untouched) otherwise.
 */
static int ipcc_itd_parse_param(const char *s, bool *off)
{
	if (!s)
		return -EINVAL;

	if (!strcmp(s, "on"))
		*off = false;
	else if (!strcmp(s, "off"))
		*off = true;
	else
		return -EINVAL;

	return 0;
}

/*
 * Copy a knob write of @len bytes into @dst (@size bytes) and drop one
 * trailing newline. Refuse empty, overlong and NUL-containing input.
 */
static int ipcc_itd_copy(char *dst, size_t size, const char *buf, size_t len)
{
	if (!len || len >= size)
		return -EINVAL;

	memcpy(dst, buf, len);
	dst[len] = '\0';
	if (dst[len - 1] == '\n')
		dst[--len] = '\0';

	if (!len || strlen(dst) != len)
		return -EINVAL;

	return 0;
}

/**
 * ipcc_itd_parse_enabled() - parse a write to ``enabled``
 * @buf: the bytes written
 * @len: their number
 * @on:  where the value is stored on success
 *
 * Return: 0 for exactly "0" or "1", optionally followed by a newline;
 * -EINVAL otherwise.
 */
static int ipcc_itd_parse_enabled(const char *buf, size_t len, bool *on)
{
	char tmp[ITD_KNOB_MAX];

	if (ipcc_itd_copy(tmp, sizeof(tmp), buf, len))
		return -EINVAL;

	if (!strcmp(tmp, "0"))
		*on = false;
	else if (!strcmp(tmp, "1"))
		*on = true;
	else
		return -EINVAL;

	return 0;
}

/**
 * ipcc_itd_parse_smt_classes() - parse a write to ``smt_classes``
 * @buf:  the bytes written
 * @len:  their number
 * @nr:   number of classes
 * @mask: where the mask is stored on success
 *
 * Return: 0 for hexadecimal digits, optionally prefixed with "0x" and
 * followed by a newline, whose value has no bit at or above @nr (nor
 * above bit 31); -EINVAL otherwise.
 */
static int ipcc_itd_parse_smt_classes(const char *buf, size_t len,
				      unsigned int nr, u32 *mask)
{
	char tmp[ITD_KNOB_MAX];
	const char *s = tmp;
	const char *c;
	u32 v;

	if (ipcc_itd_copy(tmp, sizeof(tmp), buf, len))
		return -EINVAL;

	if (str_has_prefix(s, "0x"))
		s += 2;
	if (!*s)
		return -EINVAL;
	for (c = s; *c; c++) {
		if (!isxdigit(*c))
			return -EINVAL;
	}

	if (kstrtou32(s, 16, &v))
		return -EINVAL;
	if (nr < 32 && v >> nr)
		return -EINVAL;

	*mask = v;
	return 0;
}

/*
 * Score cache.
 */

/* Caller holds the table lock of the cache's HFI instance, irqs off. */
static void ipcc_itd_cache_write(struct ipcc_itd_cache *c,
				 const struct ipcc_itd_score *scores, int nr)
{
	write_seqcount_begin(&c->seq);
	if (nr > 0)
		memcpy(c->scores, scores, nr * sizeof(*scores));
	c->valid = nr > 0;
	write_seqcount_end(&c->seq);
}

/* Lockless; retries while a writer is at work. */
static int ipcc_itd_cache_read(struct ipcc_itd_cache *c, unsigned int class,
			       struct ipcc_itd_score *score)
{
	struct ipcc_itd_score s;
	unsigned int seq;
	bool valid;

	if (class >= IPCC_MAX_CLASSES)
		return -ENODATA;

	do {
		seq = read_seqcount_begin(&c->seq);
		valid = c->valid;
		s.perf = c->scores[class].perf;
		ipcc_itd_cache_read_point(c);
		s.eff = c->scores[class].eff;
	} while (read_seqcount_retry(&c->seq, seq));

	if (!valid)
		return -ENODATA;

	*score = s;
	return 0;
}

/*
 * Parse @cpu's row of @table into its cache. Caller holds the table lock
 * of the CPU's HFI instance, irqs off, and the HFI instance mutex.
 */
static bool ipcc_itd_refresh(struct ipcc_itd_cpu *cpu, const void *table,
			     const struct ipcc_itd_layout *l)
{
	struct ipcc_itd_score scores[IPCC_MAX_CLASSES];
	int nr;

	nr = ipcc_itd_parse_row(table, l, cpu->index, scores,
				ARRAY_SIZE(scores));
	ipcc_itd_cache_write(&cpu->cache, scores, nr);

	return nr > 0;
}

/*
 * The IPCC arch hooks, reached through the x86 dispatch while
 * classification is on.
 */

static unsigned int ipcc_itd_nr_classes(void)
{
	return ipcc_itd_layout.nr_classes;
}

/*
 * The scheduler tick, interrupts disabled: one MSR read, and a look at the
 * SMT siblings for a class trusted only while they are idle. No KUnit
 * hook on this path.
 */
static int ipcc_itd_read_class(struct task_struct *curr)
{
	u64 val;

	rdmsrq(MSR_IA32_HW_FEEDBACK_CHAR, val);
	return ipcc_itd_classify(val, ipcc_itd_layout.nr_classes,
				 READ_ONCE(ipcc_itd_smt_classes),
				 smp_processor_id(), ipcc_itd_siblings_idle);
}

static int ipcc_itd_get_scores(int cpu, unsigned int class, u8 *perf,
			       u8 *eff)
{
	struct ipcc_itd_score s;
	int ret;

	if (cpu < 0 || cpu >= nr_cpu_ids || !cpu_possible(cpu))
		return -EINVAL;
	if (class >= ipcc_itd_layout.nr_classes)
		return -ENODATA;

	ret = ipcc_itd_cache_read(&per_cpu_ptr(&ipcc_itd_cpus, cpu)->cache,
				  class, &s);
	if (ret)
		return ret;

	*perf = s.perf;
	*eff = s.eff;
	return 0;
}

static const struct x86_ipcc_ops ipcc_itd_ops = {
	.name		= "itd",
	.nr_classes	= ipcc_itd_nr_classes,
	.read_class	= ipcc_itd_read_class,
	.get_scores	= ipcc_itd_get_scores,
};

/*
 * Per-CPU switching, on the CPU itself (hotplug callbacks, syscore).
 */

/* Whether the hardware classifies: in use and not paused by the mode. */
static bool ipcc_itd_hw_on(void)
{
	return READ_ONCE(ipcc_itd_active) && !READ_ONCE(ipcc_itd_paused);
}

/*
 * Classification on: the package's ITD enable (written only when it is
 * clear, so once per package), the thread's classification, then HRESET:
 * the MSR before the mask that lets __switch_to() issue it.
 */
static void ipcc_itd_cpu_enable(u32 hreset_mask)
{
	u64 val;

	val = ipcc_itd_rdmsr(MSR_IA32_HW_FEEDBACK_CONFIG);
	if (!(val & ITD_CONFIG_ITD_ENABLE))
		ipcc_itd_wrmsr(MSR_IA32_HW_FEEDBACK_CONFIG,
			       val | ITD_CONFIG_ITD_ENABLE);

	val = ipcc_itd_rdmsr(MSR_IA32_HW_FEEDBACK_THREAD_CONFIG);
	ipcc_itd_wrmsr(MSR_IA32_HW_FEEDBACK_THREAD_CONFIG,
		       val | ITD_THREAD_CONFIG_ENABLE);

	if (hreset_mask) {
		ipcc_itd_wrmsr(MSR_IA32_HRESET_ENABLE, hreset_mask);
		ipcc_itd_set_hreset_mask(hreset_mask);
	}
}

/*
 * Classification off, in the reverse order: HRESET (the mask before the
 * MSR), the thread's classification and, with @package, the package's
 * ITD enable.
 */
static void ipcc_itd_cpu_disable(u32 hreset_mask, bool package)
{
	u64 val;

	if (hreset_mask) {
		ipcc_itd_set_hreset_mask(0);
		ipcc_itd_wrmsr(MSR_IA32_HRESET_ENABLE, 0);
	}

	val = ipcc_itd_rdmsr(MSR_IA32_HW_FEEDBACK_THREAD_CONFIG);
	ipcc_itd_wrmsr(MSR_IA32_HW_FEEDBACK_THREAD_CONFIG,
		       val & ~ITD_THREAD_CONFIG_ENABLE);

	if (!package)
		return;

	val = ipcc_itd_rdmsr(MSR_IA32_HW_FEEDBACK_CONFIG);
	if (val & ITD_CONFIG_ITD_ENABLE)
		ipcc_itd_wrmsr(MSR_IA32_HW_FEEDBACK_CONFIG,
			       val & ~ITD_CONFIG_ITD_ENABLE);
}

/*
 * CPU hotplug state, set up while classification is on: its startup runs
 * on every online CPU when switching on and on every CPU that comes
 * online later, after the HFI driver's callback (which links the CPU to
 * its HFI instance and enables the HFI). Its teardown runs on every
 * online CPU when switching off (ipcc_itd_active is then already false:
 * the package bit goes too) and on every CPU going offline (the package
 * bit goes with the package's last CPU).
 */
static int ipcc_itd_cpu_online(unsigned int cpu)
{
	if (ipcc_itd_hw_on())
		ipcc_itd_cpu_enable(ipcc_itd_hw.hreset_mask);

	return 0;
}

static int ipcc_itd_cpu_offline(unsigned int cpu)
{
	bool package = !READ_ONCE(ipcc_itd_active) ||
		       ipcc_itd_last_in_package(cpu);

	ipcc_itd_cpu_disable(ipcc_itd_hw.hreset_mask, package);
	return 0;
}

/*
 * Suspend and resume. Only the boot CPU runs here, interrupts disabled;
 * the other CPUs go through CPU hotplug. The HFI driver's syscore ops
 * were registered first, so they resume before (and suspend after) ours:
 * the HFI is enabled again when ITD is.
 */
static int ipcc_itd_syscore_suspend(void *data)
{
	if (ipcc_itd_hw_on())
		ipcc_itd_cpu_disable(ipcc_itd_hw.hreset_mask, true);

	return 0;
}

static void ipcc_itd_syscore_resume(void *data)
{
	if (ipcc_itd_hw_on())
		ipcc_itd_cpu_enable(ipcc_itd_hw.hreset_mask);
}

static const struct syscore_ops ipcc_itd_syscore_ops = {
	.suspend	= ipcc_itd_syscore_suspend,
	.resume		= ipcc_itd_syscore_resume,
};

static struct syscore ipcc_itd_syscore = {
	.ops = &ipcc_itd_syscore_ops,
};

/*
 * Switching on and off.
 */

/* Hardware off: HRESET first, then every CPU. The dispatch is done. */
static void ipcc_itd_hw_off_locked(void)
{
	lockdep_assert_held(&ipcc_itd_mutex);

	if (!ipcc_itd_active)
		return;

	static_branch_disable(&x86_ipcc_hreset_key);
	WRITE_ONCE(ipcc_itd_active, false);
	cpuhp_remove_state(ipcc_itd_cpuhp_state);
	ipcc_itd_cpuhp_state = 0;
}

/* Classification on, if it may and there are scores. */
static void ipcc_itd_enable_locked(void)
{
	int ret;

	lockdep_assert_held(&ipcc_itd_mutex);

	if (ipcc_itd_active || ipcc_itd_off || !READ_ONCE(ipcc_itd_have_scores))
		return;

	WRITE_ONCE(ipcc_itd_active, true);
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "x86/ipcc_itd:online",
				ipcc_itd_cpu_online, ipcc_itd_cpu_offline);
	if (ret < 0) {
		WRITE_ONCE(ipcc_itd_active, false);
		WRITE_ONCE(ipcc_itd_off, true);
		pr_warn("no CPU hotplug state (%d): Thread Director not used\n",
			ret);
		return;
	}
	ipcc_itd_cpuhp_state = ret;

	if (ipcc_itd_hw.hreset_mask && !ipcc_itd_paused)
		static_branch_enable(&x86_ipcc_hreset_key);

	ret = x86_ipcc_register(&ipcc_itd_ops);
	if (ret) {
		WRITE_ONCE(ipcc_itd_off, true);
		ipcc_itd_hw_off_locked();
		pr_warn("another IPCC backend is registered (%d): Thread Director not used\n",
			ret);
		return;
	}

	pr_info("%u classes, HRESET mask %#x: task classification on\n",
		ipcc_itd_layout.nr_classes, ipcc_itd_hw.hreset_mask);
}

/* Class reads stop first (the dispatch, the core), then the hardware. */
static void ipcc_itd_disable_locked(void)
{
	lockdep_assert_held(&ipcc_itd_mutex);

	if (!ipcc_itd_active)
		return;

	x86_ipcc_unregister(&ipcc_itd_ops);
	ipcc_itd_hw_off_locked();
	pr_info("task classification off\n");
}

static void ipcc_itd_enable_workfn(struct work_struct *work)
{
	mutex_lock(&ipcc_itd_mutex);
	ipcc_itd_enable_locked();
	mutex_unlock(&ipcc_itd_mutex);
}

static DECLARE_WORK(ipcc_itd_enable_work, ipcc_itd_enable_workfn);

/**
 * ipcc_itd_disable() - switch Thread Director classification off
 *
 * Stops class reads (arch_ipcc_read_class() returns -EOPNOTSUPP and the
 * core has switched IPCC off when this returns), then clears HRESET,
 * the per-thread classification and the packages' ITD enable on every
 * online CPU. Classification stays off until switched on again through
 * debugfs. The HFI stays enabled. This is the way out for the ``enabled``
 * debugfs knob and for any caller that finds the HFI capabilities
 * unusable; the HFI driver's own suspend and CPU offline paths need not
 * call it, the syscore and hotplug callbacks cover them.
 *
 * Context: process context, may sleep. Must not be called with the CPU
 * hotplug lock or the HFI driver's locks held.
 */
void ipcc_itd_disable(void)
{
	if (!ipcc_itd_wanted)
		return;

	mutex_lock(&ipcc_itd_mutex);
	WRITE_ONCE(ipcc_itd_off, true);
	ipcc_itd_disable_locked();
	mutex_unlock(&ipcc_itd_mutex);
}

static void ipcc_itd_cpu_pause(void *unused)
{
	ipcc_itd_cpu_disable(ipcc_itd_hw.hreset_mask, true);
}

static void ipcc_itd_cpu_resume(void *unused)
{
	ipcc_itd_cpu_enable(ipcc_itd_hw.hreset_mask);
}

/**
 * ipcc_itd_set_active() - pause or resume the hardware for the mode
 * @on: false while ``kernel.sched_ipcc`` is 0
 *
 * Implements arch_ipcc_set_active(). Paused, no CPU classifies threads
 * (the packages' ITD enable and every thread's classification clear)
 * and no context switch issues HRESET; the backend stays registered and
 * its scores, which are the HFI's, stay readable. Unlike
 * ipcc_itd_disable() this follows the mode both ways, and a backend
 * that switches on later starts paused if asked to before.
 *
 * Context: process context, may sleep; takes the CPU hotplug lock.
 */
void ipcc_itd_set_active(bool on)
{
	if (!ipcc_itd_wanted)
		return;

	guard(mutex)(&ipcc_itd_mutex);
	if (ipcc_itd_paused == !on)
		return;

	if (!on)
		static_branch_disable(&x86_ipcc_hreset_key);

	cpus_read_lock();
	WRITE_ONCE(ipcc_itd_paused, !on);
	if (ipcc_itd_active)
		on_each_cpu(on ? ipcc_itd_cpu_resume : ipcc_itd_cpu_pause,
			    NULL, 1);
	if (on && ipcc_itd_active && ipcc_itd_hw.hreset_mask)
		static_branch_enable_cpuslocked(&x86_ipcc_hreset_key);
	cpus_read_unlock();

	if (ipcc_itd_active)
		pr_info("task classification %s (kernel.sched_ipcc)\n",
			on ? "resumed" : "paused");
}

/*
 * New scores. Called by the HFI hooks under the HFI instance mutex, so
 * switching on is left to a work item.
 */
static void ipcc_itd_scores_arrived(void)
{
	WRITE_ONCE(ipcc_itd_have_scores, true);

	if (READ_ONCE(ipcc_itd_active))
		sched_ipcc_scores_changed();
	else if (!READ_ONCE(ipcc_itd_off))
		schedule_work(&ipcc_itd_enable_work);
}

/*
 * The HFI driver's hooks.
 */

/**
 * ipcc_itd_hfi_config() - bits to set together with the HFI's enable bit
 *
 * The hardware fills in the classes above 0 of the HFI table only while
 * Thread Director is enabled, and enabling it publishes no new table: a
 * table made before has those classes at 0 until the next update, which
 * on a cool, steady part may be long in coming. So the HFI driver sets
 * Thread Director's enable bit of IA32_HW_FEEDBACK_CONFIG in the same
 * write as the HFI's, and the first table already has every class.
 * Classification itself (IA32_HW_FEEDBACK_THREAD_CONFIG) and HRESET still
 * wait for the first scores, on each CPU.
 *
 * Context: the HFI driver enabling an instance, on one of its CPUs: CPU
 * hotplug (HFI instance mutex held) or resume (the boot CPU, interrupts
 * off).
 * Return: the Thread Director enable bit, or 0 when the backend is not in
 * use, was switched off, or is paused by kernel.sched_ipcc=0.
 */
u64 ipcc_itd_hfi_config(void)
{
	return ipcc_itd_config_bits(ipcc_itd_wanted, READ_ONCE(ipcc_itd_off),
				    READ_ONCE(ipcc_itd_paused));
}

/**
 * ipcc_itd_hfi_layout() - geometry of the HFI table
 * @nr_caps:    capabilities the HFI enumerates (1 or 2)
 * @table_size: bytes of the table
 * @hdr_size:   filled with the bytes of the header after the timestamp
 * @row_stride: filled with the bytes of a row
 *
 * With Thread Director, the header and every row hold all
 * CPUID.06H:ECX[15:8] classes, whether or not the backend uses them;
 * otherwise one. Also reads what CPUID says about Thread Director and
 * HRESET.
 *
 * Context: boot, from the HFI driver's feature parsing.
 */
void __init ipcc_itd_hfi_layout(unsigned int nr_caps, size_t table_size,
				unsigned int *hdr_size,
				unsigned int *row_stride)
{
	ipcc_itd_probe(boot_cpu_has(X86_FEATURE_ITD),
		       boot_cpu_has(X86_FEATURE_HRESET),
		       boot_cpu_data.cpuid_level, &ipcc_itd_hw);

	ipcc_itd_layout_init(&ipcc_itd_layout, ipcc_itd_hw.nr_classes ?: 1,
			     nr_caps, table_size);

	*hdr_size = ipcc_itd_layout.hdr_size;
	*row_stride = ipcc_itd_layout.row_stride;
}

static void __init ipcc_itd_debugfs_init(void);

/**
 * ipcc_itd_hfi_init() - decide whether the backend uses the HFI
 *
 * Called once the HFI driver is set up, before any CPU joins an HFI
 * instance.
 *
 * Context: boot.
 * Return: true when the CPU has Thread Director and ``ipcc_itd=off`` was
 * not given: the scheduler then is a permanent client of the HFI, which
 * must stay enabled.
 */
bool __init ipcc_itd_hfi_init(void)
{
	int cpu;

	if (!ipcc_itd_hw.nr_classes || ipcc_itd_param_off)
		return false;

	for_each_possible_cpu(cpu) {
		struct ipcc_itd_cpu *c = per_cpu_ptr(&ipcc_itd_cpus, cpu);

		seqcount_init(&c->cache.seq);
		c->index = -1;
	}

	ipcc_itd_smt_classes =
		ipcc_itd_model_smt_classes(boot_cpu_data.x86_vfm);
	ipcc_itd_wanted = true;

	register_syscore(&ipcc_itd_syscore);
	ipcc_itd_debugfs_init();

	return true;
}

/**
 * ipcc_itd_hfi_online() - a CPU joins its HFI instance
 * @cpu:        the CPU
 * @index:      its row in the table (CPUID.06H:EDX[31:16])
 * @table_lock: the instance's table lock
 * @table:      the instance's copy of the table
 *
 * Records the row and reads it from the table as last copied, so that a
 * CPU that comes online late has scores before the next update.
 *
 * Context: process context, with the HFI instance mutex held.
 */
void ipcc_itd_hfi_online(unsigned int cpu, int index,
			 struct raw_spinlock *table_lock, const void *table)
{
	struct ipcc_itd_cpu *c;
	unsigned long flags;
	bool got;

	if (!ipcc_itd_wanted)
		return;

	c = per_cpu_ptr(&ipcc_itd_cpus, cpu);
	c->index = index;

	raw_spin_lock_irqsave(table_lock, flags);
	got = ipcc_itd_refresh(c, table, &ipcc_itd_layout);
	raw_spin_unlock_irqrestore(table_lock, flags);

	if (got)
		ipcc_itd_scores_arrived();
}

/**
 * ipcc_itd_hfi_update() - the HFI table of an instance was updated
 * @cpus:       the instance's CPUs, each of which has joined it
 * @table_lock: the instance's table lock
 * @table:      the instance's copy of the table
 *
 * Reads the rows of @cpus into their caches and tells the core, or
 * switches classification on after the first scores.
 *
 * Context: process context (the HFI update work), with the HFI instance
 * mutex held.
 */
void ipcc_itd_hfi_update(const struct cpumask *cpus,
			 struct raw_spinlock *table_lock, const void *table)
{
	unsigned long flags;
	bool got = false;
	int cpu;

	if (!ipcc_itd_wanted)
		return;

	raw_spin_lock_irqsave(table_lock, flags);
	for_each_cpu(cpu, cpus)
		got |= ipcc_itd_refresh(per_cpu_ptr(&ipcc_itd_cpus, cpu),
					table, &ipcc_itd_layout);
	raw_spin_unlock_irqrestore(table_lock, flags);

	if (got)
		ipcc_itd_scores_arrived();
}

/*
 * Boot parameter.
 */

static int __init ipcc_itd_setup(char *s)
{
	bool off;

	if (ipcc_itd_parse_param(s, &off)) {
		pr_warn("ipcc_itd=%s not understood (on or off): ignored\n",
			s ?: "");
		return 0;
	}

	ipcc_itd_param_off = off;
	return 0;
}
early_param("ipcc_itd", ipcc_itd_setup);

/*
 * debugfs
 */

static char *ipcc_itd_get_write(const char __user *ubuf, size_t cnt,
				loff_t *ppos)
{
	if (!capable(CAP_SYS_ADMIN))
		return ERR_PTR(-EPERM);
	if (*ppos || !cnt || cnt >= ITD_KNOB_MAX)
		return ERR_PTR(-EINVAL);

	return memdup_user_nul(ubuf, cnt);
}

static int ipcc_itd_status_show(struct seq_file *m, void *v)
{
	const char *state;

	guard(mutex)(&ipcc_itd_mutex);

	if (ipcc_itd_active)
		state = "on";
	else if (ipcc_itd_off)
		state = "off";
	else
		state = "waiting";

	seq_printf(m, "state %s\n", state);
	seq_printf(m, "hardware %s\n", ipcc_itd_hw_on() ? "on" : "off");
	seq_printf(m, "classes %u\n", ipcc_itd_layout.nr_classes);
	seq_printf(m, "hreset_mask %#x\n", ipcc_itd_hw.hreset_mask);

	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ipcc_itd_status);

static int ipcc_itd_enabled_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%d\n", READ_ONCE(ipcc_itd_active));
	return 0;
}

static ssize_t ipcc_itd_enabled_write(struct file *file,
				      const char __user *ubuf, size_t cnt,
				      loff_t *ppos)
{
	char *buf;
	bool on;
	int ret;

	buf = ipcc_itd_get_write(ubuf, cnt, ppos);
	if (IS_ERR(buf))
		return PTR_ERR(buf);

	ret = ipcc_itd_parse_enabled(buf, cnt, &on);
	kfree(buf);
	if (ret)
		return ret;

	if (!on) {
		ipcc_itd_disable();
	} else {
		mutex_lock(&ipcc_itd_mutex);
		WRITE_ONCE(ipcc_itd_off, false);
		ipcc_itd_enable_locked();
		mutex_unlock(&ipcc_itd_mutex);
	}

	*ppos += cnt;
	return cnt;
}
DEFINE_SHOW_STORE_ATTRIBUTE(ipcc_itd_enabled);

static int ipcc_itd_smt_classes_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%#x\n", READ_ONCE(ipcc_itd_smt_classes));
	return 0;
}

static ssize_t ipcc_itd_smt_classes_write(struct file *file,
					  const char __user *ubuf, size_t cnt,
					  loff_t *ppos)
{
	char *buf;
	u32 mask;
	int ret;

	buf = ipcc_itd_get_write(ubuf, cnt, ppos);
	if (IS_ERR(buf))
		return PTR_ERR(buf);

	ret = ipcc_itd_parse_smt_classes(buf, cnt, ipcc_itd_layout.nr_classes,
					 &mask);
	kfree(buf);
	if (ret)
		return ret;

	mutex_lock(&ipcc_itd_mutex);
	WRITE_ONCE(ipcc_itd_smt_classes, mask);
	mutex_unlock(&ipcc_itd_mutex);

	*ppos += cnt;
	return cnt;
}
DEFINE_SHOW_STORE_ATTRIBUTE(ipcc_itd_smt_classes);

static void __init ipcc_itd_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("ipcc_itd", NULL);

	debugfs_create_file("status", 0444, dir, NULL, &ipcc_itd_status_fops);
	debugfs_create_file("enabled", 0644, dir, NULL,
			    &ipcc_itd_enabled_fops);
	debugfs_create_file("smt_classes", 0644, dir, NULL,
			    &ipcc_itd_smt_classes_fops);
}

#ifdef CONFIG_X86_IPCC_ITD_KUNIT_TEST
#include "ipcc_itd_kunit.h"
#endif
