/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit tests of the parsers of the emulated hybrid CPU (ipcc_emu.c).
 *
 * Included at the end of ipcc_emu.c so that its static functions can be
 * tested. The parsers touch no global state, so the tests run whether or
 * not the emulation is on.
 */
#ifndef _X86_KERNEL_CPU_IPCC_EMU_KUNIT_H
#define _X86_KERNEL_CPU_IPCC_EMU_KUNIT_H

#include <kunit/test.h>

static int ipcc_emu_test_nr(const char *s, unsigned int *nr)
{
	return ipcc_emu_parse_nr_classes(s, strlen(s), nr);
}

static void ipcc_emu_test_nr_classes(struct kunit *test)
{
	static const char * const bad[] = {
		"", "\n", "0", "17", "-1", "+4", "0x4", " 4", "4 ", "4 4",
		"4\n\n", "4x", "4294967300", "18446744073709551620",
		"0000000000000000000000000000000000000000000000000000000000000004",
	};
	unsigned int nr = 99, i;

	KUNIT_EXPECT_EQ(test, ipcc_emu_test_nr("1", &nr), 0);
	KUNIT_EXPECT_EQ(test, nr, 1);
	KUNIT_EXPECT_EQ(test, ipcc_emu_test_nr("16\n", &nr), 0);
	KUNIT_EXPECT_EQ(test, nr, IPCC_MAX_CLASSES);
	KUNIT_EXPECT_EQ(test, ipcc_emu_test_nr("04", &nr), 0);
	KUNIT_EXPECT_EQ(test, nr, 4);

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		nr = 99;
		KUNIT_EXPECT_EQ_MSG(test, ipcc_emu_test_nr(bad[i], &nr),
				    -EINVAL, "input \"%s\"", bad[i]);
		KUNIT_EXPECT_EQ(test, nr, 99);
	}

	/* A NUL inside the written bytes. */
	KUNIT_EXPECT_EQ(test, ipcc_emu_parse_nr_classes("4\0", 2, &nr),
			-EINVAL);
}

static void ipcc_emu_test_score(struct kunit *test)
{
	static const char * const bad[] = {
		"", "P", "P 0 1", "P 0 1 1 1", "X 0 1 1", "p 0 1 1",
		"PE 0 1 1", "P 4 1 1", "P 16 1 1", "P -1 1 1", "P 0 256 1",
		"P 0 1 256", "P 0 -1 1", "P 0 +1 1", "P 0 0x1 1",
		"P 0 4294967551 1", " P 0 1 1", "P 0 1 1 ", "P 0 1 1\n\n",
	};
	struct ipcc_emu_score s = { 7, 7 };
	enum ipcc_emu_type type = IPCC_EMU_NR_TYPES;
	unsigned int class = 99, i;

	KUNIT_EXPECT_EQ(test, ipcc_emu_parse_score("E 3 0 255\n", 10, 4, &type,
						   &class, &s), 0);
	KUNIT_EXPECT_EQ(test, type, IPCC_EMU_E);
	KUNIT_EXPECT_EQ(test, class, 3);
	KUNIT_EXPECT_EQ(test, s.perf, 0);
	KUNIT_EXPECT_EQ(test, s.eff, 255);

	KUNIT_EXPECT_EQ(test, ipcc_emu_parse_score("P\t0  200 77", 11, 1,
						   &type, &class, &s), 0);
	KUNIT_EXPECT_EQ(test, type, IPCC_EMU_P);
	KUNIT_EXPECT_EQ(test, class, 0);
	KUNIT_EXPECT_EQ(test, s.perf, 200);
	KUNIT_EXPECT_EQ(test, s.eff, 77);

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		s = (struct ipcc_emu_score){ 7, 7 };
		KUNIT_EXPECT_EQ_MSG(test,
				    ipcc_emu_parse_score(bad[i], strlen(bad[i]),
							 4, &type, &class, &s),
				    -EINVAL, "input \"%s\"", bad[i]);
		KUNIT_EXPECT_EQ(test, s.perf, 7);
		KUNIT_EXPECT_EQ(test, s.eff, 7);
	}
}

static void ipcc_emu_test_task_class(struct kunit *test)
{
	static const char * const bad[] = {
		"", "1", "1 1 1", "0 1", "-1 1", "+1 1", "0x1 1", "1 4",
		"1 -2", "1 255", "1 4294967295", "1 +1", "1 0x1", " 1 1",
		"2147483648 1", "4294967297 1", "1 -1 ",
	};
	pid_t pid = 0;
	int class = 99;
	unsigned int i;

	KUNIT_EXPECT_EQ(test, ipcc_emu_parse_task_class("1 0", 3, 4, &pid,
							&class), 0);
	KUNIT_EXPECT_EQ(test, pid, 1);
	KUNIT_EXPECT_EQ(test, class, 0);

	KUNIT_EXPECT_EQ(test, ipcc_emu_parse_task_class("2147483647 -1\n", 14,
							4, &pid, &class), 0);
	KUNIT_EXPECT_EQ(test, pid, INT_MAX);
	KUNIT_EXPECT_EQ(test, class, -1);

	KUNIT_EXPECT_EQ(test, ipcc_emu_parse_task_class("42 15", 5, 16, &pid,
							&class), 0);
	KUNIT_EXPECT_EQ(test, class, 15);

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		pid = 0;
		class = 99;
		KUNIT_EXPECT_EQ_MSG(test,
				    ipcc_emu_parse_task_class(bad[i],
							      strlen(bad[i]),
							      4, &pid, &class),
				    -EINVAL, "input \"%s\"", bad[i]);
		KUNIT_EXPECT_EQ(test, pid, 0);
		KUNIT_EXPECT_EQ(test, class, 99);
	}
}

static void ipcc_emu_test_cpus(struct kunit *test)
{
	static const char * const bad[] = {
		"", "a", "0 1", " 0", "N", "0-N", "1-0", "0-", "-1", "0;1",
		",0", "0,", "0,,1",
	};
	cpumask_var_t mask;
	char big[16];
	unsigned int i;

	KUNIT_ASSERT_TRUE(test, alloc_cpumask_var(&mask, GFP_KERNEL));

	KUNIT_EXPECT_EQ(test, ipcc_emu_parse_cpus("0", mask), 0);
	KUNIT_EXPECT_TRUE(test, cpumask_equal(mask, cpumask_of(0)));

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, ipcc_emu_parse_cpus(bad[i], mask),
				    -EINVAL, "input \"%s\"", bad[i]);

	/* Beyond nr_cpu_ids. */
	snprintf(big, sizeof(big), "%u", nr_cpu_ids);
	KUNIT_EXPECT_EQ(test, ipcc_emu_parse_cpus(big, mask), -EINVAL);

	free_cpumask_var(mask);
}

/* Parse a copy of @s (the parser writes into it). */
static int ipcc_emu_test_profile(struct kunit *test, const char *s,
				 struct ipcc_emu_spec *spec,
				 struct cpumask *tmp)
{
	char *copy = kunit_kstrdup(test, s, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, copy);
	return ipcc_emu_parse_profile(copy, spec, tmp);
}

static void ipcc_emu_test_profiles(struct kunit *test)
{
	static const char * const bad[] = {
		"", "ADL", "adl ", "adl,lnl", "custom", "custom:",
		"custom:P=0", "custom:E=1", "custom:P=0,E=0",
		"custom:P=0,P=1,E=1", "custom:P=0,E=1,E=1",
		"custom:P=0,E=1,asym=other", "custom:P=0,E=1,asym=",
		"custom:P=0,E=1,asym=packing,asym=capacity",
		"custom:P=,E=1", "custom:P=0,,E=1", "custom:X=0,P=0,E=1",
		"custom:asym=packing,0,P=0,E=1", "custom:P=0 ,E=1",
		"custom:P=0,E=1,", "custom:p=0,e=1",
	};
	struct ipcc_emu_spec spec = { };
	cpumask_var_t p, e, tmp;
	unsigned int i;

	if (nr_cpu_ids < 2)
		kunit_skip(test, "needs 2 possible CPUs, has %u", nr_cpu_ids);

	KUNIT_ASSERT_TRUE(test, alloc_cpumask_var(&p, GFP_KERNEL));
	KUNIT_ASSERT_TRUE(test, alloc_cpumask_var(&e, GFP_KERNEL));
	KUNIT_ASSERT_TRUE(test, alloc_cpumask_var(&tmp, GFP_KERNEL));
	spec.pcpus = p;
	spec.ecpus = e;

	KUNIT_EXPECT_EQ(test, ipcc_emu_test_profile(test, "adl", &spec, tmp), 0);
	KUNIT_EXPECT_EQ(test, spec.profile, IPCC_EMU_ADL);
	KUNIT_EXPECT_EQ(test, spec.asym, IPCC_EMU_ASYM_PACKING);

	KUNIT_EXPECT_EQ(test, ipcc_emu_test_profile(test, "lnl", &spec, tmp), 0);
	KUNIT_EXPECT_EQ(test, spec.profile, IPCC_EMU_LNL);
	KUNIT_EXPECT_EQ(test, spec.asym, IPCC_EMU_ASYM_CAPACITY);

	KUNIT_EXPECT_EQ(test, ipcc_emu_test_profile(test, "custom:P=0,E=1",
						    &spec, tmp), 0);
	KUNIT_EXPECT_EQ(test, spec.profile, IPCC_EMU_CUSTOM);
	KUNIT_EXPECT_EQ(test, spec.asym, IPCC_EMU_ASYM_PACKING);
	KUNIT_EXPECT_TRUE(test, cpumask_equal(p, cpumask_of(0)));
	KUNIT_EXPECT_TRUE(test, cpumask_equal(e, cpumask_of(1)));

	KUNIT_EXPECT_EQ(test,
			ipcc_emu_test_profile(test,
					      "custom:asym=capacity,E=1,P=0",
					      &spec, tmp), 0);
	KUNIT_EXPECT_EQ(test, spec.asym, IPCC_EMU_ASYM_CAPACITY);
	KUNIT_EXPECT_TRUE(test, cpumask_equal(p, cpumask_of(0)));
	KUNIT_EXPECT_TRUE(test, cpumask_equal(e, cpumask_of(1)));

	/* A comma continues the list until the next field. */
	if (nr_cpu_ids >= 3) {
		KUNIT_EXPECT_EQ(test,
				ipcc_emu_test_profile(test, "custom:P=0,1,E=2",
						      &spec, tmp), 0);
		KUNIT_EXPECT_EQ(test, cpumask_weight(p), 2);
		KUNIT_EXPECT_TRUE(test, cpumask_test_cpu(0, p));
		KUNIT_EXPECT_TRUE(test, cpumask_test_cpu(1, p));
		KUNIT_EXPECT_TRUE(test, cpumask_equal(e, cpumask_of(2)));
	}

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		spec.profile = IPCC_EMU_OFF;
		KUNIT_EXPECT_EQ_MSG(test,
				    ipcc_emu_test_profile(test, bad[i], &spec,
							  tmp),
				    -EINVAL, "input \"%s\"", bad[i]);
		KUNIT_EXPECT_EQ(test, spec.profile, IPCC_EMU_OFF);
	}

	free_cpumask_var(tmp);
	free_cpumask_var(e);
	free_cpumask_var(p);
}

static struct kunit_case ipcc_emu_test_cases[] = {
	KUNIT_CASE(ipcc_emu_test_nr_classes),
	KUNIT_CASE(ipcc_emu_test_score),
	KUNIT_CASE(ipcc_emu_test_task_class),
	KUNIT_CASE(ipcc_emu_test_cpus),
	KUNIT_CASE(ipcc_emu_test_profiles),
	{}
};

static struct kunit_suite ipcc_emu_test_suite = {
	.name = "x86_ipcc_emu",
	.test_cases = ipcc_emu_test_cases,
};

kunit_test_suite(ipcc_emu_test_suite);

#endif /* _X86_KERNEL_CPU_IPCC_EMU_KUNIT_H */
