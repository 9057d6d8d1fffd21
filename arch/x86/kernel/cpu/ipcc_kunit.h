/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit tests of the dispatch between the x86 IPCC backends (ipcc.c).
 *
 * Included at the end of ipcc.c. Two fake backends are registered and
 * unregistered; the notification of the core is redirected to a counter,
 * and the fakes report no classes, so the core never switches IPCC on
 * while the test runs. The test skips when a real backend is registered.
 */
#ifndef _X86_KERNEL_CPU_IPCC_KUNIT_H
#define _X86_KERNEL_CPU_IPCC_KUNIT_H

#include <kunit/test.h>
#include <kunit/static_stub.h>

struct x86_ipcc_test_ctx {
	unsigned int	notified;
	unsigned int	nr_calls;
};

static struct x86_ipcc_test_ctx *x86_ipcc_test_ctx(void)
{
	struct kunit *test = kunit_get_current_test();

	return test ? test->priv : NULL;
}

static void x86_ipcc_test_notify(void)
{
	x86_ipcc_test_ctx()->notified++;
}

/* Also called by the core's work items, outside the test. */
static unsigned int x86_ipcc_test_nr(void)
{
	struct x86_ipcc_test_ctx *ctx = x86_ipcc_test_ctx();

	if (ctx)
		ctx->nr_calls++;
	return 0;
}

static int x86_ipcc_test_hw_class(struct task_struct *curr)
{
	return 1;
}

static int x86_ipcc_test_other_class(struct task_struct *curr)
{
	return 2;
}

static int x86_ipcc_test_hw_scores(int cpu, unsigned int class, u8 *perf,
				   u8 *eff)
{
	*perf = 11;
	*eff = 12;
	return 0;
}

static int x86_ipcc_test_other_scores(int cpu, unsigned int class,
				      u8 *perf, u8 *eff)
{
	*perf = 21;
	*eff = 22;
	return 0;
}

static const struct x86_ipcc_ops x86_ipcc_test_hw = {
	.name		= "test-hw",
	.nr_classes	= x86_ipcc_test_nr,
	.read_class	= x86_ipcc_test_hw_class,
	.get_scores	= x86_ipcc_test_hw_scores,
};

static const struct x86_ipcc_ops x86_ipcc_test_other = {
	.name		= "test-other",
	.nr_classes	= x86_ipcc_test_nr,
	.read_class	= x86_ipcc_test_other_class,
	.get_scores	= x86_ipcc_test_other_scores,
};

static int x86_ipcc_test_init(struct kunit *test)
{
	struct x86_ipcc_test_ctx *ctx;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	test->priv = ctx;

	kunit_activate_static_stub(test, x86_ipcc_notify_core,
				   x86_ipcc_test_notify);
	return 0;
}

static void x86_ipcc_test_exit(struct kunit *test)
{
	/* No-ops unless a failed expectation left a fake registered. */
	x86_ipcc_unregister(&x86_ipcc_test_other);
	x86_ipcc_unregister(&x86_ipcc_test_hw);
}

static void x86_ipcc_test_dispatch(struct kunit *test)
{
	struct x86_ipcc_test_ctx *ctx = test->priv;
	u8 perf = 0, eff = 0;

	if (rcu_access_pointer(x86_ipcc_cur))
		kunit_skip(test, "a backend is registered");

	/* Nothing registered: the generic answers. */
	KUNIT_EXPECT_EQ(test, arch_ipcc_read_class(current), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, arch_ipcc_nr_classes(), 0);
	KUNIT_EXPECT_EQ(test, arch_ipcc_get_scores(0, 0, &perf, &eff),
			-ENODATA);

	KUNIT_ASSERT_EQ(test, x86_ipcc_register(&x86_ipcc_test_hw), 0);
	KUNIT_EXPECT_EQ(test, ctx->notified, 1);
	KUNIT_EXPECT_EQ(test, arch_ipcc_read_class(current), 1);
	KUNIT_EXPECT_EQ(test, arch_ipcc_get_scores(0, 0, &perf, &eff), 0);
	KUNIT_EXPECT_EQ(test, perf, 11);
	KUNIT_EXPECT_EQ(test, eff, 12);
	ctx->nr_calls = 0;
	KUNIT_EXPECT_EQ(test, arch_ipcc_nr_classes(), 0);
	KUNIT_EXPECT_EQ(test, ctx->nr_calls, 1);

	/* Registering twice, or a second backend, is refused. */
	KUNIT_EXPECT_EQ(test, x86_ipcc_register(&x86_ipcc_test_hw), -EBUSY);
	KUNIT_EXPECT_EQ(test, x86_ipcc_register(&x86_ipcc_test_other), -EBUSY);
	KUNIT_EXPECT_EQ(test, ctx->notified, 1);
	KUNIT_EXPECT_EQ(test, arch_ipcc_read_class(current), 1);

	/* Unregistering another backend changes nothing. */
	x86_ipcc_unregister(&x86_ipcc_test_other);
	KUNIT_EXPECT_EQ(test, ctx->notified, 1);
	KUNIT_EXPECT_EQ(test, arch_ipcc_read_class(current), 1);

	/* Unregistered: class reads stop, the core is told. */
	x86_ipcc_unregister(&x86_ipcc_test_hw);
	KUNIT_EXPECT_EQ(test, ctx->notified, 2);
	KUNIT_EXPECT_EQ(test, arch_ipcc_read_class(current), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, arch_ipcc_nr_classes(), 0);
	KUNIT_EXPECT_EQ(test, arch_ipcc_get_scores(0, 0, &perf, &eff),
			-ENODATA);

	/* Then another backend may come. */
	KUNIT_ASSERT_EQ(test, x86_ipcc_register(&x86_ipcc_test_other), 0);
	KUNIT_EXPECT_EQ(test, arch_ipcc_read_class(current), 2);
	KUNIT_EXPECT_EQ(test, arch_ipcc_get_scores(0, 0, &perf, &eff), 0);
	KUNIT_EXPECT_EQ(test, perf, 21);
	KUNIT_EXPECT_EQ(test, eff, 22);
	x86_ipcc_unregister(&x86_ipcc_test_other);
	KUNIT_EXPECT_EQ(test, ctx->notified, 4);
	KUNIT_EXPECT_EQ(test, arch_ipcc_read_class(current), -EOPNOTSUPP);
}

static struct kunit_case x86_ipcc_test_cases[] = {
	KUNIT_CASE(x86_ipcc_test_dispatch),
	{}
};

static struct kunit_suite x86_ipcc_test_suite = {
	.name		= "x86_ipcc",
	.init		= x86_ipcc_test_init,
	.exit		= x86_ipcc_test_exit,
	.test_cases	= x86_ipcc_test_cases,
};

kunit_test_suite(x86_ipcc_test_suite);

#endif /* _X86_KERNEL_CPU_IPCC_KUNIT_H */
