/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ipcc

#if !defined(_TRACE_IPCC_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_IPCC_H

#include <linux/sched/ipcc.h>
#include <linux/tracepoint.h>

TRACE_DEFINE_ENUM(IPCC_STAT_PULL);
TRACE_DEFINE_ENUM(IPCC_STAT_GROUP_TIE);
TRACE_DEFINE_ENUM(IPCC_STAT_RQ_TIE);
TRACE_DEFINE_ENUM(IPCC_STAT_SWAP);
TRACE_DEFINE_ENUM(IPCC_STAT_MISFIT);

#define show_ipcc_kind(kind)					\
	__print_symbolic(kind,					\
			 { IPCC_STAT_PULL,	"pull" },	\
			 { IPCC_STAT_GROUP_TIE,	"group_tie" },	\
			 { IPCC_STAT_RQ_TIE,	"rq_tie" },	\
			 { IPCC_STAT_SWAP,	"swap" },	\
			 { IPCC_STAT_MISFIT,	"misfit" })

/*
 * A task's class changed: debounced from the hardware class source, or
 * set or cleared by an override. Classes are -1 when unclassified.
 */
TRACE_EVENT(sched_ipcc_class_change,
	    TP_PROTO(pid_t pid, int old_class, int new_class),
	    TP_ARGS(pid, old_class, new_class),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(int, old_class)
			     __field(int, new_class)),
	    TP_fast_assign(__entry->pid = pid;
			   __entry->old_class = old_class;
			   __entry->new_class = new_class;),
	    TP_printk("pid=%d old=%d new=%d",
		      __entry->pid, __entry->old_class, __entry->new_class)
);

/*
 * The load balancer made a class-driven decision of the given kind about
 * task pid (of the given class) between src_cpu and dst_cpu; gain is in
 * normalised score units.
 */
TRACE_EVENT(sched_ipcc_balance,
	    TP_PROTO(int src_cpu, int dst_cpu, pid_t pid, int class, int gain,
		     int kind),
	    TP_ARGS(src_cpu, dst_cpu, pid, class, gain, kind),
	    TP_STRUCT__entry(__field(int, src_cpu)
			     __field(int, dst_cpu)
			     __field(pid_t, pid)
			     __field(int, class)
			     __field(int, gain)
			     __field(int, kind)),
	    TP_fast_assign(__entry->src_cpu = src_cpu;
			   __entry->dst_cpu = dst_cpu;
			   __entry->pid = pid;
			   __entry->class = class;
			   __entry->gain = gain;
			   __entry->kind = kind;),
	    TP_printk("src_cpu=%d dst_cpu=%d pid=%d class=%d gain=%d kind=%s",
		      __entry->src_cpu, __entry->dst_cpu, __entry->pid,
		      __entry->class, __entry->gain,
		      show_ipcc_kind(__entry->kind))
);

#endif /* _TRACE_IPCC_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
