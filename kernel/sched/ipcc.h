/* SPDX-License-Identifier: GPL-2.0 */
/*
 * IPC classes: internals shared by kernel/sched/ipcc.c (the core) and
 * kernel/sched/ipcc_debug.c (the user interfaces).
 */
#ifndef _KERNEL_SCHED_IPCC_H
#define _KERNEL_SCHED_IPCC_H

#include <linux/sched/ipcc.h>
#include <linux/types.h>

/**
 * define IPCC_KNOB_MAX_LEN - longest write accepted by an IPCC knob
 *
 * Writes longer than this many bytes are rejected with -EINVAL.
 */
#define IPCC_KNOB_MAX_LEN	32

/**
 * ipcc_gain() - gain of going from one score to another
 * @score_dst: score on the destination CPU
 * @score_src: score on the source CPU
 *
 * Return: @score_dst - @score_src; positive when the destination is
 * better.
 */
static inline int ipcc_gain(int score_dst, int score_src)
{
	return score_dst - score_src;
}

/**
 * define IPCC_SMT_YIELD - a thread's share of its core with a busy sibling
 *
 * Two SMT threads on one core together do 1.1x (a compiler) to 1.3x (a
 * renderer) the work of one thread alone, so each runs at 0.55..0.65 of
 * the core's speed: 614/1024, 0.6.
 */
#define IPCC_SMT_YIELD	614

/**
 * ipcc_smt_score() - a score as a thread sees it on a shared core
 * @score:  the CPU's score for a class, 0..%IPCC_SCORE_SCALE
 * @shared: another SMT thread of the CPU's core runs a task
 *
 * Return: @score scaled by %IPCC_SMT_YIELD when @shared, else @score.
 */
static inline int ipcc_smt_score(int score, bool shared)
{
	return shared ? score * IPCC_SMT_YIELD / IPCC_SCORE_SCALE : score;
}

int ipcc_parse_uint(const char *buf, size_t len, unsigned int min,
		    unsigned int max, unsigned int *val);
int ipcc_parse_override(const char *buf, size_t len, unsigned int nr_classes,
			pid_t *pid, int *class);

/**
 * define IPCC_SWAP_THRESHOLD_DEFAULT - default of the ``swap_threshold`` knob
 *
 * Two running tasks are swapped by class when the sum of their gains
 * exceeds this many normalised score units (1/16 of the scale): well
 * above rounding noise, well below the P/E differences of the busy
 * classes of a hybrid part.
 */
#define IPCC_SWAP_THRESHOLD_DEFAULT	64

/**
 * define IPCC_LAG_SHIFT - how fast a task's progress lag forgets
 *
 * Each tick adds the headroom of the task's class where it runs and takes
 * 1/2^IPCC_LAG_SHIFT of the lag: an eighth, so that the lag of a task
 * that stays on an E-core settles at eight ticks' headroom (about 32 ms
 * of the progress it misses at HZ=250).
 */
#define IPCC_LAG_SHIFT		3

/**
 * define IPCC_ROTATE_TICKS - lag difference that makes a rotation
 *
 * Two tasks that gain nothing together from trading places (the same
 * class on a P-core and an E-core) trade them when the one on the E-core
 * lags behind the other by more than this many ticks of its gain on the
 * other's CPU. The lag of a task on an E-core settles at 2^%IPCC_LAG_SHIFT
 * ticks of its headroom, so the rule is the same for every class and
 * score scale: with the ``cooldown_ms`` default, a pair trades places
 * about every 9 ticks (36 ms at HZ=250). The lag difference is never less
 * than this many times the ``swap_threshold`` knob, though: a small gain
 * buys longer turns, or none (ipcc_rotate_candidate()).
 */
#define IPCC_ROTATE_TICKS	4

/**
 * define IPCC_ROTATE_BUSY - how busy a task must be to take a turn
 *
 * A task takes a turn on another CPU by rotation only while its PELT
 * runnable average is at least this much of %SCHED_CAPACITY_SCALE (three
 * quarters): it is runnable most of the time. A task that sleeps part of
 * every period leaves the CPU it took idle then, and no task is queued
 * anywhere to fill it (the tasks that took turns each had a CPU).
 */
#define IPCC_ROTATE_BUSY	(SCHED_CAPACITY_SCALE * 3 / 4)

/**
 * define IPCC_MISFIT_THRESHOLD_DEFAULT - default of ``misfit_threshold``
 *
 * A task whose class scores this much better (a quarter of the scale) on
 * a bigger CPU it may use is a misfit where it runs.
 */
#define IPCC_MISFIT_THRESHOLD_DEFAULT	256

/**
 * define IPCC_COOLDOWN_MS_DEFAULT - default of the ``cooldown_ms`` knob
 *
 * Class logic leaves a task alone for this long after moving it: five
 * ticks at HZ=250, a few busy balance intervals of a small domain.
 */
#define IPCC_COOLDOWN_MS_DEFAULT	20

/**
 * define IPCC_COOLDOWN_MS_MAX - largest value of the ``cooldown_ms`` knob
 */
#define IPCC_COOLDOWN_MS_MAX		1000

int ipcc_set_mode(int mode);
unsigned int ipcc_get_debounce_ticks(void);
int ipcc_set_debounce_ticks(unsigned int ticks);
int ipcc_set_override(pid_t pid, int class);
u64 ipcc_stat_read(enum ipcc_stat stat);
int ipcc_task_turn_gain_smt(struct task_struct *p, int src_cpu, int dst_cpu,
			    bool src_shared, bool dst_shared);

void ipcc_misfit_tick(struct task_struct *curr);
void ipcc_misfit_update(void);
bool ipcc_misfit_pull_ok(bool allowed, int score_src, int score_dst,
			 int threshold);

bool ipcc_swap_outranks(int gain, int gain_other, int gain_back,
			int threshold);
/**
 * enum ipcc_look - what a look for a swap partner came to
 * @IPCC_LOOK_NONE:  nothing worth a swap
 * @IPCC_LOOK_LATER: a swap worth making that has to wait: a CPU of it is
 *                   still swapping or swapped within the rate limit, or the
 *                   partner is left to a task that gains more there
 * @IPCC_LOOK_FOUND: a swap to make now
 */
enum ipcc_look {
	IPCC_LOOK_NONE,
	IPCC_LOOK_LATER,
	IPCC_LOOK_FOUND,
};

enum ipcc_look ipcc_swap_candidate(int gain_a, int gain_b, int threshold,
				   u64 now, u64 last_swap, u64 ratelimit,
				   bool pending);
u16 ipcc_lag_update(u16 lag, int headroom);
enum ipcc_look ipcc_rotate_candidate(int gain_a, int gain_b,
				     unsigned int lag_a, unsigned int lag_b,
				     int threshold, u64 now, u64 last_swap,
				     u64 ratelimit, bool pending);
bool ipcc_unknown_rotatable(bool shared, u64 runtime);
bool ipcc_rotation_busy(unsigned long runnable);
bool ipcc_swap_holds(u8 flags, bool cooling);
bool ipcc_tick_swap_due(int headroom, int threshold, u64 now, u64 next);
u64 ipcc_swap_scan_wait(u64 prev, enum ipcc_look look, bool same);

unsigned int ipcc_get_swap_threshold(void);
int ipcc_set_swap_threshold(unsigned int val);
unsigned int ipcc_get_misfit_threshold(void);
int ipcc_set_misfit_threshold(unsigned int val);
unsigned int ipcc_get_cooldown_ms(void);
int ipcc_set_cooldown_ms(unsigned int ms);

#endif /* _KERNEL_SCHED_IPCC_H */
