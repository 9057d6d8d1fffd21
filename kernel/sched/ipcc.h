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

int ipcc_parse_uint(const char *buf, size_t len, unsigned int min,
		    unsigned int max, unsigned int *val);
int ipcc_parse_debounce(const char *buf, size_t len, unsigned int *ticks);
int ipcc_parse_override(const char *buf, size_t len, unsigned int nr_classes,
			pid_t *pid, int *class);

int ipcc_set_mode(int mode);
unsigned int ipcc_get_debounce_ticks(void);
int ipcc_set_debounce_ticks(unsigned int ticks);
int ipcc_set_override(pid_t pid, int class);
u64 ipcc_stat_read(enum ipcc_stat stat);

#endif /* _KERNEL_SCHED_IPCC_H */
