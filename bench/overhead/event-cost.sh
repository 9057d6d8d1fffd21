#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Cost per event of the series on busy CPUs, in guest instructions: the
# tick (the class read and what mode 1 and 2 add to it) and one pass of
# the load balancer, mode 1 and mode 2 against mode 0, in one boot.
#
# usage: bench/overhead/event-cost.sh [REPS] [SECONDS]
#   PROFILE (default adl-hw), KERNEL (default the harness's build);
#   NOIPCC_KERNEL=bzImage adds a boot of a kernel built without the
#   series, whose runs count as mode "none".
#   QEMU runs with -icount shift=3,sleep=off: every instruction takes 8 ns
#   of guest time, so the guest time of a run is its instruction count and
#   host load changes nothing.  In each repetition (default 5) and mode
#   (0, 1, 2; the order rotates per repetition) ipcc-steal runs twice for
#   SECONDS (default 2) of guest time:
#     iso  one pinned spinner on each CPU but the first, those CPUs in an
#          isolated cpuset partition: no sched domain, so no balancing; the
#          kernel's work is the tick
#     dom  one unpinned spinner per CPU, the profile's domains: the tick and
#          the balancer's passes on a busy machine where nothing needs to
#          move
#   The spinners count their instructions (ipcc-steal), the rest of the
#   run's instructions is the kernel's ("other").  Per mode, the median
#   over the repetitions of other per tick (iso) gives the tick's cost;
#   the dom runs' excess over their ticks at that cost, divided by the
#   balancer's passes (/proc/schedstat lb_count), gives a pass's cost.
#   Mode 1 and 2 minus mode 0 are the series' costs.  Writes
#   out/bench/event-cost.json; the log also has the ipcc stats after each
#   dom run (swaps there are the turns equal tasks take).
. "$(dirname "$0")/../../harness/lib.sh"

reps=${1:-5}
secs=${2:-2}
export PROFILE=${PROFILE:-adl-hw}
[[ $reps =~ ^[1-9][0-9]*$ ]] || die "REPS must be a positive number, not '$reps'"
[[ $secs =~ ^[1-9][0-9]*$ ]] || die "SECONDS must be a positive whole number, not '$secs'"
"$REPO/bench/build-guest.sh" || exit 1
"$HARNESS/build.sh" initramfs || exit 1
kern=${KERNEL:-$BUILD/arch/x86/boot/bzImage}
[ -f "$kern" ] || die "no kernel at $kern: make build"

guest=$(mktemp)
cat >"$guest" <<EOF
#!/bin/sh
# A kernel without the series has one mode, "none".
modes="0 1 2"
[ -f /proc/sys/kernel/sched_ipcc ] || modes=none
setmode() {
	[ "\$1" = none ] || echo "\$1" >/proc/sys/kernel/sched_ipcc
}
echo 1 >/proc/sys/kernel/sched_schedstats || exit 1
cg=/sys/fs/cgroup
mount -t cgroup2 none \$cg || exit 1
echo +cpuset >\$cg/cgroup.subtree_control || exit 1
mkdir \$cg/iso
n=\$(nproc)
echo 1-\$((n - 1)) >\$cg/iso/cpuset.cpus || exit 1
set -- \$modes
for r in \$(seq $reps); do
	for m in "\$@"; do
		setmode \$m || exit 1
		echo isolated >\$cg/iso/cpuset.cpus.partition
		p=\$(cat \$cg/iso/cpuset.cpus.partition)
		[ "\$p" = isolated ] || { echo "partition: \$p"; exit 1; }
		echo "iso \$m \$r \$(sh -c "echo \\\$\\\$ >\$cg/iso/cgroup.procs && exec ipcc-steal $secs \$((n - 1)) 1")"
		echo member >\$cg/iso/cpuset.cpus.partition
		echo "dom \$m \$r \$(ipcc-steal $secs \$n)"
		[ \$m = none ] ||
			echo "stats \$m \$r \$(tr '\\n' ' ' </sys/kernel/debug/sched/ipcc/stats)"
	done
	# Rotate the order: 0 1 2, 1 2 0, 2 0 1, ...
	first=\$1
	shift
	set -- "\$@" \$first
done
EOF
logdir=$(new_logdir event-cost)
KERNEL=$kern QEMU_ICOUNT=3 "$HARNESS/boot.sh" script "$logdir/boot" "$guest" ||
	die "guest run failed; see $logdir/boot"
logs=$logdir/boot/output.log
if [ -n "${NOIPCC_KERNEL:-}" ]; then
	KERNEL=$NOIPCC_KERNEL QEMU_ICOUNT=3 "$HARNESS/boot.sh" script \
		"$logdir/noipcc" "$guest" || die "guest run failed; see $logdir/noipcc"
	logs+=" $logdir/noipcc/output.log"
fi
rm -f "$guest"
mkdir -p "$OUT/bench"
# shellcheck disable=SC2086
python3 "$REPO/bench/overhead/event_cost.py" "$OUT/bench/event-cost.json" \
	"$PROFILE" $logs
