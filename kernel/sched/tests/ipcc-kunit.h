/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit tests of the pure decision functions of kernel/sched/ipcc.c.
 *
 * Included at the end of ipcc.c so that its static functions can be
 * tested; run with:
 *
 *   ./tools/testing/kunit/kunit.py run --kunitconfig=kernel/sched
 */
#ifndef _KERNEL_SCHED_IPCC_KUNIT_H
#define _KERNEL_SCHED_IPCC_KUNIT_H

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/kthread.h>

/* The gain of @class from @src_cpu to @dst_cpu, no SMT sibling busy. */
static int ipcc_test_table_gain(const struct ipcc_score_table *t, int class,
				int src_cpu, int dst_cpu)
{
	return ipcc_table_gain_smt(t, class, src_cpu, dst_cpu, false, false);
}

static void ipcc_test_init_state(struct sched_ipcc_task *st)
{
	*st = (struct sched_ipcc_task)SCHED_IPCC_TASK_INIT;
}

/* Feed @n readings of @read; return how many of them changed the class. */
static int ipcc_test_feed(struct sched_ipcc_task *st, int read, int n,
			  unsigned int k)
{
	int changes = 0;

	while (n--)
		changes += ipcc_debounce(st, read, k);

	return changes;
}

static void ipcc_test_debounce_k1(struct kunit *test)
{
	struct sched_ipcc_task st;

	ipcc_test_init_state(&st);

	KUNIT_EXPECT_TRUE(test, ipcc_debounce(&st, 2, 1));
	KUNIT_EXPECT_EQ(test, st.class, 2);
	KUNIT_EXPECT_EQ(test, st.cnt, 0);

	/* The same class again is no change. */
	KUNIT_EXPECT_FALSE(test, ipcc_debounce(&st, 2, 1));
	KUNIT_EXPECT_EQ(test, st.class, 2);

	KUNIT_EXPECT_TRUE(test, ipcc_debounce(&st, 0, 1));
	KUNIT_EXPECT_EQ(test, st.class, 0);

	/* Class 0 is a real class, distinct from "unclassified". */
	KUNIT_EXPECT_NE(test, st.class, IPCC_CLASS_NONE);
}

static void ipcc_test_debounce_k4(struct kunit *test)
{
	struct sched_ipcc_task st;

	ipcc_test_init_state(&st);

	KUNIT_EXPECT_EQ(test, ipcc_test_feed(&st, 1, 3, 4), 0);
	KUNIT_EXPECT_EQ(test, st.class, IPCC_CLASS_NONE);
	KUNIT_EXPECT_EQ(test, st.cand, 1);
	KUNIT_EXPECT_EQ(test, st.cnt, 3);

	KUNIT_EXPECT_TRUE(test, ipcc_debounce(&st, 1, 4));
	KUNIT_EXPECT_EQ(test, st.class, 1);
	KUNIT_EXPECT_EQ(test, st.cnt, 0);

	/* Exactly k more readings of another class are needed. */
	KUNIT_EXPECT_EQ(test, ipcc_test_feed(&st, 3, 3, 4), 0);
	KUNIT_EXPECT_EQ(test, st.class, 1);
	KUNIT_EXPECT_TRUE(test, ipcc_debounce(&st, 3, 4));
	KUNIT_EXPECT_EQ(test, st.class, 3);
}

static void ipcc_test_debounce_interrupted(struct kunit *test)
{
	struct sched_ipcc_task st;

	ipcc_test_init_state(&st);

	/* 1 1 1 2: the run of 1s is broken, 2 becomes the candidate. */
	KUNIT_EXPECT_EQ(test, ipcc_test_feed(&st, 1, 3, 4), 0);
	KUNIT_EXPECT_FALSE(test, ipcc_debounce(&st, 2, 4));
	KUNIT_EXPECT_EQ(test, st.cand, 2);
	KUNIT_EXPECT_EQ(test, st.cnt, 1);

	/* 1 1 1: starts counting again from one. */
	KUNIT_EXPECT_EQ(test, ipcc_test_feed(&st, 1, 3, 4), 0);
	KUNIT_EXPECT_EQ(test, st.class, IPCC_CLASS_NONE);
	KUNIT_EXPECT_EQ(test, st.cnt, 3);

	/* The fourth consecutive 1 is accepted. */
	KUNIT_EXPECT_TRUE(test, ipcc_debounce(&st, 1, 4));
	KUNIT_EXPECT_EQ(test, st.class, 1);

	/* Alternating readings never settle. */
	ipcc_test_init_state(&st);
	KUNIT_EXPECT_EQ(test, ipcc_test_feed(&st, 1, 2, 2) +
			      ipcc_test_feed(&st, 2, 1, 2), 1);
	KUNIT_EXPECT_EQ(test, st.class, 1);
	ipcc_test_init_state(&st);
	KUNIT_EXPECT_FALSE(test, ipcc_debounce(&st, 1, 2));
	KUNIT_EXPECT_FALSE(test, ipcc_debounce(&st, 2, 2));
	KUNIT_EXPECT_FALSE(test, ipcc_debounce(&st, 1, 2));
	KUNIT_EXPECT_FALSE(test, ipcc_debounce(&st, 2, 2));
	KUNIT_EXPECT_EQ(test, st.class, IPCC_CLASS_NONE);
}

static void ipcc_test_debounce_invalid(struct kunit *test)
{
	struct sched_ipcc_task st;

	ipcc_test_init_state(&st);

	/* Invalid readings alone never classify a task. */
	KUNIT_EXPECT_EQ(test, ipcc_test_feed(&st, -ENODATA, 10, 1), 0);
	KUNIT_EXPECT_EQ(test, st.class, IPCC_CLASS_NONE);
	KUNIT_EXPECT_EQ(test, st.cnt, 0);

	/* 1 1 1 <invalid> 1: the invalid reading resets the candidate. */
	KUNIT_EXPECT_EQ(test, ipcc_test_feed(&st, 1, 3, 4), 0);
	KUNIT_EXPECT_FALSE(test, ipcc_debounce(&st, -ERANGE, 4));
	KUNIT_EXPECT_EQ(test, st.cnt, 0);
	KUNIT_EXPECT_FALSE(test, ipcc_debounce(&st, 1, 4));
	KUNIT_EXPECT_EQ(test, st.class, IPCC_CLASS_NONE);
	KUNIT_EXPECT_EQ(test, st.cnt, 1);
	KUNIT_EXPECT_EQ(test, ipcc_test_feed(&st, 1, 3, 4), 1);
	KUNIT_EXPECT_EQ(test, st.class, 1);

	/* An invalid reading keeps the current class. */
	KUNIT_EXPECT_FALSE(test, ipcc_debounce(&st, -EINVAL, 1));
	KUNIT_EXPECT_EQ(test, st.class, 1);
}

static void ipcc_test_debounce_beyond_cap(struct kunit *test)
{
	struct sched_ipcc_task st;

	ipcc_test_init_state(&st);
	KUNIT_EXPECT_TRUE(test, ipcc_debounce(&st, 3, 1));

	/* Classes the core does not track debounce to "unclassified". */
	KUNIT_EXPECT_EQ(test, ipcc_test_feed(&st, IPCC_MAX_CLASSES, 3, 4), 0);
	KUNIT_EXPECT_EQ(test, st.class, 3);
	KUNIT_EXPECT_TRUE(test, ipcc_debounce(&st, IPCC_MAX_CLASSES + 4, 4));
	KUNIT_EXPECT_EQ(test, st.class, IPCC_CLASS_NONE);

	/* ... and once unclassified, more of them change nothing. */
	KUNIT_EXPECT_EQ(test, ipcc_test_feed(&st, IPCC_MAX_CLASSES, 8, 1), 0);
	KUNIT_EXPECT_EQ(test, st.class, IPCC_CLASS_NONE);
}

static void ipcc_test_debounce_overridden(struct kunit *test)
{
	struct sched_ipcc_task st;

	ipcc_test_init_state(&st);
	ipcc_task_pin(&st, 2);

	KUNIT_EXPECT_EQ(test, ipcc_test_feed(&st, 3, 10, 1), 0);
	KUNIT_EXPECT_EQ(test, ipcc_test_feed(&st, -ENODATA, 3, 1), 0);
	KUNIT_EXPECT_EQ(test, ipcc_test_feed(&st, IPCC_MAX_CLASSES, 3, 1), 0);
	KUNIT_EXPECT_EQ(test, st.class, 2);
	KUNIT_EXPECT_EQ(test, st.cnt, 0);
	KUNIT_EXPECT_TRUE(test, st.flags & IPCC_TASK_OVERRIDDEN);
}

static void ipcc_test_debounce_current_resets(struct kunit *test)
{
	struct sched_ipcc_task st;

	ipcc_test_init_state(&st);
	KUNIT_EXPECT_TRUE(test, ipcc_debounce(&st, 1, 1));

	/* 2 2 2 then the current class 1: the candidate is dropped. */
	KUNIT_EXPECT_EQ(test, ipcc_test_feed(&st, 2, 3, 4), 0);
	KUNIT_EXPECT_EQ(test, st.cnt, 3);
	KUNIT_EXPECT_FALSE(test, ipcc_debounce(&st, 1, 4));
	KUNIT_EXPECT_EQ(test, st.cnt, 0);
	KUNIT_EXPECT_EQ(test, st.cand, IPCC_CLASS_NONE);

	/* So 2 needs four fresh readings again. */
	KUNIT_EXPECT_EQ(test, ipcc_test_feed(&st, 2, 3, 4), 0);
	KUNIT_EXPECT_EQ(test, st.class, 1);
	KUNIT_EXPECT_TRUE(test, ipcc_debounce(&st, 2, 4));
	KUNIT_EXPECT_EQ(test, st.class, 2);
}

static void ipcc_test_fork_exec(struct kunit *test)
{
	struct sched_ipcc_task st;

	/* exec of a classified task: back to unclassified. */
	ipcc_test_init_state(&st);
	KUNIT_EXPECT_TRUE(test, ipcc_debounce(&st, 1, 1));
	KUNIT_EXPECT_FALSE(test, ipcc_debounce(&st, 2, 4));
	ipcc_task_exec(&st);
	KUNIT_EXPECT_EQ(test, st.class, IPCC_CLASS_NONE);
	KUNIT_EXPECT_EQ(test, st.cnt, 0);
	KUNIT_EXPECT_EQ(test, st.flags, 0);

	/* exec of an overridden task: the override survives. */
	ipcc_task_pin(&st, 3);
	ipcc_task_exec(&st);
	KUNIT_EXPECT_EQ(test, st.class, 3);
	KUNIT_EXPECT_TRUE(test, st.flags & IPCC_TASK_OVERRIDDEN);

	/* fork (a copy of the overridden parent): not inherited. */
	ipcc_task_init(&st);
	KUNIT_EXPECT_EQ(test, st.class, IPCC_CLASS_NONE);
	KUNIT_EXPECT_EQ(test, st.cand, IPCC_CLASS_NONE);
	KUNIT_EXPECT_EQ(test, st.cnt, 0);
	KUNIT_EXPECT_EQ(test, st.flags, 0);
}

/*
 * A P-core (CPU 0) and an E-core (CPU 1) with three classes, the adl-hw
 * profile's default table normalised: every class scores 253 on the
 * P-core; class 0 scores 165 on the E-core, class 1 133, class 2 104.
 */
static struct ipcc_score_table *ipcc_test_pe_table(struct kunit *test)
{
	static const u16 e_perf[] = { 165, 133, 104 };
	struct ipcc_score_table *t;
	int c;

	t = kunit_kzalloc(test, struct_size(t, cells, 6), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);

	t->nr_cells = 6;
	t->nr_classes = 3;
	t->nr_cpus = 2;
	memset(t->best_perf, 0xff, sizeof(t->best_perf));
	for (c = 0; c < 3; c++) {
		t->cells[c] = (struct ipcc_cell){ .perf = 253, .eff = 188,
						  .bigger = IPCC_CELL_UNKNOWN };
		t->cells[3 + c] = (struct ipcc_cell){ .perf = e_perf[c],
						      .eff = 600,
						      .bigger = 253 };
		t->best_perf[c] = 253;
	}

	return t;
}

/* Feed @n readings alternating between @a and @b into debounce and mix. */
static void ipcc_test_feed_both(struct sched_ipcc_task *st, int a, int b,
				int n, unsigned int k)
{
	int i;

	for (i = 0; i < n; i++)
		ipcc_classify(st, i & 1 ? b : a, k);
}

/*
 * A vector task whose class flaps between 1 and 0 (Raptor Lake: about 50
 * times a second) now and then debounces to 0 with class 0 at three
 * quarters of its mix, and by its class it is then a scalar task. A turn
 * (ipcc_rotate_candidate()) must cost the task on the P-core nothing by
 * its whole mix either: a scalar task lagging on an E-core does not take
 * the P-core from it, while it may take one from the scalar task. A task
 * that classifies cleanly, but for an odd misreading, gives up its P-core
 * to a task of its class as before.
 */
static void ipcc_test_mix_rotation_turn(struct kunit *test)
{
	struct ipcc_score_table *t = ipcc_test_pe_table(test);
	struct sched_ipcc_task vec, scalar, dot, dot2;
	int thr = IPCC_SWAP_THRESHOLD_DEFAULT, g_vec;
	u64 now = 100 * NSEC_PER_MSEC, rl = NSEC_PER_MSEC;
	unsigned int lag = 1000;
	int i;

	ipcc_test_init_state(&vec);
	ipcc_test_init_state(&scalar);
	ipcc_test_feed_both(&vec, 1, 0, 64, 4);
	ipcc_test_feed_both(&scalar, 0, 0, 64, 4);
	for (i = 0; i < 4; i++)
		ipcc_classify(&vec, 1, 4);
	for (i = 0; i < 8; i++)
		ipcc_classify(&vec, 0, 4);
	KUNIT_EXPECT_EQ(test, vec.class, 0);
	KUNIT_EXPECT_GT(test, vec.mix[1], 0);
	KUNIT_EXPECT_GE(test, 4 * vec.mix[0], 3 * ipcc_mix_total(&vec));

	/* By its class, the vector task is a scalar one: a turn is free. */
	KUNIT_EXPECT_EQ(test, ipcc_table_task_gain(t, &vec, 0, 1, false, false),
			-88);
	KUNIT_EXPECT_EQ(test, ipcc_rotate_candidate(88, -88, lag, 0, thr, now,
						    0, rl, false),
			IPCC_LOOK_FOUND);

	/* By its whole mix it loses more, and keeps its P-core. */
	g_vec = ipcc_table_turn_gain(t, &vec, 0, 1, false, false);
	KUNIT_EXPECT_LT(test, g_vec, -88);
	KUNIT_EXPECT_GT(test, g_vec, -120);
	KUNIT_EXPECT_EQ(test, ipcc_rotate_candidate(88, g_vec, lag, 0, thr,
						    now, 0, rl, false),
			IPCC_LOOK_NONE);
	/* The other way round, the scalar task loses what it gains. */
	KUNIT_EXPECT_EQ(test, ipcc_table_turn_gain(t, &scalar, 0, 1, false,
						   false), -88);
	KUNIT_EXPECT_EQ(test,
			ipcc_rotate_candidate(ipcc_table_task_gain(t, &vec, 1,
								   0, false,
								   false),
					      -88, lag, 0, thr, now, 0, rl,
					      false),
			IPCC_LOOK_FOUND);

	/*
	 * Two dot-product tasks (class 2), one with a misreading of class 0
	 * two readings back: each goes by its class, and the turn is free
	 * both ways.
	 */
	ipcc_test_init_state(&dot);
	ipcc_test_init_state(&dot2);
	ipcc_test_feed_both(&dot, 2, 2, 64, 4);
	ipcc_test_feed_both(&dot2, 2, 2, 64, 4);
	ipcc_classify(&dot2, 0, 4);
	ipcc_classify(&dot2, 2, 4);
	KUNIT_EXPECT_LT(test, ipcc_table_mix_gain(t, &dot2, 1, 0, false, false,
						  true), 149);
	KUNIT_EXPECT_EQ(test, ipcc_table_turn_gain(t, &dot2, 0, 1, false,
						   false), -149);
	KUNIT_EXPECT_EQ(test,
			ipcc_rotate_candidate(ipcc_table_task_gain(t, &dot2, 1,
								   0, false,
								   false),
					      ipcc_table_turn_gain(t, &dot, 0,
								   1, false,
								   false),
					      lag, 0, thr, now, 0, rl, false),
			IPCC_LOOK_FOUND);
	KUNIT_EXPECT_EQ(test,
			ipcc_rotate_candidate(ipcc_table_task_gain(t, &dot, 1,
								   0, false,
								   false),
					      ipcc_table_turn_gain(t, &dot2, 0,
								   1, false,
								   false),
					      lag, 0, thr, now, 0, rl, false),
			IPCC_LOOK_FOUND);
}

/*
 * A dot-product task whose class the hardware flaps between 2 and 0 on
 * every reading (Raptor Lake: about 470 flips a second) never debounces
 * to a class, yet must rank above a scalar task (always 0) and below a
 * task that really reads 2, as its true speed does.
 */
static void ipcc_test_mix_flapping(struct kunit *test)
{
	struct ipcc_score_table *t = ipcc_test_pe_table(test);
	struct sched_ipcc_task dot, scalar, steady;
	int g_dot, g_scalar, g_steady;

	ipcc_test_init_state(&dot);
	ipcc_test_init_state(&scalar);
	ipcc_test_init_state(&steady);

	ipcc_test_feed_both(&dot, 2, 0, 64, 4);
	ipcc_test_feed_both(&scalar, 0, 0, 64, 4);
	ipcc_test_feed_both(&steady, 2, 2, 64, 4);

	KUNIT_EXPECT_EQ(test, dot.class, IPCC_CLASS_NONE);
	KUNIT_EXPECT_TRUE(test, ipcc_task_known(&dot));
	KUNIT_EXPECT_EQ(test, scalar.class, 0);
	KUNIT_EXPECT_EQ(test, steady.class, 2);

	/* Half each, within one reading's share. */
	KUNIT_EXPECT_LE(test, abs((int)dot.mix[2] - (int)dot.mix[0]),
			IPCC_MIX_ONE >> ipcc_mix_shift(4));

	/* E-core to P-core: 88 for class 0, 149 for class 2. */
	g_dot = ipcc_table_task_gain(t, &dot, 1, 0, false, false);
	g_scalar = ipcc_table_task_gain(t, &scalar, 1, 0, false, false);
	g_steady = ipcc_table_task_gain(t, &steady, 1, 0, false, false);
	KUNIT_EXPECT_EQ(test, g_scalar, 88);
	KUNIT_EXPECT_EQ(test, g_steady, 149);
	KUNIT_EXPECT_GE(test, g_dot, 88 + (149 - 88) / 4);
	KUNIT_EXPECT_LE(test, g_dot, 149 - (149 - 88) / 4);
	/* The way back loses as much. */
	KUNIT_EXPECT_EQ(test, ipcc_table_task_gain(t, &dot, 0, 1, false, false),
			-g_dot);

	/* Headroom and scores follow the same weights. */
	KUNIT_EXPECT_EQ(test, ipcc_table_task_headroom(t, &dot, 1), g_dot);
	KUNIT_EXPECT_EQ(test, ipcc_table_task_headroom(t, &dot, 0), 0);
	KUNIT_EXPECT_EQ(test, ipcc_table_task_perf(t, &dot, 1, false),
			253 - g_dot);
	KUNIT_EXPECT_EQ(test, ipcc_table_task_perf(t, &dot, 1, true), 253);
	KUNIT_EXPECT_EQ(test, ipcc_table_task_perf(t, &dot, 0, true), -1);
	KUNIT_EXPECT_EQ(test, ipcc_table_task_perf(t, &scalar, 1, false), 165);

	/* SMT: the P-core thread's score is scaled, as for one class. */
	KUNIT_EXPECT_EQ(test, ipcc_table_task_gain(t, &scalar, 1, 0, false, true),
			ipcc_table_gain_smt(t, 0, 1, 0, false, true));
}

static void ipcc_test_mix_rules(struct kunit *test)
{
	struct ipcc_score_table *t = ipcc_test_pe_table(test);
	struct sched_ipcc_task st;
	u16 before[IPCC_MIX_CLASSES];
	int i;

	KUNIT_EXPECT_EQ(test, ipcc_mix_shift(1), 1);
	KUNIT_EXPECT_EQ(test, ipcc_mix_shift(4), 3);
	KUNIT_EXPECT_EQ(test, ipcc_mix_shift(32), 6);
	KUNIT_EXPECT_EQ(test, ipcc_mix_shift(U8_MAX), 9);

	/* Unknown until the first valid reading; then known. */
	ipcc_test_init_state(&st);
	KUNIT_EXPECT_FALSE(test, ipcc_task_known(&st));
	KUNIT_EXPECT_EQ(test, ipcc_table_task_gain(t, &st, 1, 0, false, false),
			0);
	KUNIT_EXPECT_EQ(test, ipcc_table_task_perf(t, &st, 1, false), -1);
	ipcc_mix_add(&st, -EAGAIN, 3);
	KUNIT_EXPECT_FALSE(test, ipcc_task_known(&st));
	ipcc_mix_add(&st, 1, 3);
	KUNIT_EXPECT_TRUE(test, ipcc_task_known(&st));
	KUNIT_EXPECT_EQ(test, ipcc_table_task_gain(t, &st, 1, 0, false, false),
			120);

	/* A phase change outweighs the old class after 6 readings, not 5. */
	for (i = 0; i < 64; i++)
		ipcc_mix_add(&st, 2, 3);
	for (i = 0; i < 5; i++)
		ipcc_mix_add(&st, 1, 3);
	KUNIT_EXPECT_LT(test, st.mix[1], st.mix[2]);
	ipcc_mix_add(&st, 1, 3);
	KUNIT_EXPECT_GT(test, st.mix[1], st.mix[2]);

	/* The total stays at about IPCC_MIX_ONE, whatever is read. */
	for (i = 0; i < 1000; i++)
		ipcc_mix_add(&st, (i * 7) % IPCC_MIX_CLASSES, 3);
	KUNIT_EXPECT_LE(test, ipcc_mix_total(&st),
			IPCC_MIX_ONE + IPCC_MIX_CLASSES * 8);
	KUNIT_EXPECT_GE(test, ipcc_mix_total(&st),
			IPCC_MIX_ONE - IPCC_MIX_CLASSES * 8);

	/*
	 * A debounced class holding 3/4 of the mix rules alone (odd
	 * misreadings are the debounce's to filter); below that, the mix.
	 */
	ipcc_test_init_state(&st);
	ipcc_test_feed_both(&st, 2, 2, 64, 4);
	KUNIT_EXPECT_EQ(test, st.class, 2);
	ipcc_mix_add(&st, 0, 3);
	ipcc_mix_add(&st, 0, 3);
	KUNIT_EXPECT_EQ(test, ipcc_table_task_gain(t, &st, 1, 0, false, false),
			149);
	ipcc_mix_add(&st, 0, 3);
	KUNIT_EXPECT_LT(test, ipcc_table_task_gain(t, &st, 1, 0, false, false),
			149);
	KUNIT_EXPECT_GT(test, ipcc_table_task_gain(t, &st, 1, 0, false, false),
			88);

	/* Invalid readings change nothing. */
	memcpy(before, st.mix, sizeof(before));
	ipcc_mix_add(&st, -ERANGE, 3);
	KUNIT_EXPECT_EQ(test, memcmp(before, st.mix, sizeof(before)), 0);

	/* A class the mix does not track empties it. */
	ipcc_mix_add(&st, IPCC_MIX_CLASSES, 3);
	KUNIT_EXPECT_EQ(test, ipcc_mix_total(&st), 0);

	/* An override empties it and the task goes by its class alone. */
	ipcc_mix_add(&st, 2, 3);
	ipcc_task_pin(&st, 0);
	KUNIT_EXPECT_EQ(test, ipcc_mix_total(&st), 0);
	ipcc_mix_add(&st, 2, 3);
	KUNIT_EXPECT_EQ(test, ipcc_mix_total(&st), 0);
	KUNIT_EXPECT_EQ(test, ipcc_table_task_gain(t, &st, 1, 0, false, false),
			88);

	/* exec and fork empty it too. */
	ipcc_test_init_state(&st);
	ipcc_mix_add(&st, 2, 3);
	ipcc_task_exec(&st);
	KUNIT_EXPECT_EQ(test, ipcc_mix_total(&st), 0);
	ipcc_mix_add(&st, 2, 3);
	ipcc_task_init(&st);
	KUNIT_EXPECT_EQ(test, ipcc_mix_total(&st), 0);
}

/*
 * A task that read class 0 for long and then reads class 2 changed phase:
 * once the debounce believes the new class, the task goes by it alone,
 * as it did before the mix existed. A task whose class flaps in runs
 * long enough to pass the debounce keeps its mix: the classes it flaps
 * between are never new to it.
 */
static void ipcc_test_mix_phase_change(struct kunit *test)
{
	struct ipcc_score_table *t = ipcc_test_pe_table(test);
	struct sched_ipcc_task st;
	int i, gain;

	ipcc_test_init_state(&st);
	ipcc_test_feed_both(&st, 0, 0, 64, 4);
	ipcc_test_feed_both(&st, 2, 2, 3, 4);
	KUNIT_EXPECT_EQ(test, st.class, 0);
	KUNIT_EXPECT_TRUE(test, ipcc_classify(&st, 2, 4));
	KUNIT_EXPECT_EQ(test, st.class, 2);
	KUNIT_EXPECT_EQ(test, ipcc_mix_total(&st), st.mix[2]);
	KUNIT_EXPECT_EQ(test, ipcc_table_task_gain(t, &st, 1, 0, false, false),
			149);

	/*
	 * The phase need not have been pure: a misreading of class 1 three
	 * readings before leaves class 0 with less than fifteen sixteenths
	 * of the mix, and class 2 is still new to it.
	 */
	ipcc_test_init_state(&st);
	ipcc_test_feed_both(&st, 0, 0, 60, 4);
	ipcc_classify(&st, 1, 4);
	ipcc_test_feed_both(&st, 0, 0, 3, 4);
	KUNIT_EXPECT_LT(test, 16 * st.mix[0], 15 * IPCC_MIX_ONE);
	ipcc_test_feed_both(&st, 2, 2, 4, 4);
	KUNIT_EXPECT_EQ(test, st.class, 2);
	KUNIT_EXPECT_EQ(test, ipcc_table_task_gain(t, &st, 1, 0, false, false),
			149);

	/*
	 * A class the phase already held a sixteenth of (one reading, three
	 * readings back) is no change of phase: the mix stays...
	 */
	ipcc_test_init_state(&st);
	ipcc_test_feed_both(&st, 0, 0, 64, 4);
	ipcc_classify(&st, 2, 4);
	ipcc_test_feed_both(&st, 0, 0, 3, 4);
	ipcc_test_feed_both(&st, 2, 2, 4, 4);
	KUNIT_EXPECT_EQ(test, st.class, 2);
	gain = ipcc_table_task_gain(t, &st, 1, 0, false, false);
	KUNIT_EXPECT_GT(test, gain, 88);
	KUNIT_EXPECT_LT(test, gain, 149);

	/* ...nor is a change in a young mix (5 readings since fork). */
	ipcc_test_init_state(&st);
	ipcc_test_feed_both(&st, 0, 0, 5, 4);
	KUNIT_EXPECT_EQ(test, st.class, 0);
	ipcc_test_feed_both(&st, 2, 2, 4, 4);
	KUNIT_EXPECT_EQ(test, st.class, 2);
	gain = ipcc_table_task_gain(t, &st, 1, 0, false, false);
	KUNIT_EXPECT_GT(test, gain, 88);
	KUNIT_EXPECT_LT(test, gain, 149);

	/*
	 * Runs of five: each passes the debounce, none empties the mix, and
	 * the gain stays between the two classes' (about 128 at the end of
	 * a run of class 2).
	 */
	ipcc_test_init_state(&st);
	ipcc_test_feed_both(&st, 0, 0, 64, 4);
	for (i = 0; i < 10; i++) {
		ipcc_test_feed_both(&st, 2, 2, 5, 4);
		KUNIT_EXPECT_EQ(test, st.class, 2);
		ipcc_test_feed_both(&st, 0, 0, 5, 4);
		KUNIT_EXPECT_EQ(test, st.class, 0);
	}
	ipcc_test_feed_both(&st, 2, 2, 5, 4);
	gain = ipcc_table_task_gain(t, &st, 1, 0, false, false);
	KUNIT_EXPECT_GE(test, gain, 88 + (149 - 88) / 4);
	KUNIT_EXPECT_LE(test, gain, 149 - (149 - 88) / 4);
}

static void ipcc_test_norm_score(struct kunit *test)
{
	unsigned int raw;

	KUNIT_EXPECT_EQ(test, ipcc_norm_score(0), 0);
	KUNIT_EXPECT_EQ(test, ipcc_norm_score(255), IPCC_SCORE_SCALE);
	KUNIT_EXPECT_EQ(test, ipcc_norm_score(1), 4);		/* 4.02 */
	KUNIT_EXPECT_EQ(test, ipcc_norm_score(128), 514);	/* 514.01 */
	KUNIT_EXPECT_EQ(test, ipcc_norm_score(127), 510);	/* 509.99 */
	/* Rounded to nearest, not truncated. */
	KUNIT_EXPECT_EQ(test, ipcc_norm_score(63), 253);	/* 252.99 */
	KUNIT_EXPECT_EQ(test, ipcc_norm_score(191), 767);	/* 766.99 */

	/* Strictly increasing and within the scale. */
	for (raw = 1; raw <= IPCC_RAW_SCORE_MAX; raw++) {
		KUNIT_EXPECT_GT(test, ipcc_norm_score(raw),
				ipcc_norm_score(raw - 1));
		KUNIT_EXPECT_LE(test, ipcc_norm_score(raw), IPCC_SCORE_SCALE);
	}
}

/* Two CPUs, two classes: CPU 1 is better for class 0, worse for 1. */
static struct ipcc_score_table *ipcc_test_table(struct kunit *test)
{
	struct ipcc_score_table *t;

	t = kunit_kzalloc(test, struct_size(t, cells, 4), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);

	t->nr_cells = 4;
	t->nr_classes = 2;
	t->nr_cpus = 2;
	t->cells[0] = (struct ipcc_cell){ .perf = 300, .eff = 900 };
	t->cells[1] = (struct ipcc_cell){ .perf = 600, .eff = 800 };
	t->cells[2] = (struct ipcc_cell){ .perf = 1000, .eff = 400 };
	t->cells[3] = (struct ipcc_cell){ .perf = IPCC_CELL_UNKNOWN,
					  .eff = IPCC_CELL_UNKNOWN };
	memset(t->best_perf, 0xff, sizeof(t->best_perf));
	t->best_perf[0] = 1000;
	t->best_perf[1] = 600;

	return t;
}

static void ipcc_test_unclassified_neutral(struct kunit *test)
{
	struct ipcc_score_table *t = ipcc_test_table(test);
	int cpu;

	for (cpu = 0; cpu < 2; cpu++) {
		KUNIT_EXPECT_EQ(test,
				ipcc_table_score(t, cpu, IPCC_CLASS_NONE, false),
				IPCC_SCORE_NEUTRAL);
		KUNIT_EXPECT_EQ(test,
				ipcc_table_score(t, cpu, IPCC_CLASS_NONE, true),
				IPCC_SCORE_NEUTRAL);
		KUNIT_EXPECT_EQ(test, ipcc_table_score(t, cpu, -1, false),
				IPCC_SCORE_NEUTRAL);
		/* A class without scores. */
		KUNIT_EXPECT_EQ(test, ipcc_table_score(t, cpu, 2, false),
				IPCC_SCORE_NEUTRAL);
	}

	/* No gain anywhere for an unclassified task. */
	KUNIT_EXPECT_EQ(test, ipcc_test_table_gain(t, IPCC_CLASS_NONE, 0, 1),
			0);
	KUNIT_EXPECT_EQ(test, ipcc_test_table_gain(t, -1, 1, 0), 0);

	/* Unknown pairs, CPUs and tables are neutral too. */
	KUNIT_EXPECT_EQ(test, ipcc_table_score(t, 1, 1, false),
			IPCC_SCORE_NEUTRAL);
	KUNIT_EXPECT_EQ(test, ipcc_test_table_gain(t, 1, 0, 1), 0);
	KUNIT_EXPECT_EQ(test, ipcc_table_score(t, 2, 0, false),
			IPCC_SCORE_NEUTRAL);
	KUNIT_EXPECT_EQ(test, ipcc_table_score(t, -1, 0, false),
			IPCC_SCORE_NEUTRAL);
	KUNIT_EXPECT_EQ(test, ipcc_test_table_gain(t, 0, 0, 2), 0);
	KUNIT_EXPECT_EQ(test, ipcc_table_score(NULL, 0, 0, false),
			IPCC_SCORE_NEUTRAL);
	KUNIT_EXPECT_EQ(test, ipcc_test_table_gain(NULL, 0, 0, 1), 0);

	/* Known pairs read back what was stored. */
	KUNIT_EXPECT_EQ(test, ipcc_table_score(t, 0, 1, false), 600);
	KUNIT_EXPECT_EQ(test, ipcc_table_score(t, 0, 1, true), 800);
	KUNIT_EXPECT_EQ(test, ipcc_table_score(t, 1, 0, true), 400);
}

static void ipcc_test_gain_sign(struct kunit *test)
{
	struct ipcc_score_table *t = ipcc_test_table(test);

	KUNIT_EXPECT_GT(test, ipcc_gain(800, 400), 0);
	KUNIT_EXPECT_LT(test, ipcc_gain(400, 800), 0);
	KUNIT_EXPECT_EQ(test, ipcc_gain(512, 512), 0);
	KUNIT_EXPECT_EQ(test, ipcc_gain(IPCC_SCORE_SCALE, 0), IPCC_SCORE_SCALE);

	/* Class 0 gains going to CPU 1 and loses coming back. */
	KUNIT_EXPECT_EQ(test, ipcc_test_table_gain(t, 0, 0, 1), 700);
	KUNIT_EXPECT_EQ(test, ipcc_test_table_gain(t, 0, 1, 0), -700);
	KUNIT_EXPECT_EQ(test, ipcc_test_table_gain(t, 0, 1, 1), 0);
}

/*
 * SMT contention: a P-core thread beside a busy sibling is worth about
 * 0.6 of the P-core. CPU 0 is such a thread, CPU 1 an E-core. Task a
 * (class 0: 1024 on the P-core, 700 on the E-core) runs on CPU 1, task b
 * (class 1: 500, 300) on CPU 0. Counting CPU 0 as a whole P-core, a swap
 * gains 324 - 200 = 124 and passes the default threshold (64); it would
 * lower the pair's speed from 700 + 299 to 614 + 300, and with the
 * shared core counted it sums to -85 and is refused.
 */
static void ipcc_test_smt_gain(struct kunit *test)
{
	struct ipcc_score_table *t;
	int ga, gb;

	KUNIT_EXPECT_EQ(test, ipcc_smt_score(1024, false), 1024);
	KUNIT_EXPECT_EQ(test, ipcc_smt_score(1024, true), IPCC_SMT_YIELD);
	KUNIT_EXPECT_EQ(test, ipcc_smt_score(1000, true), 599);
	KUNIT_EXPECT_EQ(test, ipcc_smt_score(0, true), 0);

	t = kunit_kzalloc(test, struct_size(t, cells, 4), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	t->nr_cells = 4;
	t->nr_classes = 2;
	t->nr_cpus = 2;
	t->cells[0] = (struct ipcc_cell){ .perf = 1024, .eff = 300 };
	t->cells[1] = (struct ipcc_cell){ .perf = 500, .eff = 300 };
	t->cells[2] = (struct ipcc_cell){ .perf = 700, .eff = 900 };
	t->cells[3] = (struct ipcc_cell){ .perf = 300, .eff = 900 };

	/* Blind to SMT: the swap passes. */
	ga = ipcc_test_table_gain(t, 0, 1, 0);
	gb = ipcc_test_table_gain(t, 1, 0, 1);
	KUNIT_EXPECT_EQ(test, ga, 324);
	KUNIT_EXPECT_EQ(test, gb, -200);
	KUNIT_EXPECT_TRUE(test, ipcc_should_swap(ga, gb,
						 IPCC_SWAP_THRESHOLD_DEFAULT,
						 0, 0, 0));

	/* CPU 0's core shared before and after: refused. */
	ga = ipcc_table_gain_smt(t, 0, 1, 0, false, true);
	gb = ipcc_table_gain_smt(t, 1, 0, 1, true, false);
	KUNIT_EXPECT_EQ(test, ga, 614 - 700);
	KUNIT_EXPECT_EQ(test, gb, 300 - 299);
	KUNIT_EXPECT_FALSE(test, ipcc_should_swap(ga, gb,
						  IPCC_SWAP_THRESHOLD_DEFAULT,
						  0, 0, 0));

	/* Unknown scores stay neutral, shared or not. */
	t->cells[3].perf = IPCC_CELL_UNKNOWN;
	KUNIT_EXPECT_EQ(test, ipcc_table_gain_smt(t, 1, 0, 1, true, true), 0);
}

static void ipcc_test_parse_override_good(struct kunit *test)
{
	pid_t pid = 0;
	int class = -2;

	KUNIT_EXPECT_EQ(test, ipcc_parse_override("123 0", 5, 4, &pid, &class),
			0);
	KUNIT_EXPECT_EQ(test, pid, 123);
	KUNIT_EXPECT_EQ(test, class, 0);

	KUNIT_EXPECT_EQ(test, ipcc_parse_override("77 3\n", 5, 4, &pid, &class),
			0);
	KUNIT_EXPECT_EQ(test, pid, 77);
	KUNIT_EXPECT_EQ(test, class, 3);

	KUNIT_EXPECT_EQ(test, ipcc_parse_override("9\t 2", 4, 4, &pid, &class),
			0);
	KUNIT_EXPECT_EQ(test, pid, 9);
	KUNIT_EXPECT_EQ(test, class, 2);

	/* Clearing needs no classes at all. */
	KUNIT_EXPECT_EQ(test, ipcc_parse_override("4194304 -1\n", 11, 0, &pid,
						  &class), 0);
	KUNIT_EXPECT_EQ(test, pid, 4194304);
	KUNIT_EXPECT_EQ(test, class, -1);

	/* The longest accepted write: 32 bytes. */
	KUNIT_EXPECT_EQ(test,
			ipcc_parse_override("123                            1",
					    32, 4, &pid, &class), 0);
	KUNIT_EXPECT_EQ(test, pid, 123);
	KUNIT_EXPECT_EQ(test, class, 1);

	/* Only as many bytes as given are parsed. */
	KUNIT_EXPECT_EQ(test, ipcc_parse_override("5 1garbage", 3, 4, &pid,
						  &class), 0);
	KUNIT_EXPECT_EQ(test, pid, 5);
	KUNIT_EXPECT_EQ(test, class, 1);
}

static void ipcc_test_parse_override_bad(struct kunit *test)
{
	static const char * const bad[] = {
		"",
		"\n",
		"abc",
		"123",
		"123 ",
		"123\n",
		" 123 0",
		"123 0 ",
		"123 0 1",
		"123 4",		/* nr_classes is 4 */
		"123 16",
		"123 -0",
		"123 --1",
		"123 -2",
		"123 -1 0",
		"123 +1",
		"+123 1",
		"-123 1",
		"0 1",
		"123 4294967295",
		"123 4294967296",
		"123 0x1",
		"0x10 1",
		"2147483648 1",
		"99999999999999999999 1",
		"123 1x",
		"123 1\n\n",
		"123\n1",
		/* 33 bytes, valid but for its length */
		"123                             1",
	};
	pid_t pid = 42;
	int class = 7;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_EQ_MSG(test,
				    ipcc_parse_override(bad[i], strlen(bad[i]),
							4, &pid, &class),
				    -EINVAL, "input \"%s\"", bad[i]);
		KUNIT_EXPECT_EQ(test, pid, 42);
		KUNIT_EXPECT_EQ(test, class, 7);
	}

	/* No class is valid without classes. */
	KUNIT_EXPECT_EQ(test, ipcc_parse_override("123 0", 5, 0, &pid, &class),
			-EINVAL);
	/* An embedded NUL. */
	KUNIT_EXPECT_EQ(test, ipcc_parse_override("123\0 0", 6, 4, &pid,
						  &class), -EINVAL);
	KUNIT_EXPECT_EQ(test, pid, 42);
	KUNIT_EXPECT_EQ(test, class, 7);
}

static void ipcc_test_parse_debounce(struct kunit *test)
{
	static const struct {
		const char *in;
		unsigned int out;
	} good[] = {
		{ "1", 1 }, { "4", 4 }, { "4\n", 4 }, { "255", 255 },
		{ "007", 7 },
		{ "00000000000000000000000000000004", 4 },	/* 32 bytes */
	};
	static const char * const bad[] = {
		"", "\n", "abc", "0", "-1", "-0", "+4", "256", "0x10", "1 2",
		" 4", "4 ", "4\n\n", "4x", "99999999999999999999",
		/* 33 bytes, valid but for its length */
		"000000000000000000000000000000004",
	};
	unsigned int i, ticks;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		ticks = 0;
		KUNIT_EXPECT_EQ_MSG(test,
				    ipcc_parse_uint(good[i].in,
						    strlen(good[i].in), 1,
						    U8_MAX, &ticks),
				    0, "input \"%s\"", good[i].in);
		KUNIT_EXPECT_EQ(test, ticks, good[i].out);
	}

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ticks = 99;
		KUNIT_EXPECT_EQ_MSG(test,
				    ipcc_parse_uint(bad[i], strlen(bad[i]), 1,
						    U8_MAX, &ticks),
				    -EINVAL, "input \"%s\"", bad[i]);
		KUNIT_EXPECT_EQ(test, ticks, 99);
	}
}

static void ipcc_test_parse_mode(struct kunit *test)
{
	unsigned int mode = 9;

	KUNIT_EXPECT_EQ(test, ipcc_parse_uint("0", 1, 0, 2, &mode), 0);
	KUNIT_EXPECT_EQ(test, mode, 0);
	KUNIT_EXPECT_EQ(test, ipcc_parse_uint("2\n", 2, 0, 2, &mode), 0);
	KUNIT_EXPECT_EQ(test, mode, 2);

	mode = 9;
	KUNIT_EXPECT_EQ(test, ipcc_parse_uint("3", 1, 0, 2, &mode), -EINVAL);
	KUNIT_EXPECT_EQ(test, ipcc_parse_uint("-1", 2, 0, 2, &mode), -EINVAL);
	KUNIT_EXPECT_EQ(test, ipcc_parse_uint("0x1", 3, 0, 2, &mode), -EINVAL);
	KUNIT_EXPECT_EQ(test, ipcc_parse_uint("1 2", 3, 0, 2, &mode), -EINVAL);
	KUNIT_EXPECT_EQ(test, ipcc_parse_uint("", 0, 0, 2, &mode), -EINVAL);
	KUNIT_EXPECT_EQ(test, mode, 9);
}

/*
 * Hardware garbage: a score source where CPU 1 reports 0 for everything
 * (the hardware asking not to use it), class 2 has no data anywhere and
 * class 3 is at the top of the scale on CPU 0.
 */
static int ipcc_test_garbage_scores(int cpu, unsigned int class, u8 *perf,
				    u8 *eff)
{
	if (class == 2)
		return -ENODATA;
	if (cpu == 1) {
		*perf = 0;
		*eff = 0;
		return 0;
	}
	*perf = class == 3 ? IPCC_RAW_SCORE_MAX : 100;
	*eff = *perf;
	return 0;
}

/* Every CPU of the same capacity. */
static unsigned long ipcc_test_flat_capacity(int cpu)
{
	return SCHED_CAPACITY_SCALE;
}

static void ipcc_test_table_garbage(struct kunit *test)
{
	struct ipcc_score_table *t;
	int mid = ipcc_norm_score(100);

	if (nr_cpu_ids < 2)
		kunit_skip(test, "needs 2 possible CPUs, have %u", nr_cpu_ids);

	t = ipcc_build_table(4, ipcc_test_garbage_scores,
			     ipcc_test_flat_capacity);
	KUNIT_ASSERT_NOT_NULL(test, t);

	/* A row of zeros stays zero: a move there is a loss, away a gain. */
	KUNIT_EXPECT_EQ(test, ipcc_table_score(t, 1, 0, false), 0);
	KUNIT_EXPECT_EQ(test, ipcc_table_score(t, 1, 3, true), 0);
	KUNIT_EXPECT_EQ(test, ipcc_test_table_gain(t, 0, 0, 1), -mid);
	KUNIT_EXPECT_EQ(test, ipcc_test_table_gain(t, 0, 1, 0), mid);

	/* The top of the raw scale is the top of the normalised one. */
	KUNIT_EXPECT_EQ(test, ipcc_table_score(t, 0, 3, false),
			IPCC_SCORE_SCALE);
	KUNIT_EXPECT_EQ(test, ipcc_test_table_gain(t, 3, 1, 0),
			IPCC_SCORE_SCALE);

	/* No data: neutral scores and no gain either way. */
	KUNIT_EXPECT_EQ(test, ipcc_table_score(t, 0, 2, false),
			IPCC_SCORE_NEUTRAL);
	KUNIT_EXPECT_EQ(test, ipcc_table_score(t, 1, 2, true),
			IPCC_SCORE_NEUTRAL);
	KUNIT_EXPECT_EQ(test, ipcc_test_table_gain(t, 2, 0, 1), 0);
	KUNIT_EXPECT_EQ(test, ipcc_test_table_gain(t, 2, 1, 0), 0);

	/* Out-of-range classes and CPUs read as neutral, never as cells. */
	KUNIT_EXPECT_EQ(test, ipcc_table_score(t, 0, 4, false),
			IPCC_SCORE_NEUTRAL);
	KUNIT_EXPECT_EQ(test, ipcc_table_score(t, 0, -1, false),
			IPCC_SCORE_NEUTRAL);
	KUNIT_EXPECT_EQ(test, ipcc_table_score(t, 0, 255, false),
			IPCC_SCORE_NEUTRAL);
	KUNIT_EXPECT_EQ(test, ipcc_table_score(t, nr_cpu_ids, 0, false),
			IPCC_SCORE_NEUTRAL);
	KUNIT_EXPECT_EQ(test, ipcc_table_score(t, -1, 0, false),
			IPCC_SCORE_NEUTRAL);
	KUNIT_EXPECT_EQ(test, ipcc_test_table_gain(t, 0, 0, nr_cpu_ids), 0);
	KUNIT_EXPECT_EQ(test, ipcc_test_table_gain(t, 0, -1, 0), 0);

	kvfree(t);
}

static void ipcc_test_headroom(struct kunit *test)
{
	struct ipcc_score_table *t = ipcc_test_table(test);
	int mid = ipcc_norm_score(100);

	/* Class 0 runs best on CPU 1: room on CPU 0 only. */
	KUNIT_EXPECT_EQ(test, ipcc_table_headroom(t, 0, 0), 700);
	KUNIT_EXPECT_EQ(test, ipcc_table_headroom(t, 0, 1), 0);
	/* Class 1 has no score on CPU 1: no room claimed there. */
	KUNIT_EXPECT_EQ(test, ipcc_table_headroom(t, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, ipcc_table_headroom(t, 1, 1), 0);
	/* Unclassified, out of range, no table: none. */
	KUNIT_EXPECT_EQ(test, ipcc_table_headroom(t, IPCC_CLASS_NONE, 0), 0);
	KUNIT_EXPECT_EQ(test, ipcc_table_headroom(t, -1, 0), 0);
	KUNIT_EXPECT_EQ(test, ipcc_table_headroom(t, 2, 0), 0);
	KUNIT_EXPECT_EQ(test, ipcc_table_headroom(t, 0, 2), 0);
	KUNIT_EXPECT_EQ(test, ipcc_table_headroom(t, 0, -1), 0);
	KUNIT_EXPECT_EQ(test, ipcc_table_headroom(NULL, 0, 0), 0);

	/* The headroom bounds every gain from that CPU. */
	KUNIT_EXPECT_GE(test, ipcc_table_headroom(t, 0, 0),
			ipcc_test_table_gain(t, 0, 0, 1));

	if (nr_cpu_ids < 2)
		kunit_skip(test, "needs 2 possible CPUs, have %u", nr_cpu_ids);

	/* Built from a score source: the best of each class is found. */
	t = ipcc_build_table(4, ipcc_test_garbage_scores,
			     ipcc_test_flat_capacity);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_EQ(test, t->best_perf[0], mid);
	KUNIT_EXPECT_EQ(test, t->best_perf[3], IPCC_SCORE_SCALE);
	KUNIT_EXPECT_EQ(test, t->best_perf[2], IPCC_CELL_UNKNOWN);
	KUNIT_EXPECT_EQ(test, t->best_perf[4], IPCC_CELL_UNKNOWN);
	/* A CPU that scores 0 has all the room there is. */
	KUNIT_EXPECT_EQ(test, ipcc_table_headroom(t, 0, 1), mid);
	KUNIT_EXPECT_EQ(test, ipcc_table_headroom(t, 3, 1), IPCC_SCORE_SCALE);
	KUNIT_EXPECT_EQ(test, ipcc_table_headroom(t, 0, 0), 0);
	/* No data for the class: none. */
	KUNIT_EXPECT_EQ(test, ipcc_table_headroom(t, 2, 1), 0);
	kvfree(t);
}

/* CPU 0 bigger than the rest, or the rest bigger than CPU 0. */
static unsigned long ipcc_test_cpu0_big(int cpu)
{
	return cpu ? 300 : 1024;
}

static unsigned long ipcc_test_cpu0_small(int cpu)
{
	return cpu ? 1024 : 300;
}

/*
 * CPU 0: class 0 scores 200, class 1 has no score, class 2 scores 0;
 * the other CPUs: 150, 180 and 120.
 */
static int ipcc_test_two_kinds(int cpu, unsigned int class, u8 *perf,
			       u8 *eff)
{
	static const u8 score[2][3] = { { 200, 0, 0 }, { 150, 180, 120 } };

	if (class == 1 && cpu == 0)
		return -ENODATA;
	*perf = score[!!cpu][class];
	*eff = *perf;
	return 0;
}

/* The best known perf cell of @class on CPUs of more capacity than @cpu. */
static int ipcc_test_bigger_walk(const struct ipcc_score_table *t, int cpu,
				 int class, ipcc_get_capacity_fn cap)
{
	int c, best = -1;

	for_each_possible_cpu(c) {
		if (cap(c) > cap(cpu))
			best = max(best, ipcc_table_cell(t, c, class, false));
	}
	return best;
}

/*
 * The bigger cells must be what the walk finds, and the table's misfit
 * room the most any known pair gains by the walk.
 */
static void ipcc_test_bigger_matches_walk(struct kunit *test,
					  const struct ipcc_score_table *t,
					  ipcc_get_capacity_fn cap)
{
	int cpu, class, best, here, room = 0;

	for_each_possible_cpu(cpu) {
		for (class = 0; class < 3; class++) {
			best = ipcc_test_bigger_walk(t, cpu, class, cap);
			here = ipcc_table_cell(t, cpu, class, false);
			KUNIT_EXPECT_EQ_MSG(test, ipcc_table_bigger(t, cpu, class),
					    best, "cpu %d class %d", cpu, class);
			if (best >= 0 && here >= 0)
				room = max(room, best - here);
		}
	}
	KUNIT_EXPECT_EQ(test, t->misfit_room, room);
}

/*
 * The misfit check reads one cell: the best score of the class on the
 * bigger CPUs, found when the table is built. It must be what a walk over
 * the bigger CPUs finds: unknown cells do not count, a 0 does, CPUs of
 * the same capacity are not bigger, and CPU numbers do not matter.
 */
static void ipcc_test_bigger(struct kunit *test)
{
	struct ipcc_score_table *t;
	int cpu, class;

	if (nr_cpu_ids < 2)
		kunit_skip(test, "needs 2 possible CPUs, have %u", nr_cpu_ids);

	t = ipcc_build_table(3, ipcc_test_two_kinds, ipcc_test_cpu0_big);
	KUNIT_ASSERT_NOT_NULL(test, t);
	/* Nothing is bigger than the biggest CPU. */
	for (class = 0; class < 3; class++)
		KUNIT_EXPECT_EQ(test, ipcc_table_bigger(t, 0, class), -1);
	KUNIT_EXPECT_EQ(test, ipcc_table_bigger(t, 1, 0), ipcc_norm_score(200));
	/* The bigger CPU has no score for class 1, and 0 for class 2. */
	KUNIT_EXPECT_EQ(test, ipcc_table_bigger(t, 1, 1), -1);
	KUNIT_EXPECT_EQ(test, ipcc_table_bigger(t, 1, 2), 0);
	ipcc_test_bigger_matches_walk(test, t, ipcc_test_cpu0_big);
	/* Class 0 gains 200 - 150 on CPU 0; class 2 scores 0 there. */
	KUNIT_EXPECT_EQ(test, t->misfit_room,
			ipcc_norm_score(200) - ipcc_norm_score(150));
	/* Out of range: none. */
	KUNIT_EXPECT_EQ(test, ipcc_table_bigger(t, 1, 3), -1);
	KUNIT_EXPECT_EQ(test, ipcc_table_bigger(t, 1, -1), -1);
	KUNIT_EXPECT_EQ(test, ipcc_table_bigger(t, nr_cpu_ids, 0), -1);
	KUNIT_EXPECT_EQ(test, ipcc_table_bigger(NULL, 1, 0), -1);
	kvfree(t);

	t = ipcc_build_table(3, ipcc_test_two_kinds, ipcc_test_cpu0_small);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_EQ(test, ipcc_table_bigger(t, 0, 0), ipcc_norm_score(150));
	KUNIT_EXPECT_EQ(test, ipcc_table_bigger(t, 0, 1), ipcc_norm_score(180));
	KUNIT_EXPECT_EQ(test, ipcc_table_bigger(t, 0, 2), ipcc_norm_score(120));
	for (class = 0; class < 3; class++)
		KUNIT_EXPECT_EQ(test, ipcc_table_bigger(t, 1, class), -1);
	ipcc_test_bigger_matches_walk(test, t, ipcc_test_cpu0_small);
	/* A 0 here counts; class 1 has no score on CPU 0. */
	KUNIT_EXPECT_EQ(test, t->misfit_room, ipcc_norm_score(120));
	kvfree(t);

	/* One capacity: no CPU is bigger than another. */
	t = ipcc_build_table(3, ipcc_test_two_kinds, ipcc_test_flat_capacity);
	KUNIT_ASSERT_NOT_NULL(test, t);
	for_each_possible_cpu(cpu) {
		for (class = 0; class < 3; class++)
			KUNIT_EXPECT_EQ(test, ipcc_table_bigger(t, cpu, class),
					-1);
	}
	KUNIT_EXPECT_EQ(test, t->misfit_room, 0);
	kvfree(t);
}

/*
 * Switching IPCC resets every task. The walk must reach every task, the
 * running one included, and leave its RCU read-side section every batch
 * of tasks to let the CPU reschedule, rather than hold it over all the
 * tasks of the system.
 */
static void ipcc_test_reset_walk(struct kunit *test)
{
	struct task_struct *g, *t;
	unsigned int nr = 0, breaks;

	if (static_key_enabled(&sched_ipcc_key))
		kunit_skip(test, "IPCC is on: its hooks write task state");

	rcu_read_lock();
	for_each_process_thread(g, t)
		nr++;
	rcu_read_unlock();

	current->ipcc.class = 2;
	current->ipcc.flags = IPCC_TASK_OVERRIDDEN;
	mutex_lock(&ipcc_mutex);
	breaks = ipcc_reset_walk(4);
	mutex_unlock(&ipcc_mutex);

	KUNIT_EXPECT_EQ(test, current->ipcc.class, IPCC_CLASS_NONE);
	KUNIT_EXPECT_EQ(test, current->ipcc.flags, 0);
	/* One break per 4 tasks; tasks may come and go meanwhile. */
	kunit_info(test, "%u tasks, %u breaks", nr, breaks);
	KUNIT_EXPECT_GE(test, breaks, nr / 8);
	KUNIT_EXPECT_GE(test, breaks, 1U);

	/* Batch 0: one section, no break. */
	current->ipcc.class = 1;
	mutex_lock(&ipcc_mutex);
	KUNIT_EXPECT_EQ(test, ipcc_reset_walk(0), 0U);
	mutex_unlock(&ipcc_mutex);
	KUNIT_EXPECT_EQ(test, current->ipcc.class, IPCC_CLASS_NONE);
}

/* Generation the racing score source reports for every pair. */
static atomic_t ipcc_test_gen;

static int ipcc_test_gen_scores(int cpu, unsigned int class, u8 *perf,
				u8 *eff)
{
	u8 v = atomic_read(&ipcc_test_gen);

	*perf = v;
	*eff = v;
	return 0;
}

struct ipcc_test_race {
	struct ipcc_score_table __rcu	*slot;
	struct completion		done;
	atomic_t			rebuilds;
	bool				stop;
	bool				nomem;
};

/*
 * The writer side of the race test: build and publish tables as the
 * rebuild work does, each of a new generation (1..200, so that every
 * cell of a table normalises to the same value), until told to stop.
 */
static int ipcc_test_race_writer(void *arg)
{
	struct ipcc_test_race *r = arg;
	int i;

	for (i = 0; !READ_ONCE(r->stop); i++) {
		struct ipcc_score_table *new, *old;

		atomic_set(&ipcc_test_gen, i % 200 + 1);
		new = ipcc_build_table(IPCC_MAX_CLASSES, ipcc_test_gen_scores,
				       ipcc_test_flat_capacity);
		if (!new) {
			r->nomem = true;
			break;
		}
		mutex_lock(&ipcc_mutex);
		old = rcu_replace_pointer(r->slot, new,
					  lockdep_is_held(&ipcc_mutex));
		mutex_unlock(&ipcc_mutex);
		if (old)
			kvfree_rcu(old, rcu);
		atomic_inc(&r->rebuilds);
		cond_resched();
	}
	complete(&r->done);
	return 0;
}

/*
 * Tables that change under a reader: a reader inside one RCU read-side
 * section sees one whole table, never a mix of two generations and never
 * a freed one, however often the writer replaces it.
 */
static void ipcc_test_table_replaced_under_reader(struct kunit *test)
{
	struct ipcc_test_race *r;
	struct ipcc_score_table *t;
	struct task_struct *w;
	int reads = 0, mixed = 0;
	unsigned long deadline;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	init_completion(&r->done);

	w = kthread_run(ipcc_test_race_writer, r, "ipcc_kunit_writer");
	KUNIT_ASSERT_FALSE(test, IS_ERR(w));

	/* Read until both sides have done enough, for at most 10 s. */
	deadline = jiffies + 10 * HZ;
	while ((reads < 2000 || atomic_read(&r->rebuilds) < 100) &&
	       time_before(jiffies, deadline) && !READ_ONCE(r->nomem)) {
		rcu_read_lock();
		t = rcu_dereference(r->slot);
		if (t) {
			int first = ipcc_table_score(t, 0, 0, false);
			unsigned int i;

			for (i = 0; i < t->nr_cells; i++)
				if (t->cells[i].perf != first ||
				    t->cells[i].eff != first)
					mixed++;
			reads++;
		}
		rcu_read_unlock();
		cond_resched();
	}
	WRITE_ONCE(r->stop, true);
	wait_for_completion(&r->done);

	KUNIT_EXPECT_FALSE(test, r->nomem);
	KUNIT_EXPECT_GT(test, atomic_read(&r->rebuilds), 0);
	KUNIT_EXPECT_GT(test, reads, 0);
	KUNIT_EXPECT_EQ(test, mixed, 0);
	kunit_info(test, "%d reads, %d tables published\n", reads,
		   atomic_read(&r->rebuilds));

	t = rcu_replace_pointer(r->slot, NULL, true);
	synchronize_rcu();
	kvfree(t);
}

static struct kunit_case ipcc_test_cases[] = {
	KUNIT_CASE(ipcc_test_debounce_k1),
	KUNIT_CASE(ipcc_test_debounce_k4),
	KUNIT_CASE(ipcc_test_debounce_interrupted),
	KUNIT_CASE(ipcc_test_debounce_invalid),
	KUNIT_CASE(ipcc_test_debounce_beyond_cap),
	KUNIT_CASE(ipcc_test_debounce_overridden),
	KUNIT_CASE(ipcc_test_debounce_current_resets),
	KUNIT_CASE(ipcc_test_fork_exec),
	KUNIT_CASE(ipcc_test_mix_flapping),
	KUNIT_CASE(ipcc_test_mix_rules),
	KUNIT_CASE(ipcc_test_mix_phase_change),
	KUNIT_CASE(ipcc_test_mix_rotation_turn),
	KUNIT_CASE(ipcc_test_norm_score),
	KUNIT_CASE(ipcc_test_unclassified_neutral),
	KUNIT_CASE(ipcc_test_gain_sign),
	KUNIT_CASE(ipcc_test_smt_gain),
	KUNIT_CASE(ipcc_test_headroom),
	KUNIT_CASE(ipcc_test_bigger),
	KUNIT_CASE(ipcc_test_reset_walk),
	KUNIT_CASE(ipcc_test_parse_override_good),
	KUNIT_CASE(ipcc_test_parse_override_bad),
	KUNIT_CASE(ipcc_test_parse_debounce),
	KUNIT_CASE(ipcc_test_parse_mode),
	KUNIT_CASE(ipcc_test_table_garbage),
	KUNIT_CASE(ipcc_test_table_replaced_under_reader),
	{}
};

static struct kunit_suite ipcc_test_suite = {
	.name = "sched_ipcc",
	.test_cases = ipcc_test_cases,
};

kunit_test_suite(ipcc_test_suite);

#endif /* _KERNEL_SCHED_IPCC_KUNIT_H */
