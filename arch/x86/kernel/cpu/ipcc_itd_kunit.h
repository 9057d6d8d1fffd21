/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit tests of the Thread Director backend (ipcc_itd.c).
 *
 * Included at the end of ipcc_itd.c so that its static functions can be
 * tested. Every CPUID and MSR access goes to fakes (static stubs of
 * ipcc_itd_cpuid(), ipcc_itd_rdmsr() and ipcc_itd_wrmsr()), which keep a
 * small register file and record every write in order, so the tests run
 * on any x86-64 machine and never touch the hardware. The tick's class
 * read has no such hook (the static check of the harness makes sure):
 * its decision, ipcc_itd_classify(), is tested with a fake for the SMT
 * siblings passed in. Tests that need the backend's global state skip on
 * a machine where the backend is in use.
 *
 * The table images are written byte by byte from the layout in the
 * hardware notes (timestamp, per-class header, rows of per-class
 * {perf, eff}, each padded to 8 bytes), not from ipcc_itd_layout_init().
 * Padding and header bytes hold junk, so a parser that reads them fails.
 */
#ifndef _X86_KERNEL_CPU_IPCC_ITD_KUNIT_H
#define _X86_KERNEL_CPU_IPCC_ITD_KUNIT_H

#include <kunit/test.h>
#include <kunit/static_stub.h>

#define ITD_TEST_MAX_EVENTS	16
#define ITD_TEST_NR_MSRS	4
#define ITD_TEST_JUNK		0xee
#define ITD_TEST_TS		0x1122334455667788ULL

/* A recorded write: an MSR, or the per-CPU HRESET mask (msr == 0). */
struct itd_test_event {
	u32	msr;
	u64	val;
};

struct itd_test_ctx {
	/* Fake register file; an access to another MSR fails the test. */
	u32			msr[ITD_TEST_NR_MSRS];
	u64			msr_val[ITD_TEST_NR_MSRS];
	unsigned int		nr_rdmsr;
	u32			last_rdmsr;
	struct itd_test_event	ev[ITD_TEST_MAX_EVENTS];
	unsigned int		nr_ev;

	/* Fake CPUID: leaf 6 ECX and leaf 0x20 EBX; leaves queried. */
	u32			cpuid6_ecx;
	u32			cpuid20_ebx;
	u32			leaves[4];
	unsigned int		nr_leaves;

	bool			siblings_idle;
	unsigned int		nr_sibling_checks;
	bool			last_in_package;

	/* The racing writer of the seqcount test. */
	raw_spinlock_t		lock;
	struct ipcc_itd_cache	*race_cache;
	struct ipcc_itd_score	race_new[IPCC_MAX_CLASSES];
	unsigned int		race_points;
};

static struct itd_test_ctx *itd_test_ctx(void)
{
	struct kunit *test = kunit_get_current_test();

	return test ? test->priv : NULL;
}

static int itd_test_msr_slot(struct itd_test_ctx *ctx, u32 msr)
{
	unsigned int i;

	for (i = 0; i < ITD_TEST_NR_MSRS; i++) {
		if (ctx->msr[i] == msr)
			return i;
	}

	return -1;
}

static u64 itd_test_rdmsr(u32 msr)
{
	struct itd_test_ctx *ctx = itd_test_ctx();
	int i = itd_test_msr_slot(ctx, msr);

	ctx->nr_rdmsr++;
	ctx->last_rdmsr = msr;
	if (i < 0) {
		KUNIT_FAIL(kunit_get_current_test(), "rdmsr of %#x", msr);
		return 0;
	}

	return ctx->msr_val[i];
}

static void itd_test_record(struct itd_test_ctx *ctx, u32 msr, u64 val)
{
	if (ctx->nr_ev == ITD_TEST_MAX_EVENTS) {
		KUNIT_FAIL(kunit_get_current_test(), "too many writes");
		return;
	}

	ctx->ev[ctx->nr_ev].msr = msr;
	ctx->ev[ctx->nr_ev].val = val;
	ctx->nr_ev++;
}

static void itd_test_wrmsr(u32 msr, u64 val)
{
	struct itd_test_ctx *ctx = itd_test_ctx();
	int i = itd_test_msr_slot(ctx, msr);

	if (i < 0) {
		KUNIT_FAIL(kunit_get_current_test(), "wrmsr of %#x", msr);
		return;
	}

	ctx->msr_val[i] = val;
	itd_test_record(ctx, msr, val);
}

static void itd_test_set_hreset_mask(u32 mask)
{
	itd_test_record(itd_test_ctx(), 0, mask);
}

static void itd_test_cpuid(u32 leaf, u32 *eax, u32 *ebx, u32 *ecx, u32 *edx)
{
	struct itd_test_ctx *ctx = itd_test_ctx();

	if (ctx->nr_leaves < ARRAY_SIZE(ctx->leaves))
		ctx->leaves[ctx->nr_leaves++] = leaf;

	*eax = 0;
	*ebx = leaf == ITD_CPUID_LEAF_HRESET ? ctx->cpuid20_ebx : 0;
	*ecx = leaf == ITD_CPUID_LEAF_THERM ? ctx->cpuid6_ecx : 0;
	*edx = 0;
}

static bool itd_test_siblings_idle(int cpu)
{
	struct itd_test_ctx *ctx = itd_test_ctx();

	ctx->nr_sibling_checks++;
	return ctx->siblings_idle;
}

static bool itd_test_last_in_package(unsigned int cpu)
{
	return itd_test_ctx()->last_in_package;
}

/* The writer that races the reader of the seqcount test, once. */
static void itd_test_race_point(struct ipcc_itd_cache *c)
{
	struct itd_test_ctx *ctx = itd_test_ctx();
	unsigned long flags;

	if (ctx->race_points++)
		return;
	if (!ctx->race_cache)
		return;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	ipcc_itd_cache_write(ctx->race_cache, ctx->race_new,
			     IPCC_MAX_CLASSES);
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
}

static int itd_test_init(struct kunit *test)
{
	struct itd_test_ctx *ctx;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	raw_spin_lock_init(&ctx->lock);
	test->priv = ctx;

	kunit_activate_static_stub(test, ipcc_itd_rdmsr, itd_test_rdmsr);
	kunit_activate_static_stub(test, ipcc_itd_wrmsr, itd_test_wrmsr);
	kunit_activate_static_stub(test, ipcc_itd_cpuid, itd_test_cpuid);
	kunit_activate_static_stub(test, ipcc_itd_set_hreset_mask,
				   itd_test_set_hreset_mask);
	kunit_activate_static_stub(test, ipcc_itd_last_in_package,
				   itd_test_last_in_package);
	kunit_activate_static_stub(test, ipcc_itd_cache_read_point,
				   itd_test_race_point);

	return 0;
}

/* Fake MSRs at the start of a sequence test. */
static void itd_test_set_msrs(struct itd_test_ctx *ctx, u64 config,
			      u64 thread_config, u64 hreset_enable)
{
	ctx->msr[0] = MSR_IA32_HW_FEEDBACK_CONFIG;
	ctx->msr_val[0] = config;
	ctx->msr[1] = MSR_IA32_HW_FEEDBACK_THREAD_CONFIG;
	ctx->msr_val[1] = thread_config;
	ctx->msr[2] = MSR_IA32_HRESET_ENABLE;
	ctx->msr_val[2] = hreset_enable;
	ctx->msr[3] = MSR_IA32_HW_FEEDBACK_CHAR;
	ctx->msr_val[3] = 0;
	ctx->nr_ev = 0;
	ctx->nr_rdmsr = 0;
}

static void itd_test_expect_events(struct kunit *test,
				   const struct itd_test_event *exp,
				   unsigned int nr)
{
	struct itd_test_ctx *ctx = test->priv;
	unsigned int i;

	KUNIT_EXPECT_EQ(test, ctx->nr_ev, nr);
	for (i = 0; i < min(nr, ctx->nr_ev); i++) {
		KUNIT_EXPECT_EQ_MSG(test, ctx->ev[i].msr, exp[i].msr,
				    "write %u", i);
		KUNIT_EXPECT_EQ_MSG(test, ctx->ev[i].val, exp[i].val,
				    "write %u", i);
	}
}

/*
 * Table images.
 */

/* Largest image of the tests: 8 classes, 3 rows. */
#define ITD_TEST_IMAGE	(8 + 16 + 3 * 16)

struct itd_test_image {
	u64	words[ITD_TEST_IMAGE / 8];
};

/*
 * An image of @nr classes (two capabilities), @rows rows. Junk
 * everywhere, the timestamp, then row r, class c: perf = 16 * r + c + 1,
 * eff = 200 - perf. Return its size.
 */
static size_t itd_test_fill(struct itd_test_image *img, unsigned int nr,
			    unsigned int rows)
{
	unsigned int stride = DIV_ROUND_UP(2 * nr, 8) * 8;
	u8 *b = (u8 *)img->words;
	unsigned int r, c;

	memset(img, ITD_TEST_JUNK, sizeof(*img));
	put_unaligned(ITD_TEST_TS, &img->words[0]);

	for (r = 0; r < rows; r++) {
		for (c = 0; c < nr; c++) {
			u8 *cap = b + 8 + stride + r * stride + 2 * c;

			cap[0] = 16 * r + c + 1;
			cap[1] = 200 - cap[0];
		}
	}

	return 8 + stride + rows * stride;
}

/*
 * Thread Director needs the HFI: clearing HFI clears ITD (cpuid-deps.c),
 * and clearing ITD leaves HFI. On a local copy of the capabilities; the
 * boot CPU's are left alone, and so is a CPU that has the HFI (clearing a
 * feature the boot CPU has warns once alternatives are patched).
 */
static void itd_test_cpuid_deps(struct kunit *test)
{
	struct cpuinfo_x86 c = {};
	bool hfi, itd;

	if (boot_cpu_has(X86_FEATURE_HFI) || boot_cpu_has(X86_FEATURE_ITD))
		kunit_skip(test, "this CPU has the HFI");

	set_cpu_cap(&c, X86_FEATURE_HFI);
	set_cpu_cap(&c, X86_FEATURE_ITD);
	clear_cpu_cap(&c, X86_FEATURE_ITD);
	hfi = cpu_has(&c, X86_FEATURE_HFI);
	KUNIT_EXPECT_TRUE(test, hfi);

	set_cpu_cap(&c, X86_FEATURE_ITD);
	clear_cpu_cap(&c, X86_FEATURE_HFI);
	hfi = cpu_has(&c, X86_FEATURE_HFI);
	itd = cpu_has(&c, X86_FEATURE_ITD);
	KUNIT_EXPECT_FALSE(test, hfi);
	KUNIT_EXPECT_FALSE(test, itd);
}

static void itd_test_probe(struct kunit *test)
{
	struct itd_test_ctx *ctx = test->priv;
	struct ipcc_itd_hw hw = { 99, 99 };

	ctx->cpuid6_ecx = 0xffff04ff;
	ctx->cpuid20_ebx = 0x1;

	/* No Thread Director: CPUID is not even asked. */
	ipcc_itd_probe(false, true, 0x20, &hw);
	KUNIT_EXPECT_EQ(test, hw.nr_classes, 0);
	KUNIT_EXPECT_EQ(test, hw.hreset_mask, 0);
	KUNIT_EXPECT_EQ(test, ctx->nr_leaves, 0);

	/* ECX[15:8] only. No HRESET: leaf 0x20 is not asked. */
	ipcc_itd_probe(true, false, 0x20, &hw);
	KUNIT_EXPECT_EQ(test, hw.nr_classes, 4);
	KUNIT_EXPECT_EQ(test, hw.hreset_mask, 0);
	KUNIT_ASSERT_EQ(test, ctx->nr_leaves, 1);
	KUNIT_EXPECT_EQ(test, ctx->leaves[0], ITD_CPUID_LEAF_THERM);

	ctx->nr_leaves = 0;
	ipcc_itd_probe(true, true, 0x20, &hw);
	KUNIT_EXPECT_EQ(test, hw.nr_classes, 4);
	KUNIT_EXPECT_EQ(test, hw.hreset_mask, 0x1);
	KUNIT_ASSERT_EQ(test, ctx->nr_leaves, 2);
	KUNIT_EXPECT_EQ(test, ctx->leaves[1], ITD_CPUID_LEAF_HRESET);

	/* A CPU whose CPUID stops below leaf 0x20. */
	ctx->nr_leaves = 0;
	ipcc_itd_probe(true, true, 0x1f, &hw);
	KUNIT_EXPECT_EQ(test, hw.hreset_mask, 0);
	KUNIT_EXPECT_EQ(test, ctx->nr_leaves, 1);

	ctx->cpuid6_ecx = 0x0800;
	ipcc_itd_probe(true, false, 0x20, &hw);
	KUNIT_EXPECT_EQ(test, hw.nr_classes, 8);
}

static void itd_test_layout(struct kunit *test)
{
	static const struct {
		unsigned int nr, caps, hdr;
	} cases[] = {
		{ 1, 2, 8 }, { 1, 1, 8 }, { 3, 1, 8 }, { 3, 2, 8 },
		{ 4, 2, 8 }, { 5, 2, 16 }, { 8, 2, 16 }, { 9, 1, 16 },
		{ 16, 2, 32 },
	};
	struct ipcc_itd_layout l;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ipcc_itd_layout_init(&l, cases[i].nr, cases[i].caps, 4096);
		KUNIT_EXPECT_EQ_MSG(test, l.hdr_size, cases[i].hdr,
				    "%u classes", cases[i].nr);
		KUNIT_EXPECT_EQ_MSG(test, l.row_stride, cases[i].hdr,
				    "%u classes", cases[i].nr);
		KUNIT_EXPECT_EQ(test, l.class_stride, cases[i].caps);
		KUNIT_EXPECT_EQ(test, l.nr_classes, cases[i].nr);
	}
}

/* One class: 2 header bytes and 2 row bytes, each padded to 8. */
static void itd_test_parse_1class(struct kunit *test)
{
	static const u8 bytes[32] __aligned(8) = {
		0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
		0x01, 0x01, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee,
		0xc8, 0x64, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee,
		0x00, 0x7f, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee,
	};
	struct ipcc_itd_score s[IPCC_MAX_CLASSES] = { };
	struct ipcc_itd_layout l;

	ipcc_itd_layout_init(&l, 1, 2, sizeof(bytes));

	KUNIT_EXPECT_EQ(test, ipcc_itd_parse_row(bytes, &l, 0, s, 16), 1);
	KUNIT_EXPECT_EQ(test, s[0].perf, 0xc8);
	KUNIT_EXPECT_EQ(test, s[0].eff, 0x64);

	/* Performance 0 ("do not use this CPU") is passed through. */
	KUNIT_EXPECT_EQ(test, ipcc_itd_parse_row(bytes, &l, 1, s, 16), 1);
	KUNIT_EXPECT_EQ(test, s[0].perf, 0);
	KUNIT_EXPECT_EQ(test, s[0].eff, 0x7f);

	KUNIT_EXPECT_EQ(test, ipcc_itd_parse_row(bytes, &l, 2, s, 16),
			-ENODATA);
}

/* Four classes (Alder Lake): 8 header bytes, 8 row bytes, no padding. */
static void itd_test_parse_4class(struct kunit *test)
{
	static const u8 bytes[32] __aligned(8) = {
		0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
		0x01, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00,
		255, 120, 255, 140, 255, 150, 120, 60,
		150, 255, 110, 200, 90, 170, 120, 255,
	};
	static const struct ipcc_itd_score row1[4] = {
		{ 150, 255 }, { 110, 200 }, { 90, 170 }, { 120, 255 },
	};
	struct ipcc_itd_score s[IPCC_MAX_CLASSES];
	struct ipcc_itd_layout l;
	unsigned int c;

	ipcc_itd_layout_init(&l, 4, 2, sizeof(bytes));

	KUNIT_EXPECT_EQ(test, ipcc_itd_parse_row(bytes, &l, 0, s, 16), 4);
	KUNIT_EXPECT_EQ(test, s[0].perf, 255);
	KUNIT_EXPECT_EQ(test, s[0].eff, 120);
	KUNIT_EXPECT_EQ(test, s[3].perf, 120);
	KUNIT_EXPECT_EQ(test, s[3].eff, 60);

	KUNIT_EXPECT_EQ(test, ipcc_itd_parse_row(bytes, &l, 1, s, 16), 4);
	for (c = 0; c < 4; c++) {
		KUNIT_EXPECT_EQ(test, s[c].perf, row1[c].perf);
		KUNIT_EXPECT_EQ(test, s[c].eff, row1[c].eff);
	}

	/* Room for two classes: the others are left alone. */
	s[2].perf = 7;
	KUNIT_EXPECT_EQ(test, ipcc_itd_parse_row(bytes, &l, 0, s, 2), 2);
	KUNIT_EXPECT_EQ(test, s[1].eff, 140);
	KUNIT_EXPECT_EQ(test, s[2].perf, 7);
}

/* Eight classes: 16 header bytes, 16 row bytes. */
static void itd_test_parse_8class(struct kunit *test)
{
	struct ipcc_itd_score s[IPCC_MAX_CLASSES];
	struct itd_test_image img;
	struct ipcc_itd_layout l;
	unsigned int r, c;
	size_t size;

	size = itd_test_fill(&img, 8, 3);
	KUNIT_ASSERT_EQ(test, size, 8 + 16 + 3 * 16);
	ipcc_itd_layout_init(&l, 8, 2, size);

	for (r = 0; r < 3; r++) {
		KUNIT_EXPECT_EQ(test, ipcc_itd_parse_row(img.words, &l, r, s,
							 16), 8);
		for (c = 0; c < 8; c++) {
			KUNIT_EXPECT_EQ(test, s[c].perf, 16 * r + c + 1);
			KUNIT_EXPECT_EQ(test, s[c].eff, 200 - (16 * r + c + 1));
		}
	}

	KUNIT_EXPECT_EQ(test, ipcc_itd_parse_row(img.words, &l, 3, s, 16),
			-ENODATA);
}

/* Rows that do not fill their 8 bytes: the padding is skipped. */
static void itd_test_parse_padding(struct kunit *test)
{
	static const unsigned int nrs[] = { 1, 2, 3, 5, 6, 7 };
	struct ipcc_itd_score s[IPCC_MAX_CLASSES];
	struct itd_test_image img;
	struct ipcc_itd_layout l;
	unsigned int i, r, c, nr;
	size_t size;

	for (i = 0; i < ARRAY_SIZE(nrs); i++) {
		nr = nrs[i];
		size = itd_test_fill(&img, nr, 3);
		ipcc_itd_layout_init(&l, nr, 2, size);

		for (r = 0; r < 3; r++) {
			KUNIT_EXPECT_EQ(test,
					ipcc_itd_parse_row(img.words, &l, r, s,
							   16), nr);
			for (c = 0; c < nr; c++) {
				KUNIT_EXPECT_EQ_MSG(test, s[c].perf,
						    16 * r + c + 1,
						    "%u classes, row %u", nr,
						    r);
				KUNIT_EXPECT_NE(test, s[c].eff, ITD_TEST_JUNK);
			}
		}
	}
}

/* Performance capability only: one byte per class, efficiency 255. */
static void itd_test_parse_perf_only(struct kunit *test)
{
	static const u8 bytes[24] __aligned(8) = {
		0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
		0x01, 0x00, 0x01, 0xee, 0xee, 0xee, 0xee, 0xee,
		200, 0, 90, 0xee, 0xee, 0xee, 0xee, 0xee,
	};
	struct ipcc_itd_score s[IPCC_MAX_CLASSES];
	struct ipcc_itd_layout l;

	ipcc_itd_layout_init(&l, 3, 1, sizeof(bytes));

	KUNIT_EXPECT_EQ(test, ipcc_itd_parse_row(bytes, &l, 0, s, 16), 3);
	KUNIT_EXPECT_EQ(test, s[0].perf, 200);
	KUNIT_EXPECT_EQ(test, s[1].perf, 0);
	KUNIT_EXPECT_EQ(test, s[2].perf, 90);
	KUNIT_EXPECT_EQ(test, s[0].eff, 255);
	KUNIT_EXPECT_EQ(test, s[1].eff, 255);
}

/*
 * A table made while Thread Director was off: the hardware filled in
 * class 0 only. The other classes take class 0's capabilities instead of
 * reading as "do not use this CPU".
 */
static void itd_test_parse_itd_off(struct kunit *test)
{
	static const u8 bytes[40] __aligned(8) = {
		0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
		0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		/* row 0: class 0 only */
		67, 47, 0, 0, 0, 0, 0, 0,
		/* row 1: all 0, "do not use this CPU" */
		0, 0, 0, 0, 0, 0, 0, 0,
		/* row 2: class 2 really 0, the others filled in */
		41, 148, 50, 160, 0, 0, 30, 200,
	};
	static const u8 perf_only[24] __aligned(8) = {
		0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
		0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		90, 0, 0, 0, 0, 0, 0, 0,
	};
	struct ipcc_itd_score s[IPCC_MAX_CLASSES];
	struct ipcc_itd_layout l;
	unsigned int c;

	ipcc_itd_layout_init(&l, 4, 2, sizeof(bytes));

	KUNIT_EXPECT_EQ(test, ipcc_itd_parse_row(bytes, &l, 0, s, 16), 4);
	for (c = 0; c < 4; c++) {
		KUNIT_EXPECT_EQ_MSG(test, s[c].perf, 67, "class %u", c);
		KUNIT_EXPECT_EQ_MSG(test, s[c].eff, 47, "class %u", c);
	}

	KUNIT_EXPECT_EQ(test, ipcc_itd_parse_row(bytes, &l, 1, s, 16), 4);
	for (c = 0; c < 4; c++) {
		KUNIT_EXPECT_EQ(test, s[c].perf, 0);
		KUNIT_EXPECT_EQ(test, s[c].eff, 0);
	}

	KUNIT_EXPECT_EQ(test, ipcc_itd_parse_row(bytes, &l, 2, s, 16), 4);
	KUNIT_EXPECT_EQ(test, s[1].perf, 50);
	KUNIT_EXPECT_EQ(test, s[2].perf, 0);
	KUNIT_EXPECT_EQ(test, s[2].eff, 0);
	KUNIT_EXPECT_EQ(test, s[3].eff, 200);

	/* Performance only, three classes, class 0 only. */
	ipcc_itd_layout_init(&l, 3, 1, sizeof(perf_only));
	KUNIT_EXPECT_EQ(test, ipcc_itd_parse_row(perf_only, &l, 0, s, 16), 3);
	KUNIT_EXPECT_EQ(test, s[2].perf, 90);
	KUNIT_EXPECT_EQ(test, s[2].eff, 255);
}

/*
 * The HFI driver enables Thread Director with the HFI only when the
 * backend uses it and neither the knob nor mode 0 has it off.
 */
static void itd_test_config_bits(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ipcc_itd_config_bits(true, false, false),
			ITD_CONFIG_ITD_ENABLE);
	KUNIT_EXPECT_EQ(test, ipcc_itd_config_bits(false, false, false), 0);
	KUNIT_EXPECT_EQ(test, ipcc_itd_config_bits(true, true, false), 0);
	KUNIT_EXPECT_EQ(test, ipcc_itd_config_bits(true, false, true), 0);
	KUNIT_EXPECT_EQ(test, ipcc_itd_config_bits(true, true, true), 0);
	/* Never the HFI's own bit: that is the driver's. */
	KUNIT_EXPECT_EQ(test, ipcc_itd_config_bits(true, false, false) & BIT(0),
			0);
}

static void itd_test_parse_no_data(struct kunit *test)
{
	struct ipcc_itd_score s[IPCC_MAX_CLASSES];
	struct itd_test_image img;
	struct ipcc_itd_layout l;
	size_t size;

	size = itd_test_fill(&img, 4, 2);
	ipcc_itd_layout_init(&l, 4, 2, size);

	KUNIT_EXPECT_EQ(test, ipcc_itd_parse_row(img.words, &l, -1, s, 16),
			-ENODATA);
	KUNIT_EXPECT_EQ(test, ipcc_itd_parse_row(img.words, &l, 2, s, 16),
			-ENODATA);

	/* The last row cut short by the table size. */
	ipcc_itd_layout_init(&l, 4, 2, size - 1);
	KUNIT_EXPECT_EQ(test, ipcc_itd_parse_row(img.words, &l, 1, s, 16),
			-ENODATA);
	KUNIT_EXPECT_EQ(test, ipcc_itd_parse_row(img.words, &l, 0, s, 16), 4);

	/* Timestamp 0: the hardware never wrote the table. */
	img.words[0] = 0;
	KUNIT_EXPECT_EQ(test, ipcc_itd_parse_row(img.words, &l, 0, s, 16),
			-ENODATA);
}

/* Three CPUs, the first and the last sharing row 0; then an update. */
static void itd_test_shared_rows(struct kunit *test)
{
	struct itd_test_ctx *ctx = test->priv;
	struct ipcc_itd_cpu cpus[3] = { };
	struct ipcc_itd_score s = { };
	struct itd_test_image img;
	struct ipcc_itd_layout l;
	unsigned long flags;
	unsigned int i, c;
	u8 *row0;
	size_t size;

	size = itd_test_fill(&img, 4, 2);
	ipcc_itd_layout_init(&l, 4, 2, size);
	for (i = 0; i < ARRAY_SIZE(cpus); i++)
		seqcount_init(&cpus[i].cache.seq);
	cpus[0].index = 0;
	cpus[1].index = 1;
	cpus[2].index = 0;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	for (i = 0; i < ARRAY_SIZE(cpus); i++)
		KUNIT_EXPECT_TRUE(test, ipcc_itd_refresh(&cpus[i], img.words,
							 &l));
	raw_spin_unlock_irqrestore(&ctx->lock, flags);

	for (c = 0; c < 4; c++) {
		KUNIT_ASSERT_EQ(test, ipcc_itd_cache_read(&cpus[0].cache, c,
							  &s), 0);
		KUNIT_EXPECT_EQ(test, s.perf, c + 1);
		KUNIT_ASSERT_EQ(test, ipcc_itd_cache_read(&cpus[2].cache, c,
							  &s), 0);
		KUNIT_EXPECT_EQ(test, s.perf, c + 1);
		KUNIT_EXPECT_EQ(test, s.eff, 200 - (c + 1));
		KUNIT_ASSERT_EQ(test, ipcc_itd_cache_read(&cpus[1].cache, c,
							  &s), 0);
		KUNIT_EXPECT_EQ(test, s.perf, 16 + c + 1);
	}

	/* Row 0 changes: class 3 drops to 0 ("avoid this CPU"). */
	row0 = (u8 *)img.words + 8 + 8;
	row0[6] = 0;
	row0[7] = 0;
	row0[0] = 250;

	raw_spin_lock_irqsave(&ctx->lock, flags);
	for (i = 0; i < ARRAY_SIZE(cpus); i++)
		ipcc_itd_refresh(&cpus[i], img.words, &l);
	raw_spin_unlock_irqrestore(&ctx->lock, flags);

	for (i = 0; i < ARRAY_SIZE(cpus); i += 2) {
		KUNIT_ASSERT_EQ(test, ipcc_itd_cache_read(&cpus[i].cache, 3,
							  &s), 0);
		KUNIT_EXPECT_EQ(test, s.perf, 0);
		KUNIT_EXPECT_EQ(test, s.eff, 0);
		KUNIT_ASSERT_EQ(test, ipcc_itd_cache_read(&cpus[i].cache, 0,
							  &s), 0);
		KUNIT_EXPECT_EQ(test, s.perf, 250);
	}
	KUNIT_ASSERT_EQ(test, ipcc_itd_cache_read(&cpus[1].cache, 3, &s), 0);
	KUNIT_EXPECT_EQ(test, s.perf, 16 + 4);
}

/* A CPU without a row has no scores, and loses them with its row. */
static void itd_test_cache_no_data(struct kunit *test)
{
	struct itd_test_ctx *ctx = test->priv;
	struct ipcc_itd_cpu cpu = { };
	struct ipcc_itd_score s = { 7, 7 };
	struct itd_test_image img;
	struct ipcc_itd_layout l;
	unsigned long flags;
	size_t size;

	size = itd_test_fill(&img, 4, 2);
	ipcc_itd_layout_init(&l, 4, 2, size);
	seqcount_init(&cpu.cache.seq);

	/* Never written. */
	KUNIT_EXPECT_EQ(test, ipcc_itd_cache_read(&cpu.cache, 0, &s),
			-ENODATA);

	raw_spin_lock_irqsave(&ctx->lock, flags);
	cpu.index = 1;
	KUNIT_EXPECT_TRUE(test, ipcc_itd_refresh(&cpu, img.words, &l));
	cpu.index = 5;
	KUNIT_EXPECT_FALSE(test, ipcc_itd_refresh(&cpu, img.words, &l));
	raw_spin_unlock_irqrestore(&ctx->lock, flags);

	KUNIT_EXPECT_EQ(test, ipcc_itd_cache_read(&cpu.cache, 0, &s),
			-ENODATA);
	KUNIT_EXPECT_EQ(test, ipcc_itd_cache_read(&cpu.cache, IPCC_MAX_CLASSES,
						  &s), -ENODATA);
	KUNIT_EXPECT_EQ(test, s.perf, 7);
}

/*
 * A reader reads the performance score, a writer then replaces the pair,
 * and the reader reads the efficiency score: it must notice, retry and
 * return the new pair, never the old performance with the new
 * efficiency.
 */
static void itd_test_cache_race(struct kunit *test)
{
	struct itd_test_ctx *ctx = test->priv;
	struct ipcc_itd_score old[IPCC_MAX_CLASSES] = { };
	struct ipcc_itd_cache cache = { };
	struct ipcc_itd_score s;
	unsigned long flags;

	seqcount_init(&cache.seq);
	old[1] = (struct ipcc_itd_score){ 10, 20 };
	raw_spin_lock_irqsave(&ctx->lock, flags);
	ipcc_itd_cache_write(&cache, old, IPCC_MAX_CLASSES);
	raw_spin_unlock_irqrestore(&ctx->lock, flags);

	/* No writer: one pass. */
	KUNIT_ASSERT_EQ(test, ipcc_itd_cache_read(&cache, 1, &s), 0);
	KUNIT_EXPECT_EQ(test, s.perf, 10);
	KUNIT_EXPECT_EQ(test, s.eff, 20);
	KUNIT_EXPECT_EQ(test, ctx->race_points, 1);

	ctx->race_points = 0;
	ctx->race_cache = &cache;
	ctx->race_new[1] = (struct ipcc_itd_score){ 30, 40 };

	KUNIT_ASSERT_EQ(test, ipcc_itd_cache_read(&cache, 1, &s), 0);
	KUNIT_EXPECT_EQ(test, ctx->race_points, 2);
	KUNIT_EXPECT_EQ(test, s.perf, 30);
	KUNIT_EXPECT_EQ(test, s.eff, 40);

	/* The writer invalidates the cache: the retry sees that too. */
	ctx->race_points = 0;
	ctx->race_cache = NULL;
	raw_spin_lock_irqsave(&ctx->lock, flags);
	ipcc_itd_cache_write(&cache, NULL, -ENODATA);
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	KUNIT_EXPECT_EQ(test, ipcc_itd_cache_read(&cache, 1, &s), -ENODATA);
}

static void itd_test_decode_char(struct kunit *test)
{
	static const struct {
		u64 val;
		unsigned int nr;
		int class;
	} cases[] = {
		{ 0, 4, -ENODATA },
		{ 3, 4, -ENODATA },
		{ GENMASK_ULL(62, 0), 4, -ENODATA },
		{ BIT_ULL(63) | 0, 4, 0 },
		{ BIT_ULL(63) | 3, 4, 3 },
		{ BIT_ULL(63) | 4, 4, -ERANGE },
		{ BIT_ULL(63) | 0xff, 4, -ERANGE },
		{ BIT_ULL(63) | 0xff, 255, -ERANGE },
		{ BIT_ULL(63) | 0xff, 256, 255 },
		{ BIT_ULL(63) | GENMASK_ULL(62, 8) | 2, 4, 2 },
		{ BIT_ULL(63) | 0x102, 4, 2 },
		{ BIT_ULL(63) | 0, 1, 0 },
		{ BIT_ULL(63) | 1, 1, -ERANGE },
		{ BIT_ULL(63) | 0, 0, -ERANGE },
		{ BIT_ULL(63) | 7, 8, 7 },
		{ BIT_ULL(63) | 8, 8, -ERANGE },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    ipcc_itd_decode_char(cases[i].val,
							 cases[i].nr),
				    cases[i].class, "value %#llx, %u classes",
				    cases[i].val, cases[i].nr);
}

static void itd_test_models(struct kunit *test)
{
	static const u32 adl_like[] = {
		INTEL_ALDERLAKE, INTEL_ALDERLAKE_L, INTEL_RAPTORLAKE,
		INTEL_RAPTORLAKE_P, INTEL_RAPTORLAKE_S, INTEL_METEORLAKE,
		INTEL_METEORLAKE_L,
	};
	static const u32 no_rule[] = {
		INTEL_LUNARLAKE_M, INTEL_ARROWLAKE, INTEL_SKYLAKE, 0,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(adl_like); i++)
		KUNIT_EXPECT_EQ(test, ipcc_itd_model_smt_classes(adl_like[i]),
				BIT(0) | BIT(1));
	for (i = 0; i < ARRAY_SIZE(no_rule); i++)
		KUNIT_EXPECT_EQ(test, ipcc_itd_model_smt_classes(no_rule[i]),
				0);
}

/* ipcc_itd_classify() of four classes on CPU 0, with the fake siblings. */
static int itd_classify(u64 val, u32 rule)
{
	return ipcc_itd_classify(val, 4, rule, 0, itd_test_siblings_idle);
}

/* The Alder Lake rule: 0 and 1 need idle siblings, 2 and 3 do not. */
static void itd_test_classify_adl(struct kunit *test)
{
	struct itd_test_ctx *ctx = test->priv;
	u32 rule = ipcc_itd_model_smt_classes(INTEL_ALDERLAKE);
	u64 v = BIT_ULL(63);

	ctx->siblings_idle = false;
	KUNIT_EXPECT_EQ(test, itd_classify(v | 0, rule), -EAGAIN);
	KUNIT_EXPECT_EQ(test, itd_classify(v | 1, rule), -EAGAIN);
	KUNIT_EXPECT_EQ(test, ctx->nr_sibling_checks, 2);

	/* Trusted classes never look at the siblings. */
	KUNIT_EXPECT_EQ(test, itd_classify(v | 2, rule), 2);
	KUNIT_EXPECT_EQ(test, itd_classify(v | 3, rule), 3);
	KUNIT_EXPECT_EQ(test, itd_classify(3, rule), -ENODATA);
	KUNIT_EXPECT_EQ(test, itd_classify(v | 4, rule), -ERANGE);
	KUNIT_EXPECT_EQ(test, ctx->nr_sibling_checks, 2);

	ctx->siblings_idle = true;
	KUNIT_EXPECT_EQ(test, itd_classify(v | 0, rule), 0);
	KUNIT_EXPECT_EQ(test, itd_classify(v | 1, rule), 1);
	KUNIT_EXPECT_EQ(test, ctx->nr_sibling_checks, 4);
}

/* Models without a rule, and a rule changed at run time. */
static void itd_test_classify_other(struct kunit *test)
{
	struct itd_test_ctx *ctx = test->priv;
	u32 rule = ipcc_itd_model_smt_classes(INTEL_LUNARLAKE_M);
	u64 v = BIT_ULL(63);

	ctx->siblings_idle = false;
	KUNIT_EXPECT_EQ(test, itd_classify(v | 0, rule), 0);
	KUNIT_EXPECT_EQ(test, itd_classify(v | 1, rule), 1);
	KUNIT_EXPECT_EQ(test, ctx->nr_sibling_checks, 0);

	KUNIT_EXPECT_EQ(test, itd_classify(v | 3, BIT(3)), -EAGAIN);
	KUNIT_EXPECT_EQ(test, itd_classify(v | 0, BIT(3)), 0);
	KUNIT_EXPECT_EQ(test, ctx->nr_sibling_checks, 1);
}

static void itd_test_param(struct kunit *test)
{
	static const char * const bad[] = {
		"", "On", "OFF", "0", "1", "no", "off ", " off", "offf", "of",
		"on\n", "yes",
	};
	unsigned int i;
	bool off = true;

	KUNIT_EXPECT_EQ(test, ipcc_itd_parse_param("on", &off), 0);
	KUNIT_EXPECT_FALSE(test, off);
	KUNIT_EXPECT_EQ(test, ipcc_itd_parse_param("off", &off), 0);
	KUNIT_EXPECT_TRUE(test, off);

	KUNIT_EXPECT_EQ(test, ipcc_itd_parse_param(NULL, &off), -EINVAL);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		off = true;
		KUNIT_EXPECT_EQ_MSG(test, ipcc_itd_parse_param(bad[i], &off),
				    -EINVAL, "input \"%s\"", bad[i]);
		KUNIT_EXPECT_TRUE(test, off);
	}
}

static void itd_test_parse_enabled(struct kunit *test)
{
	static const char * const bad[] = {
		"", "\n", "2", "01", "1\n\n", " 1", "1 ", "on", "-1", "+1",
		"0x1", "111111111111111",
	};
	unsigned int i;
	bool on = false;

	KUNIT_EXPECT_EQ(test, ipcc_itd_parse_enabled("1", 1, &on), 0);
	KUNIT_EXPECT_TRUE(test, on);
	KUNIT_EXPECT_EQ(test, ipcc_itd_parse_enabled("0\n", 2, &on), 0);
	KUNIT_EXPECT_FALSE(test, on);
	KUNIT_EXPECT_EQ(test, ipcc_itd_parse_enabled("1\0", 2, &on), -EINVAL);

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		on = true;
		KUNIT_EXPECT_EQ_MSG(test,
				    ipcc_itd_parse_enabled(bad[i],
							   strlen(bad[i]),
							   &on),
				    -EINVAL, "input \"%s\"", bad[i]);
		KUNIT_EXPECT_TRUE(test, on);
	}
}

static int itd_test_smt(const char *s, unsigned int nr, u32 *mask)
{
	return ipcc_itd_parse_smt_classes(s, strlen(s), nr, mask);
}

static void itd_test_parse_smt_classes(struct kunit *test)
{
	static const char * const bad[] = {
		"", "\n", "0x", "10", "0x10", "-1", "+3", " 3", "3 ", "0x0x3",
		"g", "3\n\n", "0X3", "100000000",
	};
	unsigned int i;
	u32 mask = 99;

	KUNIT_EXPECT_EQ(test, itd_test_smt("3", 4, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, 3);
	KUNIT_EXPECT_EQ(test, itd_test_smt("0x3\n", 4, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, 3);
	KUNIT_EXPECT_EQ(test, itd_test_smt("0", 4, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, 0);
	KUNIT_EXPECT_EQ(test, itd_test_smt("F", 4, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, 0xf);
	KUNIT_EXPECT_EQ(test, itd_test_smt("ffffffff", 32, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, U32_MAX);
	KUNIT_EXPECT_EQ(test, itd_test_smt("80000000", 40, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, BIT(31));

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		mask = 99;
		KUNIT_EXPECT_EQ_MSG(test, itd_test_smt(bad[i], 4, &mask),
				    -EINVAL, "input \"%s\"", bad[i]);
		KUNIT_EXPECT_EQ(test, mask, 99);
	}
}

#define ITD_EV(m, v)	{ .msr = (m), .val = (v) }
#define ITD_EV_MASK(v)	{ .msr = 0, .val = (v) }

static void itd_test_cpu_enable(struct kunit *test)
{
	static const struct itd_test_event first[] = {
		ITD_EV(MSR_IA32_HW_FEEDBACK_CONFIG, 0x3),
		ITD_EV(MSR_IA32_HW_FEEDBACK_THREAD_CONFIG, 0x1),
		ITD_EV(MSR_IA32_HRESET_ENABLE, 0x1),
		ITD_EV_MASK(0x1),
	};
	static const struct itd_test_event sibling[] = {
		ITD_EV(MSR_IA32_HW_FEEDBACK_THREAD_CONFIG, 0x1),
		ITD_EV(MSR_IA32_HRESET_ENABLE, 0x1),
		ITD_EV_MASK(0x1),
	};
	static const struct itd_test_event no_hreset[] = {
		ITD_EV(MSR_IA32_HW_FEEDBACK_CONFIG, 0x3),
		ITD_EV(MSR_IA32_HW_FEEDBACK_THREAD_CONFIG, 0x101),
	};
	struct itd_test_ctx *ctx = test->priv;

	/* First CPU of a package whose HFI is on (CONFIG bit 0). */
	itd_test_set_msrs(ctx, 0x1, 0, 0);
	ipcc_itd_cpu_enable(0x1);
	itd_test_expect_events(test, first, ARRAY_SIZE(first));

	/* Next CPU of the package: the package bit is already set. */
	ctx->nr_ev = 0;
	ctx->msr_val[1] = 0;
	ipcc_itd_cpu_enable(0x1);
	itd_test_expect_events(test, sibling, ARRAY_SIZE(sibling));

	/* No HRESET; other THREAD_CONFIG bits are kept. */
	itd_test_set_msrs(ctx, 0x1, 0x100, 0);
	ipcc_itd_cpu_enable(0);
	itd_test_expect_events(test, no_hreset, ARRAY_SIZE(no_hreset));
}

static void itd_test_cpu_disable(struct kunit *test)
{
	static const struct itd_test_event package[] = {
		ITD_EV_MASK(0),
		ITD_EV(MSR_IA32_HRESET_ENABLE, 0),
		ITD_EV(MSR_IA32_HW_FEEDBACK_THREAD_CONFIG, 0),
		ITD_EV(MSR_IA32_HW_FEEDBACK_CONFIG, 0x1),
	};
	static const struct itd_test_event thread[] = {
		ITD_EV_MASK(0),
		ITD_EV(MSR_IA32_HRESET_ENABLE, 0),
		ITD_EV(MSR_IA32_HW_FEEDBACK_THREAD_CONFIG, 0),
	};
	static const struct itd_test_event no_hreset[] = {
		ITD_EV(MSR_IA32_HW_FEEDBACK_THREAD_CONFIG, 0x100),
	};
	struct itd_test_ctx *ctx = test->priv;

	itd_test_set_msrs(ctx, 0x3, 0x1, 0x1);
	ipcc_itd_cpu_disable(0x1, true);
	itd_test_expect_events(test, package, ARRAY_SIZE(package));

	itd_test_set_msrs(ctx, 0x3, 0x1, 0x1);
	ipcc_itd_cpu_disable(0x1, false);
	itd_test_expect_events(test, thread, ARRAY_SIZE(thread));

	/* Package bit already clear; no HRESET; other bits kept. */
	itd_test_set_msrs(ctx, 0x1, 0x101, 0);
	ipcc_itd_cpu_disable(0, true);
	itd_test_expect_events(test, no_hreset, ARRAY_SIZE(no_hreset));
}

/*
 * The hotplug and syscore callbacks, which follow ipcc_itd_active. They
 * read the backend's global state, so they are only run where the
 * backend is not in use.
 */
static void itd_test_callbacks(struct kunit *test)
{
	static const struct itd_test_event off_last[] = {
		ITD_EV(MSR_IA32_HW_FEEDBACK_THREAD_CONFIG, 0),
		ITD_EV(MSR_IA32_HW_FEEDBACK_CONFIG, 0x1),
	};
	static const struct itd_test_event off_thread[] = {
		ITD_EV(MSR_IA32_HW_FEEDBACK_THREAD_CONFIG, 0),
	};
	static const struct itd_test_event on[] = {
		ITD_EV(MSR_IA32_HW_FEEDBACK_CONFIG, 0x3),
		ITD_EV(MSR_IA32_HW_FEEDBACK_THREAD_CONFIG, 0x1),
	};
	struct itd_test_ctx *ctx = test->priv;

	if (ipcc_itd_wanted || ipcc_itd_hw.hreset_mask)
		kunit_skip(test, "the backend is in use on this machine");

	/* Inactive: coming online and resuming touch nothing. */
	itd_test_set_msrs(ctx, 0x1, 0, 0);
	KUNIT_EXPECT_EQ(test, ipcc_itd_cpu_online(0), 0);
	ipcc_itd_syscore_resume(NULL);
	KUNIT_EXPECT_EQ(test, ipcc_itd_syscore_suspend(NULL), 0);
	KUNIT_EXPECT_EQ(test, ctx->nr_rdmsr, 0);
	KUNIT_EXPECT_EQ(test, ctx->nr_ev, 0);

	/* Teardown while switching off: the package bit goes too. */
	itd_test_set_msrs(ctx, 0x3, 0x1, 0);
	ctx->last_in_package = false;
	KUNIT_EXPECT_EQ(test, ipcc_itd_cpu_offline(0), 0);
	itd_test_expect_events(test, off_last, ARRAY_SIZE(off_last));

	WRITE_ONCE(ipcc_itd_active, true);

	/* Paused by the mode: coming online and resuming touch nothing. */
	WRITE_ONCE(ipcc_itd_paused, true);
	itd_test_set_msrs(ctx, 0x1, 0, 0);
	KUNIT_EXPECT_EQ(test, ipcc_itd_cpu_online(0), 0);
	ipcc_itd_syscore_resume(NULL);
	KUNIT_EXPECT_EQ(test, ipcc_itd_syscore_suspend(NULL), 0);
	KUNIT_EXPECT_EQ(test, ctx->nr_ev, 0);
	WRITE_ONCE(ipcc_itd_paused, false);

	itd_test_set_msrs(ctx, 0x1, 0, 0);
	KUNIT_EXPECT_EQ(test, ipcc_itd_cpu_online(0), 0);
	itd_test_expect_events(test, on, ARRAY_SIZE(on));

	/* A CPU going offline keeps the package bit for its siblings... */
	itd_test_set_msrs(ctx, 0x3, 0x1, 0);
	ctx->last_in_package = false;
	KUNIT_EXPECT_EQ(test, ipcc_itd_cpu_offline(0), 0);
	itd_test_expect_events(test, off_thread, ARRAY_SIZE(off_thread));

	/* ...unless it is the last one of the package. */
	itd_test_set_msrs(ctx, 0x3, 0x1, 0);
	ctx->last_in_package = true;
	KUNIT_EXPECT_EQ(test, ipcc_itd_cpu_offline(0), 0);
	itd_test_expect_events(test, off_last, ARRAY_SIZE(off_last));

	/* Suspend clears everything on the boot CPU; resume restores. */
	itd_test_set_msrs(ctx, 0x3, 0x1, 0);
	KUNIT_EXPECT_EQ(test, ipcc_itd_syscore_suspend(NULL), 0);
	itd_test_expect_events(test, off_last, ARRAY_SIZE(off_last));
	itd_test_set_msrs(ctx, 0x1, 0, 0);
	ipcc_itd_syscore_resume(NULL);
	itd_test_expect_events(test, on, ARRAY_SIZE(on));

	WRITE_ONCE(ipcc_itd_active, false);
}

/* Where the backend is not in use, disabling it touches nothing. */
static void itd_test_disable_unused(struct kunit *test)
{
	struct itd_test_ctx *ctx = test->priv;

	if (ipcc_itd_wanted)
		kunit_skip(test, "the backend is in use on this machine");

	itd_test_set_msrs(ctx, 0x1, 0, 0);
	ipcc_itd_disable();
	KUNIT_EXPECT_EQ(test, ctx->nr_rdmsr, 0);
	KUNIT_EXPECT_EQ(test, ctx->nr_ev, 0);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(ipcc_itd_active));
}

static struct kunit_case ipcc_itd_test_cases[] = {
	KUNIT_CASE(itd_test_cpuid_deps),
	KUNIT_CASE(itd_test_probe),
	KUNIT_CASE(itd_test_layout),
	KUNIT_CASE(itd_test_parse_1class),
	KUNIT_CASE(itd_test_parse_4class),
	KUNIT_CASE(itd_test_parse_8class),
	KUNIT_CASE(itd_test_parse_padding),
	KUNIT_CASE(itd_test_parse_perf_only),
	KUNIT_CASE(itd_test_parse_itd_off),
	KUNIT_CASE(itd_test_config_bits),
	KUNIT_CASE(itd_test_parse_no_data),
	KUNIT_CASE(itd_test_shared_rows),
	KUNIT_CASE(itd_test_cache_no_data),
	KUNIT_CASE(itd_test_cache_race),
	KUNIT_CASE(itd_test_decode_char),
	KUNIT_CASE(itd_test_models),
	KUNIT_CASE(itd_test_classify_adl),
	KUNIT_CASE(itd_test_classify_other),
	KUNIT_CASE(itd_test_param),
	KUNIT_CASE(itd_test_parse_enabled),
	KUNIT_CASE(itd_test_parse_smt_classes),
	KUNIT_CASE(itd_test_cpu_enable),
	KUNIT_CASE(itd_test_cpu_disable),
	KUNIT_CASE(itd_test_callbacks),
	KUNIT_CASE(itd_test_disable_unused),
	{}
};

static struct kunit_suite ipcc_itd_test_suite = {
	.name		= "x86_ipcc_itd",
	.init		= itd_test_init,
	.test_cases	= ipcc_itd_test_cases,
};

kunit_test_suite(ipcc_itd_test_suite);

#endif /* _X86_KERNEL_CPU_IPCC_ITD_KUNIT_H */
