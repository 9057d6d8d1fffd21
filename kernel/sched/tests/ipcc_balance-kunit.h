/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit tests of the pure decision functions of
 * kernel/sched/ipcc_balance.c, the class-aware load balancer.
 *
 * Included at the end of ipcc_balance.c; run with:
 *
 *   ./tools/testing/kunit/kunit.py run --kunitconfig=kernel/sched
 *
 * Scores below are normalised (0..1024); the "vector" class of these
 * tests scores 1024 on a P-core and 442 on an E-core, the "spin-wait"
 * class 482 on both.
 */
#ifndef _KERNEL_SCHED_IPCC_BALANCE_KUNIT_H
#define _KERNEL_SCHED_IPCC_BALANCE_KUNIT_H

#include <kunit/test.h>

#define T_VEC_GAIN	(1024 - 442)	/* vector task, E-core to P-core */
#define T_SPIN_GAIN	0		/* spin-wait task, either way */
#define T_MS		NSEC_PER_MSEC

static void ipcc_test_pick_pull(struct kunit *test)
{
	static const int none[] = { 0, 0, 0 };
	static const int one[] = { T_SPIN_GAIN, T_VEC_GAIN, 100 };
	static const int tie[] = { 5, 300, 300, 7 };
	static const int neg[] = { -582, -100, -300 };
	static const int first[] = { 300, 300, -1 };
	static const int single[] = { -1024 };
	int zero[2];

	/* No candidate at all. */
	KUNIT_EXPECT_EQ(test, ipcc_pick_pull(NULL, 0), -1);
	KUNIT_EXPECT_EQ(test, ipcc_pick_pull(one, -1), -1);

	/* Unclassified (all neutral): the balancer's order stands. */
	KUNIT_EXPECT_EQ(test, ipcc_pick_pull(none, ARRAY_SIZE(none)), 0);

	/* No tie: the highest gain. */
	KUNIT_EXPECT_EQ(test, ipcc_pick_pull(one, ARRAY_SIZE(one)), 1);

	/* Ties keep the balancer's order. */
	KUNIT_EXPECT_EQ(test, ipcc_pick_pull(tie, ARRAY_SIZE(tie)), 1);
	KUNIT_EXPECT_EQ(test, ipcc_pick_pull(first, ARRAY_SIZE(first)), 0);

	/* All negative: the task that loses least. */
	KUNIT_EXPECT_EQ(test, ipcc_pick_pull(neg, ARRAY_SIZE(neg)), 1);

	/* One candidate, whatever its gain. */
	KUNIT_EXPECT_EQ(test, ipcc_pick_pull(single, 1), 0);

	/* Only @nr entries are looked at. */
	KUNIT_EXPECT_EQ(test, ipcc_pick_pull(one, 1), 0);

	/* Score 0 on the destination: the task that does not care wins. */
	zero[0] = ipcc_gain(0, 442);
	zero[1] = ipcc_gain(482, 482);
	KUNIT_EXPECT_EQ(test, ipcc_pick_pull(zero, ARRAY_SIZE(zero)), 1);
}

static void ipcc_test_pick_pull_never_worse(struct kunit *test)
{
	static const int gains[][4] = {
		{ 0, 0, 0, 0 }, { -5, 0, 5, 0 }, { 10, -10, 20, 20 },
		{ -1024, -1024, -1, -1 }, { 1024, 0, 0, 1024 },
	};
	unsigned int i;
	int best;

	for (i = 0; i < ARRAY_SIZE(gains); i++) {
		best = ipcc_pick_pull(gains[i], 4);
		KUNIT_ASSERT_GE(test, best, 0);
		/* Never a lower gain than the balancer's own first choice. */
		KUNIT_EXPECT_GE(test, gains[i][best], gains[i][0]);
		/* A change of order only for a strictly higher gain. */
		if (best)
			KUNIT_EXPECT_GT(test, gains[i][best], gains[i][0]);
	}
}

static void ipcc_test_group_tie(struct kunit *test)
{
	/* Mode 0 never changes anything. */
	KUNIT_EXPECT_FALSE(test, ipcc_break_group_tie(IPCC_MODE_OFF, true,
						      false, 500, 0));
	KUNIT_EXPECT_TRUE(test, ipcc_break_group_tie(IPCC_MODE_OFF, true,
						     true, 0, 500));

	/* Not a tie: the existing verdict stands, in every mode. */
	KUNIT_EXPECT_FALSE(test, ipcc_break_group_tie(IPCC_MODE_TIEBREAK,
						      false, false, 500, 0));
	KUNIT_EXPECT_TRUE(test, ipcc_break_group_tie(IPCC_MODE_FULL, false,
						     true, -500, 500));

	/* A tie: the higher gain wins, in both directions. */
	KUNIT_EXPECT_TRUE(test, ipcc_break_group_tie(IPCC_MODE_TIEBREAK, true,
						     false, T_VEC_GAIN,
						     T_SPIN_GAIN));
	KUNIT_EXPECT_FALSE(test, ipcc_break_group_tie(IPCC_MODE_TIEBREAK, true,
						      true, T_SPIN_GAIN,
						      T_VEC_GAIN));

	/* Negative gains: the smaller loss wins. */
	KUNIT_EXPECT_TRUE(test, ipcc_break_group_tie(IPCC_MODE_FULL, true,
						     false, -100, -582));
	KUNIT_EXPECT_FALSE(test, ipcc_break_group_tie(IPCC_MODE_FULL, true,
						      true, -582, 0));

	/* Equal gains (unclassified on both sides included): unchanged. */
	KUNIT_EXPECT_FALSE(test, ipcc_break_group_tie(IPCC_MODE_FULL, true,
						      false, 0, 0));
	KUNIT_EXPECT_TRUE(test, ipcc_break_group_tie(IPCC_MODE_FULL, true,
						     true, 300, 300));
}

static void ipcc_test_asym_pick(struct kunit *test)
{
	int mode;

	/* Mode 0: priority only; equal priorities keep the first group. */
	KUNIT_EXPECT_TRUE(test, ipcc_asym_pick(IPCC_MODE_OFF, 1, 0, 500));
	KUNIT_EXPECT_FALSE(test, ipcc_asym_pick(IPCC_MODE_OFF, -1, 500, 0));
	KUNIT_EXPECT_FALSE(test, ipcc_asym_pick(IPCC_MODE_OFF, 0, 500, 0));

	/* Mode 1: priority first, gain only between equal priorities. */
	KUNIT_EXPECT_TRUE(test, ipcc_asym_pick(IPCC_MODE_TIEBREAK, 1, 0, 500));
	KUNIT_EXPECT_FALSE(test, ipcc_asym_pick(IPCC_MODE_TIEBREAK, -1,
						T_VEC_GAIN, 0));
	KUNIT_EXPECT_TRUE(test, ipcc_asym_pick(IPCC_MODE_TIEBREAK, 0,
					       T_VEC_GAIN, T_SPIN_GAIN));
	KUNIT_EXPECT_FALSE(test, ipcc_asym_pick(IPCC_MODE_TIEBREAK, 0,
						T_SPIN_GAIN, T_VEC_GAIN));

	/* Mode 2: gain first, priority only between equal gains. */
	KUNIT_EXPECT_FALSE(test, ipcc_asym_pick(IPCC_MODE_FULL, 1, 0, 500));
	KUNIT_EXPECT_TRUE(test, ipcc_asym_pick(IPCC_MODE_FULL, -1, 500, 0));
	KUNIT_EXPECT_TRUE(test, ipcc_asym_pick(IPCC_MODE_FULL, -1, -1, -2));
	KUNIT_EXPECT_TRUE(test, ipcc_asym_pick(IPCC_MODE_FULL, 1, 42, 42));
	KUNIT_EXPECT_FALSE(test, ipcc_asym_pick(IPCC_MODE_FULL, -1, 42, 42));

	/* Everything equal: the first group stays, in every mode. */
	for (mode = IPCC_MODE_OFF; mode <= IPCC_MODE_FULL; mode++)
		KUNIT_EXPECT_FALSE(test, ipcc_asym_pick(mode, 0, 0, 0));
}

static void ipcc_test_rq_tie(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, ipcc_break_rq_tie(IPCC_MODE_OFF, 500, 0));
	KUNIT_EXPECT_TRUE(test, ipcc_break_rq_tie(IPCC_MODE_TIEBREAK, 500, 0));
	KUNIT_EXPECT_TRUE(test, ipcc_break_rq_tie(IPCC_MODE_FULL, 1, 0));

	/* Equal gains and unclassified tasks keep the existing choice. */
	KUNIT_EXPECT_FALSE(test, ipcc_break_rq_tie(IPCC_MODE_FULL, 0, 0));
	KUNIT_EXPECT_FALSE(test, ipcc_break_rq_tie(IPCC_MODE_FULL, 300, 300));

	/* Negative gains. */
	KUNIT_EXPECT_TRUE(test, ipcc_break_rq_tie(IPCC_MODE_FULL, -1, -582));
	KUNIT_EXPECT_FALSE(test, ipcc_break_rq_tie(IPCC_MODE_FULL, -582, 0));
}

static void ipcc_test_should_swap_threshold(struct kunit *test)
{
	u64 now = 1000 * T_MS, rl = 4 * T_MS;

	/* A vector task to the P-core, a spin-wait task to the E-core. */
	KUNIT_EXPECT_TRUE(test, ipcc_should_swap(T_VEC_GAIN, T_SPIN_GAIN,
						 IPCC_SWAP_THRESHOLD_DEFAULT,
						 now, 0, rl));
	/* The reverse swap loses. */
	KUNIT_EXPECT_FALSE(test, ipcc_should_swap(-T_VEC_GAIN, T_SPIN_GAIN,
						  IPCC_SWAP_THRESHOLD_DEFAULT,
						  now, 0, rl));
	/* Two vector tasks trading places gain nothing. */
	KUNIT_EXPECT_FALSE(test, ipcc_should_swap(T_VEC_GAIN, -T_VEC_GAIN, 0,
						  now, 0, rl));
	/* Unclassified tasks never swap, whatever the threshold. */
	KUNIT_EXPECT_FALSE(test, ipcc_should_swap(0, 0, 0, now, 0, rl));

	/* The sum must exceed the threshold: the edge. */
	KUNIT_EXPECT_FALSE(test, ipcc_should_swap(40, 24, 64, now, 0, rl));
	KUNIT_EXPECT_TRUE(test, ipcc_should_swap(40, 25, 64, now, 0, rl));
	KUNIT_EXPECT_TRUE(test, ipcc_should_swap(1, 0, 0, now, 0, rl));
	KUNIT_EXPECT_FALSE(test, ipcc_should_swap(IPCC_SCORE_SCALE, 0,
						  IPCC_SCORE_SCALE, now, 0,
						  rl));

	/* A large loss of one task outweighs a smaller gain of the other. */
	KUNIT_EXPECT_FALSE(test, ipcc_should_swap(300, -301, 0, now, 0, rl));
	KUNIT_EXPECT_TRUE(test, ipcc_should_swap(301, -200, 64, now, 0, rl));

	/*
	 * A loss of more than three quarters of the other task's gain never
	 * swaps, even with a sum above the threshold: -900 for +1000 moves
	 * speed from one task to the other rather than adding any.
	 */
	KUNIT_EXPECT_FALSE(test, ipcc_should_swap(1000, -900, 64, now, 0, rl));
	KUNIT_EXPECT_FALSE(test, ipcc_should_swap(-900, 1000, 64, now, 0, rl));
	KUNIT_EXPECT_TRUE(test, ipcc_should_swap(1000, -750, 64, now, 0, rl));
	KUNIT_EXPECT_FALSE(test, ipcc_should_swap(1000, -751, 64, now, 0, rl));
	KUNIT_EXPECT_TRUE(test, ipcc_should_swap(-750, 1000, 0, now, 0, rl));

	/* Score 0 (do not use this CPU) on the source: a full-scale gain. */
	KUNIT_EXPECT_TRUE(test, ipcc_should_swap(ipcc_gain(1024, 0),
						 ipcc_gain(0, 0),
						 IPCC_SCORE_SCALE - 1, now, 0,
						 rl));
	/* ... and on the destination: never worth it. */
	KUNIT_EXPECT_FALSE(test, ipcc_should_swap(ipcc_gain(0, 442),
						  ipcc_gain(482, 482), 0, now,
						  0, rl));
}

static void ipcc_test_should_swap_ratelimit(struct kunit *test)
{
	u64 now = 1000 * T_MS, rl = 4 * T_MS;

	/* Never swapped. */
	KUNIT_EXPECT_TRUE(test, ipcc_should_swap(500, 0, 64, now, 0, rl));

	/* Within the rate limit: no, whatever the gain. */
	KUNIT_EXPECT_FALSE(test, ipcc_should_swap(1024, 1024, 0, now, now,
						  rl));
	KUNIT_EXPECT_FALSE(test, ipcc_should_swap(500, 0, 64, now,
						  now - rl + 1, rl));

	/* Exactly one rate limit later, and beyond. */
	KUNIT_EXPECT_TRUE(test, ipcc_should_swap(500, 0, 64, now, now - rl,
						 rl));
	KUNIT_EXPECT_TRUE(test, ipcc_should_swap(500, 0, 64, now,
						 now - 100 * T_MS, rl));

	/* A timestamp from another CPU's slightly later clock: limited. */
	KUNIT_EXPECT_FALSE(test, ipcc_should_swap(500, 0, 64, now, now + 1,
						  rl));

	/* No rate limit. */
	KUNIT_EXPECT_TRUE(test, ipcc_should_swap(500, 0, 64, now, now, 0));
}

static void ipcc_test_tick_swap_due(struct kunit *test)
{
	int thr = IPCC_SWAP_THRESHOLD_DEFAULT;
	u64 now = 1000 * T_MS;

	/* A vector task on an E-core looks; a spin-wait task never does. */
	KUNIT_EXPECT_TRUE(test, ipcc_tick_swap_due(T_VEC_GAIN, thr, now, 0));
	KUNIT_EXPECT_FALSE(test, ipcc_tick_swap_due(T_SPIN_GAIN, thr, now, 0));
	/* Nor does a vector task already on a P-core (no headroom). */
	KUNIT_EXPECT_FALSE(test, ipcc_tick_swap_due(0, thr, now, 0));

	/* More than half the threshold: the edge. */
	KUNIT_EXPECT_FALSE(test, ipcc_tick_swap_due(32, 64, now, 0));
	KUNIT_EXPECT_TRUE(test, ipcc_tick_swap_due(33, 64, now, 0));
	KUNIT_EXPECT_FALSE(test, ipcc_tick_swap_due(32, 65, now, 0));
	KUNIT_EXPECT_TRUE(test, ipcc_tick_swap_due(1, 0, now, 0));
	KUNIT_EXPECT_FALSE(test, ipcc_tick_swap_due(IPCC_SCORE_SCALE / 2,
						    IPCC_SCORE_SCALE, now, 0));

	/* Not before the time set by the last look; at it, yes. */
	KUNIT_EXPECT_FALSE(test, ipcc_tick_swap_due(T_VEC_GAIN, thr, now,
						    now + 1));
	KUNIT_EXPECT_TRUE(test, ipcc_tick_swap_due(T_VEC_GAIN, thr, now, now));

	/*
	 * Whenever a swap would pass ipcc_should_swap(), one of its two
	 * CPUs is due to look (each gain is bounded by its headroom).
	 */
	for (thr = 0; thr <= 128; thr += 7) {
		int ga, gb;
		bool due;

		for (ga = -64; ga <= 128; ga += 3) {
			for (gb = -64; gb <= 128; gb += 5) {
				if (!ipcc_should_swap(ga, gb, thr, now, 0,
						      4 * T_MS))
					continue;
				due = ipcc_tick_swap_due(ga, thr, now, 0) ||
				      ipcc_tick_swap_due(gb, thr, now, 0);
				KUNIT_EXPECT_TRUE(test, due);
			}
		}
	}
}

/*
 * lnl-duty (bench): a P-core runs a spin-wait task (gain 0 either way);
 * a scalar task (gain +104 to the P-core) and a vector task (+120) run
 * on E-cores. The scalar task's CPU found the swap first: it is left to
 * the vector task, whose swap passes too. Taken first by the scalar
 * task, the P-core could not go to the vector task later: that swap
 * (+120 - 104 = +16) is under the threshold.
 */
static void ipcc_test_swap_outranks(struct kunit *test)
{
	int thr = IPCC_SWAP_THRESHOLD_DEFAULT;

	KUNIT_EXPECT_TRUE(test, ipcc_swap_outranks(104, 120, 0, thr));
	KUNIT_EXPECT_FALSE(test, ipcc_swap_outranks(120, 104, 0, thr));
	KUNIT_EXPECT_FALSE(test, ipcc_should_swap(120, -104, thr, 0, 0, 0));

	/* Equal gains: the one that looked first keeps it. */
	KUNIT_EXPECT_FALSE(test, ipcc_swap_outranks(120, 120, 0, thr));
	/* The other task's swap would not pass: this one goes ahead. */
	KUNIT_EXPECT_FALSE(test, ipcc_swap_outranks(60, 100, -90, thr));
	KUNIT_EXPECT_FALSE(test, ipcc_swap_outranks(10, 50, 0, thr));
	KUNIT_EXPECT_TRUE(test, ipcc_swap_outranks(10, 70, 0, thr));
}

static void ipcc_test_swap_candidate(struct kunit *test)
{
	int thr = IPCC_SWAP_THRESHOLD_DEFAULT;
	u64 rl = 4 * T_MS, now = 100 * T_MS;

	/* Worth it, nothing in the way. */
	KUNIT_EXPECT_EQ(test, ipcc_swap_candidate(120, 40, thr, now, 0, rl,
						  false), IPCC_LOOK_FOUND);
	KUNIT_EXPECT_EQ(test, ipcc_swap_candidate(120, 40, thr, now,
						  now - rl, rl, false),
			IPCC_LOOK_FOUND);
	/* Worth it, but a CPU swapped within the rate limit: later. */
	KUNIT_EXPECT_EQ(test, ipcc_swap_candidate(120, 40, thr, now,
						  now - rl + 1, rl, false),
			IPCC_LOOK_LATER);
	/* Worth it, but the partner is still being swapped: later. */
	KUNIT_EXPECT_EQ(test, ipcc_swap_candidate(120, 40, thr, now, 0, rl,
						  true), IPCC_LOOK_LATER);
	/* Not worth it, whatever the rate limit and the partner's swap. */
	KUNIT_EXPECT_EQ(test, ipcc_swap_candidate(thr, 0, thr, now, 0, rl,
						  false), IPCC_LOOK_NONE);
	KUNIT_EXPECT_EQ(test, ipcc_swap_candidate(thr, 0, thr, now, now, rl,
						  true), IPCC_LOOK_NONE);
	KUNIT_EXPECT_EQ(test, ipcc_swap_candidate(400, -301, thr, now, now,
						  rl, true), IPCC_LOOK_NONE);
	/* Edges of the gain rules, as ipcc_should_swap(). */
	KUNIT_EXPECT_EQ(test, ipcc_swap_candidate(thr, 1, thr, now, now, rl,
						  false), IPCC_LOOK_LATER);
	KUNIT_EXPECT_EQ(test, ipcc_swap_candidate(400, -300, thr, now, now,
						  rl, false), IPCC_LOOK_LATER);
}

/*
 * Headroom of a dot-product task on an E-core of the emulated parts: HFI
 * performance 63 on a P-core, 26 on an E-core, normalised 253 - 104.
 */
#define T_DOT_HEADROOM	149

static void ipcc_test_lag_update(struct kunit *test)
{
	u16 lag = 0;
	int i;

	/* On an E-core: the headroom comes in, an eighth goes. */
	lag = ipcc_lag_update(lag, T_DOT_HEADROOM);
	KUNIT_EXPECT_EQ(test, lag, T_DOT_HEADROOM);
	KUNIT_EXPECT_EQ(test, ipcc_lag_update(lag, T_DOT_HEADROOM),
			T_DOT_HEADROOM - DIV_ROUND_UP(T_DOT_HEADROOM, 8) +
			T_DOT_HEADROOM);
	/* It settles at eight ticks' headroom, less rounding. */
	for (i = 0; i < 200; i++)
		lag = ipcc_lag_update(lag, T_DOT_HEADROOM);
	KUNIT_EXPECT_LE(test, lag, 8 * T_DOT_HEADROOM);
	KUNIT_EXPECT_GE(test, lag, 8 * T_DOT_HEADROOM - 8);
	/* On a P-core it goes: below half in six ticks, to 0 in the end. */
	for (i = 0; i < 6; i++)
		lag = ipcc_lag_update(lag, 0);
	KUNIT_EXPECT_LT(test, lag, 4 * T_DOT_HEADROOM);
	for (i = 0; i < 200; i++)
		lag = ipcc_lag_update(lag, 0);
	KUNIT_EXPECT_EQ(test, lag, 0);
	/* The largest lag decays rather than wraps; no negative headroom. */
	KUNIT_EXPECT_EQ(test, ipcc_lag_update(U16_MAX, IPCC_SCORE_SCALE),
			U16_MAX - 8192 + IPCC_SCORE_SCALE);
	KUNIT_EXPECT_EQ(test, ipcc_lag_update(8, -100), 7);
	KUNIT_EXPECT_EQ(test, ipcc_lag_update(1, 0), 0);
}

static void ipcc_test_rotate_candidate(struct kunit *test)
{
	int thr = IPCC_SWAP_THRESHOLD_DEFAULT, h = T_DOT_HEADROOM;
	unsigned int ahead = 300, lag = ahead + IPCC_ROTATE_TICKS * h;
	u64 rl = 4 * T_MS, now = 100 * T_MS;

	/* One class, E-core (looking) and P-core: turns by lag. */
	KUNIT_EXPECT_EQ(test, ipcc_rotate_candidate(h, -h, lag + 1, ahead, thr,
						    now, 0, rl, false),
			IPCC_LOOK_FOUND);
	KUNIT_EXPECT_EQ(test, ipcc_rotate_candidate(h, -h, lag, ahead, thr,
						    now, 0, rl, false),
			IPCC_LOOK_LATER);
	KUNIT_EXPECT_EQ(test, ipcc_rotate_candidate(h, -h, 0, ahead, thr,
						    now, 0, rl, false),
			IPCC_LOOK_LATER);
	/* Rate limit and a pending swap wait, as for a gain swap. */
	KUNIT_EXPECT_EQ(test, ipcc_rotate_candidate(h, -h, lag + 1, ahead, thr,
						    now, now - rl + 1, rl,
						    false), IPCC_LOOK_LATER);
	KUNIT_EXPECT_EQ(test, ipcc_rotate_candidate(h, -h, lag + 1, ahead, thr,
						    now, now - rl, rl, false),
			IPCC_LOOK_FOUND);
	KUNIT_EXPECT_EQ(test, ipcc_rotate_candidate(h, -h, lag + 1, ahead, thr,
						    now, 0, rl, true),
			IPCC_LOOK_LATER);
	/* Up to the threshold the pair loses nothing; above, a gain swap. */
	KUNIT_EXPECT_EQ(test, ipcc_rotate_candidate(h, thr - h, lag + 1, ahead,
						    thr, now, 0, rl, false),
			IPCC_LOOK_FOUND);
	KUNIT_EXPECT_EQ(test, ipcc_rotate_candidate(h, thr + 1 - h, lag + 1,
						    ahead, thr, now, 0, rl,
						    false), IPCC_LOOK_NONE);
	/* Never a turn that loses throughput, nor one down to an E-core. */
	KUNIT_EXPECT_EQ(test, ipcc_rotate_candidate(h, -h - 1, lag + 1, ahead,
						    thr, now, 0, rl, false),
			IPCC_LOOK_NONE);
	KUNIT_EXPECT_EQ(test, ipcc_rotate_candidate(-h, h, lag + 1, ahead, thr,
						    now, 0, rl, false),
			IPCC_LOOK_NONE);
	KUNIT_EXPECT_EQ(test, ipcc_rotate_candidate(0, 0, lag + 1, ahead, thr,
						    now, 0, rl, false),
			IPCC_LOOK_NONE);
}

/*
 * A turn worth less than a swap of the ``swap_threshold`` gain is not
 * taken. The favoured P-core of the emulated Raptor Lake HX part reports
 * class-0 performance 67 where the other P-cores report 63 (269 and 253
 * normalised; 161 and 151 beside a busy sibling): a class-0 task on
 * another P-core settles at a lag of eight ticks of its 16 headroom, the
 * favoured core's task at none, and by the gain alone (10) the two would
 * trade places every few ticks. By the floor they never do; with the
 * threshold at 0 the rule is the gain's. A dot-product task on an E-core
 * and one on a P-core thread beside a busy sibling (151 and 104: gain 47,
 * below the threshold) still take turns, less often.
 */
static void ipcc_test_rotate_floor(struct kunit *test)
{
	int thr = IPCC_SWAP_THRESHOLD_DEFAULT, g_fav = 161 - 151, g_dot = 47;
	u64 rl = 4 * T_MS, now = 100 * T_MS;
	u16 lag_p = 0, lag_fav = 0, lag_e = 0, lag_dot = 0;
	int i;

	for (i = 0; i < 200; i++) {
		lag_p = ipcc_lag_update(lag_p, 269 - 253);
		lag_fav = ipcc_lag_update(lag_fav, 0);
		lag_e = ipcc_lag_update(lag_e, T_DOT_HEADROOM);
		lag_dot = ipcc_lag_update(lag_dot, 0);
	}

	KUNIT_EXPECT_EQ(test, ipcc_rotate_candidate(g_fav, -g_fav, lag_p,
						    lag_fav, thr, now, 0, rl,
						    false),
			IPCC_LOOK_LATER);
	KUNIT_EXPECT_EQ(test, ipcc_rotate_candidate(g_fav, -g_fav, lag_p,
						    lag_fav, 0, now, 0, rl,
						    false),
			IPCC_LOOK_FOUND);
	KUNIT_EXPECT_EQ(test, ipcc_rotate_candidate(g_dot, -g_dot, lag_e,
						    lag_dot, thr, now, 0, rl,
						    false),
			IPCC_LOOK_FOUND);
	/* A lag of exactly four ticks of the threshold: not yet. */
	KUNIT_EXPECT_EQ(test, ipcc_rotate_candidate(g_dot, -g_dot,
						    IPCC_ROTATE_TICKS * thr,
						    0, thr, now, 0, rl, false),
			IPCC_LOOK_LATER);
}

static void ipcc_test_rotation_busy(struct kunit *test)
{
	/* Runnable three quarters of the time or more: busy. */
	KUNIT_EXPECT_TRUE(test, ipcc_rotation_busy(IPCC_ROTATE_BUSY));
	KUNIT_EXPECT_TRUE(test, ipcc_rotation_busy(SCHED_CAPACITY_SCALE));
	KUNIT_EXPECT_FALSE(test, ipcc_rotation_busy(IPCC_ROTATE_BUSY - 1));
	KUNIT_EXPECT_FALSE(test, ipcc_rotation_busy(0));
	/*
	 * Running 6 ms of every 10 ms (bench's lnl-duty spin-wait tasks),
	 * the PELT average (32 ms half-life) swings between 0.574 and 0.626
	 * of the scale: never busy. A busy task that shares its CPU stays
	 * runnable all the time, near the scale.
	 */
	KUNIT_EXPECT_FALSE(test,
			   ipcc_rotation_busy(SCHED_CAPACITY_SCALE * 626 / 1000));
	KUNIT_EXPECT_TRUE(test,
			  ipcc_rotation_busy(SCHED_CAPACITY_SCALE * 95 / 100));
}

static void ipcc_test_swap_holds(struct kunit *test)
{
	const u8 others = IPCC_TASK_OVERRIDDEN | IPCC_TASK_MISFIT |
			  IPCC_TASK_STEADY;

	/* Halfway through a swap: held, whatever the cooldown says. */
	KUNIT_EXPECT_TRUE(test, ipcc_swap_holds(IPCC_TASK_SWAPPING, false));
	KUNIT_EXPECT_TRUE(test, ipcc_swap_holds(IPCC_TASK_SWAPPING, true));
	/* Moved by a swap, not run since: held within the cooldown only. */
	KUNIT_EXPECT_TRUE(test, ipcc_swap_holds(IPCC_TASK_SWAPPED, true));
	KUNIT_EXPECT_FALSE(test, ipcc_swap_holds(IPCC_TASK_SWAPPED, false));
	KUNIT_EXPECT_TRUE(test, ipcc_swap_holds(IPCC_TASK_SWAPPED | others,
						true));
	/* A cooldown from a pull, or the other flags, hold nothing. */
	KUNIT_EXPECT_FALSE(test, ipcc_swap_holds(0, true));
	KUNIT_EXPECT_FALSE(test, ipcc_swap_holds(others, true));
	KUNIT_EXPECT_FALSE(test, ipcc_swap_holds(others, false));
}

static void ipcc_test_unknown_rotatable(struct kunit *test)
{
	/* Beside a busy sibling, once the debounce had its chance. */
	KUNIT_EXPECT_TRUE(test, ipcc_unknown_rotatable(true,
						       IPCC_UNKNOWN_RUNTIME_NS));
	KUNIT_EXPECT_TRUE(test, ipcc_unknown_rotatable(true, U64_MAX));
	/* Not yet: it may be classified where it runs. */
	KUNIT_EXPECT_FALSE(test,
			   ipcc_unknown_rotatable(true,
						  IPCC_UNKNOWN_RUNTIME_NS - 1));
	KUNIT_EXPECT_FALSE(test, ipcc_unknown_rotatable(true, 0));
	/* Alone on its core its readings are trusted: it stays unknown. */
	KUNIT_EXPECT_FALSE(test, ipcc_unknown_rotatable(false, U64_MAX));
}

/*
 * Four equal dot-product tasks on two P-cores and two E-cores, tick by
 * tick (4 ms), with the rules of the tick's look: the lag, the rotation
 * rule, the 4 ms rate limit and the default 20 ms cooldown (5 ticks) of
 * both tasks after a swap. Each task gets between 40% and 60% of its
 * time on a P-core, and a pair trades places every 8 to 10 ticks on
 * average, as %IPCC_ROTATE_TICKS says; without rotation the E-cores' tasks
 * would get none.
 */
static void ipcc_test_rotation_shares(struct kunit *test)
{
	enum { NT = 4, TICKS = 500, COOL = 5 };
	int thr = IPCC_SWAP_THRESHOLD_DEFAULT, h = T_DOT_HEADROOM;
	int cpu_of[NT] = { 0, 1, 2, 3 }, ptime[NT] = { 0 };
	int moved[NT] = { -COOL, -COOL, -COOL, -COOL };
	u64 last_swap[NT] = { 0 };
	int t, i, j, swaps = 0, gap = TICKS;
	u16 lag[NT] = { 0 };

	/* CPUs 0, 1: P-cores; 2, 3: E-cores. */
	for (t = 0; t < TICKS; t++) {
		for (i = 0; i < NT; i++) {
			bool p = cpu_of[i] < 2;

			ptime[i] += p;
			lag[i] = ipcc_lag_update(lag[i], p ? 0 : h);
		}
		for (i = 0; i < NT; i++) {
			int best = -1;

			if (cpu_of[i] < 2 || t - moved[i] < COOL)
				continue;
			for (j = 0; j < NT; j++) {
				enum ipcc_look look;
				u64 last;

				if (cpu_of[j] >= 2 || t - moved[j] < COOL)
					continue;
				last = max(last_swap[cpu_of[i]],
					   last_swap[cpu_of[j]]);
				look = ipcc_rotate_candidate(h, -h, lag[i],
							     lag[j], thr,
							     (t + 1) * 4 * T_MS,
							     last, 4 * T_MS,
							     false);
				if (look == IPCC_LOOK_FOUND &&
				    (best < 0 || lag[j] < lag[best]))
					best = j;
			}
			if (best < 0)
				continue;
			swap(cpu_of[i], cpu_of[best]);
			moved[i] = t;
			moved[best] = t;
			last_swap[cpu_of[i]] = (t + 1) * 4 * T_MS;
			last_swap[cpu_of[best]] = (t + 1) * 4 * T_MS;
			swaps++;
		}
	}

	for (i = 0; i < NT; i++) {
		KUNIT_EXPECT_GE(test, ptime[i] * 10, TICKS * 4);
		KUNIT_EXPECT_LE(test, ptime[i] * 10, TICKS * 6);
	}
	if (swaps)
		gap = 2 * TICKS / swaps;
	KUNIT_EXPECT_GE(test, gap, 8);
	KUNIT_EXPECT_LE(test, gap, 10);
}

static void ipcc_test_swap_scan_wait(struct kunit *test)
{
	u64 rl = 4 * T_MS, max = 32 * T_MS, w = 0;
	int i;

	/* The first look, a found swap and a new class start over. */
	KUNIT_EXPECT_EQ(test, ipcc_swap_scan_wait(0, IPCC_LOOK_NONE, true), rl);
	KUNIT_EXPECT_EQ(test, ipcc_swap_scan_wait(max, IPCC_LOOK_FOUND, true),
			rl);
	KUNIT_EXPECT_EQ(test, ipcc_swap_scan_wait(max, IPCC_LOOK_NONE, false),
			rl);
	KUNIT_EXPECT_EQ(test, ipcc_swap_scan_wait(16 * T_MS, IPCC_LOOK_FOUND,
						  false), rl);
	/* So does a swap worth making that has to wait. */
	KUNIT_EXPECT_EQ(test, ipcc_swap_scan_wait(max, IPCC_LOOK_LATER, true),
			rl);
	KUNIT_EXPECT_EQ(test, ipcc_swap_scan_wait(2 * rl, IPCC_LOOK_LATER,
						  true), rl);

	/* Fruitless looks for one class: 4, 8, 16, 32, 32 ms. */
	w = ipcc_swap_scan_wait(w, IPCC_LOOK_NONE, true);
	KUNIT_EXPECT_EQ(test, w, rl);
	w = ipcc_swap_scan_wait(w, IPCC_LOOK_NONE, true);
	KUNIT_EXPECT_EQ(test, w, 2 * rl);
	w = ipcc_swap_scan_wait(w, IPCC_LOOK_NONE, true);
	KUNIT_EXPECT_EQ(test, w, 4 * rl);
	w = ipcc_swap_scan_wait(w, IPCC_LOOK_NONE, true);
	KUNIT_EXPECT_EQ(test, w, max);
	for (i = 0; i < 100; i++)
		w = ipcc_swap_scan_wait(w, IPCC_LOOK_NONE, true);
	KUNIT_EXPECT_EQ(test, w, max);

	/* Never below the swap rate limit, never above the cap. */
	for (w = 1; w < 2 * max; w += T_MS / 3) {
		KUNIT_EXPECT_GE(test, ipcc_swap_scan_wait(w, IPCC_LOOK_NONE,
							  true), rl);
		KUNIT_EXPECT_LE(test, ipcc_swap_scan_wait(w, IPCC_LOOK_NONE,
							  true), max);
	}
}

static void ipcc_test_class_misfit(struct kunit *test)
{
	int thr = IPCC_MISFIT_THRESHOLD_DEFAULT;

	/* Vector class on an E-core, a P-core is much better. */
	KUNIT_EXPECT_TRUE(test, ipcc_class_misfit(442, 1024, thr));
	/* Spin-wait class: equal scores are never a misfit. */
	KUNIT_EXPECT_FALSE(test, ipcc_class_misfit(482, 482, thr));
	KUNIT_EXPECT_FALSE(test, ipcc_class_misfit(482, 482, 0));
	/* Already on the better CPU (negative difference). */
	KUNIT_EXPECT_FALSE(test, ipcc_class_misfit(1024, 442, 0));

	/* Unclassified tasks have the neutral score everywhere. */
	KUNIT_EXPECT_FALSE(test, ipcc_class_misfit(IPCC_SCORE_NEUTRAL,
						   IPCC_SCORE_NEUTRAL, 0));

	/* Threshold edge: the difference must exceed it. */
	KUNIT_EXPECT_FALSE(test, ipcc_class_misfit(500, 756, 256));
	KUNIT_EXPECT_TRUE(test, ipcc_class_misfit(500, 757, 256));
	KUNIT_EXPECT_TRUE(test, ipcc_class_misfit(500, 501, 0));
	KUNIT_EXPECT_FALSE(test, ipcc_class_misfit(0, IPCC_SCORE_SCALE,
						   IPCC_SCORE_SCALE));

	/* Score 0: the hardware asks not to use that CPU. */
	KUNIT_EXPECT_FALSE(test, ipcc_class_misfit(442, 0, thr));
	KUNIT_EXPECT_FALSE(test, ipcc_class_misfit(0, 0, 0));
	KUNIT_EXPECT_TRUE(test, ipcc_class_misfit(0, 300, thr));
}

/*
 * The wake-up path's fit, by class: only a CPU the task fits by
 * utilization can turn into one it does not fit, at the misfit margin.
 */
static void ipcc_test_wake_fits(struct kunit *test)
{
	int thr = IPCC_MISFIT_THRESHOLD_DEFAULT;

	/* Vector class on an E-core, a P-core much better: does not fit. */
	KUNIT_EXPECT_EQ(test, ipcc_wake_fits(1, 442, 1024, thr), 0);
	/* Fits but for uclamp_min: a class misfit does not fit either. */
	KUNIT_EXPECT_EQ(test, ipcc_wake_fits(-1, 442, 1024, thr), 0);
	/* Too small by utilization already: stays so. */
	KUNIT_EXPECT_EQ(test, ipcc_wake_fits(0, 442, 1024, thr), 0);
	KUNIT_EXPECT_EQ(test, ipcc_wake_fits(0, 1024, 442, thr), 0);

	/* The margin is strict, as for the misfit mark. */
	KUNIT_EXPECT_EQ(test, ipcc_wake_fits(1, 500, 756, 256), 1);
	KUNIT_EXPECT_EQ(test, ipcc_wake_fits(1, 500, 757, 256), 0);
	KUNIT_EXPECT_EQ(test, ipcc_wake_fits(-1, 500, 756, 256), -1);

	/* A class that gains nothing, or loses, on a bigger CPU fits. */
	KUNIT_EXPECT_EQ(test, ipcc_wake_fits(1, 482, 482, 0), 1);
	KUNIT_EXPECT_EQ(test, ipcc_wake_fits(1, 1024, 442, 0), 1);

	/* No bigger CPU, or scores unknown: util_fits_cpu() decides. */
	KUNIT_EXPECT_EQ(test, ipcc_wake_fits(1, 442, -1, 0), 1);
	KUNIT_EXPECT_EQ(test, ipcc_wake_fits(1, -1, 1024, 0), 1);
	KUNIT_EXPECT_EQ(test, ipcc_wake_fits(-1, -1, -1, 0), -1);

	/* A bigger CPU scoring 0 (the hardware asks not to use it). */
	KUNIT_EXPECT_EQ(test, ipcc_wake_fits(1, 442, 0, thr), 1);
}

static void ipcc_test_cooldown(struct kunit *test)
{
	u32 cd = 5;

	/* Never migrated by class. */
	KUNIT_EXPECT_FALSE(test, ipcc_in_cooldown(1000, 0, cd));
	KUNIT_EXPECT_FALSE(test, ipcc_in_cooldown(0, 0, cd));

	/* Within the cooldown, and its edge. */
	KUNIT_EXPECT_TRUE(test, ipcc_in_cooldown(1000, 1000, cd));
	KUNIT_EXPECT_TRUE(test, ipcc_in_cooldown(1004, 1000, cd));
	KUNIT_EXPECT_FALSE(test, ipcc_in_cooldown(1005, 1000, cd));
	KUNIT_EXPECT_FALSE(test, ipcc_in_cooldown(100000, 1000, cd));

	/* Across the wrap of the 32-bit jiffies. */
	KUNIT_EXPECT_TRUE(test, ipcc_in_cooldown(2, U32_MAX - 1, cd));
	KUNIT_EXPECT_FALSE(test, ipcc_in_cooldown(3, U32_MAX - 1, cd));

	/* No cooldown configured. */
	KUNIT_EXPECT_FALSE(test, ipcc_in_cooldown(1000, 1000, 0));
}

/*
 * A class misfit is pulled only by a CPU where its class gains more than
 * the threshold, not by any bigger CPU: an E-core of a part that also
 * has P-cores is bigger than an LP E-core and may score about the same.
 */
static void ipcc_test_misfit_pull_ok(struct kunit *test)
{
	/* LP E-core 400, P-core 800, E-core 500: only the P-core pulls. */
	KUNIT_EXPECT_TRUE(test, ipcc_misfit_pull_ok(true, 400, 800, 256));
	KUNIT_EXPECT_FALSE(test, ipcc_misfit_pull_ok(true, 400, 500, 256));
	/* The margin is strict, as for marking. */
	KUNIT_EXPECT_FALSE(test, ipcc_misfit_pull_ok(true, 400, 656, 256));
	KUNIT_EXPECT_TRUE(test, ipcc_misfit_pull_ok(true, 400, 657, 256));
	/* A CPU the task may not use never pulls it. */
	KUNIT_EXPECT_FALSE(test, ipcc_misfit_pull_ok(false, 0, 1024, 0));
	/* A CPU that scores 0 for the class never pulls it. */
	KUNIT_EXPECT_FALSE(test, ipcc_misfit_pull_ok(true, 0, 0, 0));
}

/*
 * A task marked a class misfit that runs on another CPU than the one that
 * marked it has moved: its tick starts its cooldown and drops the mark.
 * On the CPU that marked it, nothing changes.
 */
static void ipcc_test_misfit_moved(struct kunit *test)
{
	struct task_struct *p, *other;

	p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	other = kunit_kzalloc(test, sizeof(*other), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NOT_NULL(test, other);
	p->ipcc = (struct sched_ipcc_task)SCHED_IPCC_TASK_INIT;
	p->ipcc.flags = IPCC_TASK_MISFIT | IPCC_TASK_OVERRIDDEN;

	preempt_disable();
	this_cpu_write(ipcc_misfit_marked, p);
	ipcc_misfit_tick(p);
	KUNIT_EXPECT_EQ(test, p->ipcc.last_migrate, 0U);
	KUNIT_EXPECT_EQ(test, p->ipcc.flags,
			IPCC_TASK_MISFIT | IPCC_TASK_OVERRIDDEN);

	this_cpu_write(ipcc_misfit_marked, other);
	ipcc_misfit_tick(p);
	this_cpu_write(ipcc_misfit_marked, NULL);
	preempt_enable();

	KUNIT_EXPECT_NE(test, p->ipcc.last_migrate, 0U);
	/* Only the mark goes; an override stays. */
	KUNIT_EXPECT_EQ(test, p->ipcc.flags, IPCC_TASK_OVERRIDDEN);
}

/*
 * Ties are broken by the task a balance would move, and only where that
 * task is known without the runqueue's lock: the running task of a
 * runqueue that has no other, allowed on the destination, in a domain
 * with asymmetric CPUs. A busier runqueue's running task is the one task
 * detach_tasks() never moves.
 */
static void ipcc_test_tie_task(struct kunit *test)
{
	struct task_struct *p, *got;
	struct sched_domain *sd;
	struct rq *rq;

	if (nr_cpu_ids < 2)
		kunit_skip(test, "needs 2 possible CPUs, have %u", nr_cpu_ids);

	p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	rq = kunit_kzalloc(test, sizeof(*rq), GFP_KERNEL);
	sd = kunit_kzalloc(test, sizeof(*sd), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NOT_NULL(test, rq);
	KUNIT_ASSERT_NOT_NULL(test, sd);

	p->sched_class = &fair_sched_class;
	p->ipcc = (struct sched_ipcc_task)SCHED_IPCC_TASK_INIT;
	p->cpus_ptr = &p->cpus_mask;
	cpumask_set_cpu(0, &p->cpus_mask);
	cpumask_set_cpu(1, &p->cpus_mask);
	p->nr_cpus_allowed = 2;
	rq->cpu = 0;
	rq->nr_running = 1;
	RCU_INIT_POINTER(rq->curr, p);
	sd->flags = SD_ASYM_PACKING;

	rcu_read_lock();
	ipcc_tie_gain(sd, rq, 1, &got);
	KUNIT_EXPECT_PTR_EQ(test, got, p);
	sd->flags = SD_ASYM_CPUCAPACITY;
	ipcc_tie_gain(sd, rq, 1, &got);
	KUNIT_EXPECT_PTR_EQ(test, got, p);

	/* Another task queued: a pull would take that one. */
	rq->nr_running = 2;
	KUNIT_EXPECT_EQ(test, ipcc_tie_gain(sd, rq, 1, &got), 0);
	KUNIT_EXPECT_PTR_EQ(test, got, NULL);
	rq->nr_running = 1;

	/* No asymmetry in the domain: classes do not decide there. */
	sd->flags = SD_SHARE_LLC;
	KUNIT_EXPECT_EQ(test, ipcc_tie_gain(sd, rq, 1, &got), 0);
	KUNIT_EXPECT_PTR_EQ(test, got, NULL);
	sd->flags = SD_ASYM_PACKING;

	/* Not allowed on the destination. */
	cpumask_clear_cpu(1, &p->cpus_mask);
	KUNIT_EXPECT_EQ(test, ipcc_tie_gain(sd, rq, 1, &got), 0);
	KUNIT_EXPECT_PTR_EQ(test, got, NULL);
	cpumask_set_cpu(1, &p->cpus_mask);

	/* Other scheduling classes and an idle CPU: none. */
	p->sched_class = &rt_sched_class;
	KUNIT_EXPECT_EQ(test, ipcc_tie_gain(sd, rq, 1, &got), 0);
	KUNIT_EXPECT_PTR_EQ(test, got, NULL);
	p->sched_class = &fair_sched_class;
	RCU_INIT_POINTER(rq->curr, NULL);
	KUNIT_EXPECT_EQ(test, ipcc_tie_gain(sd, rq, 1, &got), 0);
	KUNIT_EXPECT_PTR_EQ(test, got, NULL);
	rcu_read_unlock();
}

static void ipcc_test_task_eligibility(struct kunit *test)
{
	unsigned int cooldown = ipcc_get_cooldown_ms();
	struct task_struct *p;

	p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	p->sched_class = &fair_sched_class;
	p->nr_cpus_allowed = 2;
	p->ipcc = (struct sched_ipcc_task)SCHED_IPCC_TASK_INIT;
	KUNIT_ASSERT_EQ(test, ipcc_set_cooldown_ms(IPCC_COOLDOWN_MS_MAX), 0);

	KUNIT_EXPECT_TRUE(test, sched_ipcc_balance_movable(p));
	/* Unclassified: neutral, wherever it goes. */
	KUNIT_EXPECT_EQ(test, sched_ipcc_balance_gain(p, 0, 1), 0);

	/* A class-driven move starts the cooldown... */
	sched_ipcc_note_migrate(p);
	KUNIT_EXPECT_NE(test, p->ipcc.last_migrate, 0U);
	KUNIT_EXPECT_FALSE(test, sched_ipcc_balance_movable(p));
	KUNIT_EXPECT_EQ(test, sched_ipcc_balance_gain(p, 0, 1), 0);

	/* ... which ends. */
	p->ipcc.last_migrate = (u32)jiffies -
			       msecs_to_jiffies(IPCC_COOLDOWN_MS_MAX) - 1;
	KUNIT_EXPECT_TRUE(test, sched_ipcc_balance_movable(p));

	/* Pinned tasks, kernel threads, exiting tasks: never. */
	p->nr_cpus_allowed = 1;
	KUNIT_EXPECT_FALSE(test, sched_ipcc_balance_movable(p));
	p->nr_cpus_allowed = 2;
	p->flags = PF_KTHREAD;
	KUNIT_EXPECT_FALSE(test, sched_ipcc_balance_movable(p));
	p->flags = PF_EXITING;
	KUNIT_EXPECT_FALSE(test, sched_ipcc_balance_movable(p));
	p->flags = 0;

	/* Other scheduling classes: never. */
	p->sched_class = &rt_sched_class;
	KUNIT_EXPECT_FALSE(test, sched_ipcc_balance_movable(p));
	p->sched_class = &dl_sched_class;
	KUNIT_EXPECT_FALSE(test, sched_ipcc_balance_movable(p));

	KUNIT_EXPECT_EQ(test, ipcc_set_cooldown_ms(cooldown), 0);
}

static void ipcc_test_knobs(struct kunit *test)
{
	unsigned int swap = ipcc_get_swap_threshold();
	unsigned int misfit = ipcc_get_misfit_threshold();
	unsigned int cooldown = ipcc_get_cooldown_ms();

	KUNIT_EXPECT_EQ(test, ipcc_set_swap_threshold(0), 0);
	KUNIT_EXPECT_EQ(test, ipcc_get_swap_threshold(), 0);
	KUNIT_EXPECT_EQ(test, ipcc_set_swap_threshold(IPCC_SCORE_SCALE), 0);
	KUNIT_EXPECT_EQ(test, ipcc_set_swap_threshold(IPCC_SCORE_SCALE + 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ipcc_get_swap_threshold(), IPCC_SCORE_SCALE);

	KUNIT_EXPECT_EQ(test, ipcc_set_misfit_threshold(IPCC_SCORE_SCALE + 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ipcc_get_misfit_threshold(), misfit);

	KUNIT_EXPECT_EQ(test, ipcc_set_cooldown_ms(IPCC_COOLDOWN_MS_MAX), 0);
	KUNIT_EXPECT_EQ(test, ipcc_set_cooldown_ms(IPCC_COOLDOWN_MS_MAX + 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ipcc_get_cooldown_ms(), IPCC_COOLDOWN_MS_MAX);
	KUNIT_EXPECT_EQ(test, ipcc_cooldown_jiffies,
			msecs_to_jiffies(IPCC_COOLDOWN_MS_MAX));
	KUNIT_EXPECT_EQ(test, ipcc_set_cooldown_ms(0), 0);
	KUNIT_EXPECT_EQ(test, ipcc_cooldown_jiffies, 0UL);

	KUNIT_EXPECT_EQ(test, ipcc_set_swap_threshold(swap), 0);
	KUNIT_EXPECT_EQ(test, ipcc_set_misfit_threshold(misfit), 0);
	KUNIT_EXPECT_EQ(test, ipcc_set_cooldown_ms(cooldown), 0);
}

static struct kunit_case ipcc_balance_test_cases[] = {
	KUNIT_CASE(ipcc_test_pick_pull),
	KUNIT_CASE(ipcc_test_pick_pull_never_worse),
	KUNIT_CASE(ipcc_test_group_tie),
	KUNIT_CASE(ipcc_test_asym_pick),
	KUNIT_CASE(ipcc_test_rq_tie),
	KUNIT_CASE(ipcc_test_should_swap_threshold),
	KUNIT_CASE(ipcc_test_should_swap_ratelimit),
	KUNIT_CASE(ipcc_test_swap_outranks),
	KUNIT_CASE(ipcc_test_tick_swap_due),
	KUNIT_CASE(ipcc_test_swap_candidate),
	KUNIT_CASE(ipcc_test_swap_scan_wait),
	KUNIT_CASE(ipcc_test_lag_update),
	KUNIT_CASE(ipcc_test_rotate_candidate),
	KUNIT_CASE(ipcc_test_rotate_floor),
	KUNIT_CASE(ipcc_test_unknown_rotatable),
	KUNIT_CASE(ipcc_test_rotation_busy),
	KUNIT_CASE(ipcc_test_swap_holds),
	KUNIT_CASE(ipcc_test_rotation_shares),
	KUNIT_CASE(ipcc_test_class_misfit),
	KUNIT_CASE(ipcc_test_wake_fits),
	KUNIT_CASE(ipcc_test_misfit_pull_ok),
	KUNIT_CASE(ipcc_test_misfit_moved),
	KUNIT_CASE(ipcc_test_tie_task),
	KUNIT_CASE(ipcc_test_cooldown),
	KUNIT_CASE(ipcc_test_task_eligibility),
	KUNIT_CASE(ipcc_test_knobs),
	{}
};

static struct kunit_suite ipcc_balance_test_suite = {
	.name = "sched_ipcc_balance",
	.test_cases = ipcc_balance_test_cases,
};

kunit_test_suite(ipcc_balance_test_suite);

#endif /* _KERNEL_SCHED_IPCC_BALANCE_KUNIT_H */
