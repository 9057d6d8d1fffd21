#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of "make stress": a classed workload on the emulated hybrid
# CPU while everything IPCC reacts to changes under it.  Sourced after
# the host's settings:
#   STRESS_SECONDS  how long the churn runs
#   STRESS_TOOLS    directory holding ipcc-worker (the benchmark's worker)
#
# Churners, each a loop in the background with its own counter:
#   hotplug   take a random P or E CPU offline and back online
#   mode      kernel.sched_ipcc 0/1/2
#   scores    a random score of a random class and core type, 0 included
#   classes   nr_classes 1..8, and emulated classes of running tasks
#   override  pin and unpin classes of running (and just-exited) tasks
#   debounce  debounce_ticks 1..32
#   knobs     swap_threshold, misfit_threshold, cooldown_ms
#   churn     short-lived workers, killed at random moments (exits
#             while the balancer may be moving them)
# The long-lived workers must all answer SIGTERM at the end: none may be
# lost or stuck.  Results: "stress-count NAME N" lines and a verdict.

D=/sys/kernel/debug
E=$D/ipcc_emu
S=$D/sched/ipcc
W=$STRESS_TOOLS/ipcc-worker
C=/tmp/stress
mkdir -p $C
end=$(($(date +%s) + STRESS_SECONDS))

fail() { echo "stress: FAIL: $*"; failed=1; }

[ -x "$W" ] || { echo "stress: FAIL: no worker at $W"; exit 1; }
[ -d $E ] || { echo "stress: FAIL: emulation not active (boot with ipcc_emu=)"; exit 1; }

# cpulist ("0-3,8") to words, CPU 0 excluded: it cannot go offline.
expand() {
	for r in $(echo "$1" | tr ',' ' '); do
		seq "${r%-*}" "${r#*-}"
	done | grep -vx 0
}
PE=$(expand "$(cat $E/pcpus),$(cat $E/ecpus)" | tr '\n' ' ')
nth() { n=$(($2 % $1 + 1)); shift 2; eval echo \${$n}; }
pick() { set -- $1; n=$((RANDOM % $# + 1)); eval echo \${$n}; }

running() { [ "$(date +%s)" -lt "$end" ]; }
# Counters live in shell variables of each churner (no fork per count);
# a churner saves them when it ends, the end of the script adds them up.
count() { eval "cnt_$1=\$((\${cnt_$1:-0} + 1))"; }
save() { set | grep "^cnt_" >$C/cnt.$1; }
# A knob write that must succeed (the value is valid).
put() { echo "$2" >"$1" 2>/dev/null || { echo "stress: write '$2' to $1 failed"; echo >>$C/write_errors; }; }

orig_classes=$(cat $E/nr_classes)
orig_scores=$(cat $E/scores)

# Long-lived workers: one per CPU, mixed classes and duty cycles, so that
# the balancer has work and the churners still get to run.
ncpu=$(grep -c ^processor /proc/cpuinfo)
i=0
: >$C/workers
while [ $i -lt "$ncpu" ]; do
	cls=$((i % 4))
	duty=$(nth 3 $i 100 60 30)
	sh -c "echo \$\$ $cls >$E/task_class; exec $W $duty 10 $cls" >$C/worker.$i 2>&1 &
	echo $! >>$C/workers
	i=$((i + 1))
done
echo "stress: $i workers on $ncpu CPUs; hotplug among: $PE"

hotplug() {
	while running; do
		c=$(pick "$PE")
		onl=/sys/devices/system/cpu/cpu$c/online
		if echo 0 >$onl 2>/dev/null; then
			sleep 0.$((RANDOM % 3 + 1))
			echo 1 >$onl || fail "cpu$c did not come back online"
			count hotplug
		else
			count hotplug_refused
		fi
		sleep 0.$((RANDOM % 5 + 1))
	done
}

mode() {
	while running; do
		put /proc/sys/kernel/sched_ipcc $((RANDOM % 3))
		count mode
		sleep 0.$((RANDOM % 4 + 1))
	done
	put /proc/sys/kernel/sched_ipcc 2
}

scores() {
	while running; do
		read -r n <$E/nr_classes
		v=$((RANDOM % 256))
		[ $((RANDOM % 4)) -eq 0 ] && v=0
		# Refused only when nr_classes shrank since it was read.
		if echo "$(pick "P E") $((RANDOM % n)) $v $((RANDOM % 256))" >$E/scores 2>/dev/null; then
			count scores
		else
			count scores_refused
		fi
		sleep 0.0$((RANDOM % 9 + 1))
	done
}

classes() {
	while running; do
		if [ $((RANDOM % 8)) -eq 0 ]; then
			put $E/nr_classes $((RANDOM % 8 + 1))
			count nr_classes
		fi
		pid=$(pick "$workers")
		echo "$pid $((RANDOM % 9 - 1))" >$E/task_class 2>/dev/null
		count task_class
		sleep 0.0$((RANDOM % 9 + 1))
	done
}

override() {
	while running; do
		read -r last <$C/last_short
		pid=$(pick "$workers $last")
		read -r n <$E/nr_classes
		if [ $((RANDOM % 3)) -eq 0 ]; then
			cls=-1
		else
			cls=$((RANDOM % n))
		fi
		# A pid that just exited is refused with ESRCH: fine.
		echo "$pid $cls" >$S/override 2>/dev/null && count override
		count override_tried
		sleep 0.0$((RANDOM % 9 + 1))
	done
}

debounce() {
	while running; do
		put $S/debounce_ticks $((RANDOM % 32 + 1))
		count debounce
		sleep 0.$((RANDOM % 5 + 1))
	done
	put $S/debounce_ticks 4
}

knobs() {
	while running; do
		put $S/swap_threshold $((RANDOM % 1025))
		put $S/misfit_threshold $((RANDOM % 1025))
		put $S/cooldown_ms $((RANDOM % 200))
		count knobs
		sleep 0.$((RANDOM % 5 + 1))
	done
	put $S/swap_threshold 64
	put $S/misfit_threshold 256
	put $S/cooldown_ms 20
}

churn() {
	while running; do
		cls=$((RANDOM % 4))
		sh -c "echo \$\$ $cls >$E/task_class; exec $W 100 10 $cls" >/dev/null 2>&1 &
		p=$!
		echo $p >$C/last_short
		sleep 0.0$((RANDOM % 9 + 1))
		kill -$(pick "9 15") $p 2>/dev/null
		wait $p 2>/dev/null
		count churn
	done
}

workers=$(cat $C/workers)
echo 0 >$C/last_short
# The churners run a little ahead of the workers so that they keep churning.
for churner in hotplug mode scores classes override debounce knobs churn; do
	($churner; save $churner) &
	renice -n -5 -p $! >/dev/null 2>&1
	echo $! >>$C/churners
done
for p in $(cat $C/churners); do
	wait "$p"
done

# Everything back online and to the defaults, then stop the workers.
for c in $PE; do
	[ "$(cat /sys/devices/system/cpu/cpu$c/online)" = 1 ] ||
		echo 1 >/sys/devices/system/cpu/cpu$c/online || fail "cpu$c stays offline"
done
put $E/nr_classes "$orig_classes"
echo "$orig_scores" | while read -r t k p e; do put $E/scores "$t $k $p $e"; done

nw=0
for p in $(cat $C/workers); do
	kill -TERM "$p" 2>/dev/null || fail "worker $p vanished before the end"
	nw=$((nw + 1))
done
deadline=$(($(date +%s) + 60))
for p in $(cat $C/workers); do
	while kill -0 "$p" 2>/dev/null; do
		[ "$(date +%s)" -lt "$deadline" ] || break
		sleep 0.2
	done
	kill -0 "$p" 2>/dev/null && fail "worker $p stuck: state $(cut -d' ' -f3 /proc/$p/stat)"
done
fin=$(cat $C/worker.* | grep -c '^worker .* work=')
[ "$fin" -eq "$nw" ] || fail "$fin of $nw workers reported their work"
stuck=$(for s in /proc/[0-9]*/stat; do cut -d' ' -f3 "$s" 2>/dev/null; done | grep -c D)
[ "$stuck" -eq 0 ] || fail "$stuck tasks in uninterruptible sleep"

echo "stress-count seconds $STRESS_SECONDS"
echo "stress-count workers $nw"
echo "stress-count workers_finished $fin"
for f in $C/cnt.*; do . "$f"; done
for f in hotplug hotplug_refused mode scores scores_refused nr_classes task_class override \
	 override_tried debounce knobs churn; do
	eval "echo stress-count $f \${cnt_$f:-0}"
done
nerr=$(cat $C/write_errors 2>/dev/null | wc -l)
echo "stress-count write_errors $nerr"
echo "stress-count balance_decisions $(awk '$1 != "class_changes" { n += $2 } END { print n + 0 }' $S/stats)"
cat $S/stats | sed 's/^/stress-stat /'
[ -z "$failed" ] && [ "$nerr" -eq 0 ] ||
	{ echo "stress: FAIL"; exit 1; }
echo "stress: PASS"
