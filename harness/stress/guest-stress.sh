#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of "make stress": a classed workload on a hybrid part
# emulated by QEMU (qemu/) while everything IPCC reacts to changes under
# it.  Sourced after the host's settings:
#   STRESS_SECONDS  how long the churn runs
#   STRESS_TOOLS    directory holding ipcc-worker (the benchmark's worker)
#
# Churners, each a loop in the background with its own counter:
#   hotplug   take a random P or E CPU offline and back online
#   mode      kernel.sched_ipcc 0/1/2
#   scores    a random HFI capability of a random class and core type,
#             0 included, changed by the hardware (QMP x-hybrid-set-hfi
#             on ttyS2): a table update and its interrupt each time
#   override  pin and unpin classes of running (and just-exited) tasks
#   debounce  debounce_ticks 1..32
#   knobs     swap_threshold, misfit_threshold, cooldown_ms
#   churn     short-lived workers, killed at random moments (exits
#             while the balancer may be moving them)
# Workers execute the kind of work of their class (ipcc-worker), so the
# hardware classifies them; classes also change as they run and move.
# The long-lived workers must all answer SIGTERM at the end: none may be
# lost or stuck.  Results: "stress-count NAME N" lines and a verdict.

D=/sys/kernel/debug
S=$D/sched/ipcc
Q=/dev/ttyS2
W=$STRESS_TOOLS/ipcc-worker
C=/tmp/stress
mkdir -p $C
end=$(($(date +%s) + STRESS_SECONDS))

fail() { echo "stress: FAIL: $*"; failed=1; }

[ -x "$W" ] || { echo "stress: FAIL: no worker at $W"; exit 1; }
[ -c $Q ] || { echo "stress: FAIL: no QMP port $Q (boot a hybrid profile)"; exit 1; }
# Classes: the hardware's count, from the header of the scores file.
nclasses=$(($(head -n 1 $S/scores | wc -w) - 1))
[ "$nclasses" -gt 0 ] || { echo "stress: FAIL: no task classes (no IPCC backend)"; exit 1; }

# cpulist ("0-3,8") to words, CPU 0 excluded: it cannot go offline.
expand() {
	for r in $(echo "$1" | tr ',' ' '); do
		seq "${r%-*}" "${r#*-}"
	done | grep -vx 0
}
PE=$(expand "$(cat /sys/devices/system/cpu/online)" | tr '\n' ' ')
nth() { n=$(($2 % $1 + 1)); shift 2; eval echo \${$n}; }
pick() { set -- $1; n=$((RANDOM % $# + 1)); eval echo \${$n}; }

running() { [ "$(date +%s)" -lt "$end" ]; }
# Counters live in shell variables of each churner (no fork per count);
# a churner saves them when it ends, the end of the script adds them up.
count() { eval "cnt_$1=\$((\${cnt_$1:-0} + 1))"; }
save() { set | grep "^cnt_" >$C/cnt.$1; }
# A knob write that must succeed (the value is valid).
put() { echo "$2" >"$1" 2>/dev/null || { echo "stress: write '$2' to $1 failed"; echo >>$C/write_errors; }; }

# The QMP monitor's replies, drained and kept for counting (the port is
# raw: init made it so).  Until init did, the port echoed what it had
# received, the first bytes of the monitor's greeting, back to the
# monitor, whose JSON parser may now sit inside a string or an object
# and would refuse every command: an invalid byte (0xff) resets it, as
# QEMU's QMP specification advises.  Replies count from the one to our
# negotiation on.  The script holds the port open (fd 3) from before its
# first command to the end: a reply that reaches a tty nobody has open
# is lost, as the negotiation's once was, before the reader had opened it.
exec 3<>$Q
cat <&3 >$C/qmp.out 2>/dev/null &
qmp_reader=$!
printf '\377\n{"execute":"qmp_capabilities","id":"stress"}\n' >&3

# Long-lived workers: one per CPU, mixed classes and duty cycles, so that
# the balancer has work and the churners still get to run.
ncpu=$(grep -c ^processor /proc/cpuinfo)
i=0
: >$C/workers
while [ $i -lt "$ncpu" ]; do
	cls=$((i % 4))
	duty=$(nth 3 $i 100 60 30)
	$W "$duty" 10 "$cls" >$C/worker.$i 2>&1 &
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
		v=$((RANDOM % 256))
		[ $((RANDOM % 4)) -eq 0 ] && v=0
		printf '{"execute":"x-hybrid-set-hfi","arguments":{"core-type":"%s","class":%d,"perf":%d,"eff":%d}}\n' \
			"$(pick "p e")" $((RANDOM % nclasses)) $v $((RANDOM % 256)) >$Q
		count scores
		sleep 0.0$((RANDOM % 9 + 1))
	done
}

override() {
	while running; do
		read -r last <$C/last_short
		pid=$(pick "$workers $last")
		if [ $((RANDOM % 3)) -eq 0 ]; then
			cls=-1
		else
			cls=$((RANDOM % nclasses))
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
		$W 100 10 "$cls" >/dev/null 2>&1 &
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
for churner in hotplug mode scores override debounce knobs churn; do
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
# Every score change was answered by the hardware (none refused).
sleep 1
kill $qmp_reader 2>/dev/null
exec 3>&-
sed -n '/"id": "stress"/,$p' $C/qmp.out >$C/qmp.counted
grep '"id": "stress"' $C/qmp.counted | grep -q '"return"' ||
	fail "QMP negotiation failed: $(head -c 200 $C/qmp.out | tr -d '\r' | tr '\n' ' ')"
nok=$(grep -c '"return"' $C/qmp.counted)
nqerr=$(grep -c '"error"' $C/qmp.counted)

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
echo "stress-count qmp_replies_ok $nok"
echo "stress-count qmp_errors $nqerr"
[ "$nqerr" -eq 0 ] || fail "the hardware refused $nqerr QMP commands: $(grep -m 1 '"error"' $C/qmp.counted)"
for f in hotplug hotplug_refused mode scores override override_tried debounce \
	 knobs churn; do
	eval "echo stress-count $f \${cnt_$f:-0}"
done
nerr=$(cat $C/write_errors 2>/dev/null | wc -l)
echo "stress-count write_errors $nerr"
echo "stress-count balance_decisions $(awk '$1 != "class_changes" { n += $2 } END { print n + 0 }' $S/stats)"
cat $S/stats | sed 's/^/stress-stat /'
[ -z "$failed" ] && [ "$nerr" -eq 0 ] ||
	{ echo "stress: FAIL"; exit 1; }
echo "stress: PASS"
