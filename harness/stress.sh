#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make stress [PROFILE=adl-hw|mtl-hw|lnl-hw] [MINUTES=n]: boot the debug
# kernel (config/debug.config: lockdep, KASAN, UBSAN, KFENCE, ...) on a
# hybrid part emulated by our QEMU and run guest-stress.sh: a classed
# workload while CPUs go on and offline, the hardware changes its HFI
# table and every IPCC knob churns.  Passes when the guest script
# passes (every worker finished, nothing stuck) and the console shows no
# splat of any kind.  With $IPCC_RESULTS set (make test) it records one
# case per check.
. "$(dirname "$0")/lib.sh"

profile=${PROFILE:-adl-hw}
minutes=${MINUTES:-10}
case $profile in adl-hw | mtl-hw | lnl-hw) ;; *) die "stress runs on the hybrid profiles: adl-hw, mtl-hw or lnl-hw" ;; esac
case $minutes in '' | *[!0-9.]*) die "MINUTES must be a number" ;; esac
seconds=$(awk -v m="$minutes" 'BEGIN { printf "%d", m * 60 }')
[ "$seconds" -ge 10 ] || die "MINUTES too small"
R="python3 $HARNESS/results.py"
stage=stress@$profile

record() {
	[ -n "${IPCC_RESULTS:-}" ] && $R case "$stage" "$1" "$2" >/dev/null
	return 0
}

if [ "${STRESS_NO_BUILD:-}" != 1 ]; then
	"$HARNESS/build.sh" debug || { record "build the debug kernel" fail; exit 1; }
	[ -f "$INITRAMFS" ] || "$HARNESS/build.sh" all || exit 1
fi
"$REPO/bench/build-guest.sh" || { record "build the guest tools" fail; exit 1; }

logdir=${STRESS_LOGDIR:-$(new_logdir "stress-$profile")}
mkdir -p "$logdir"
script=$logdir/stress-script.sh
{
	echo "STRESS_SECONDS=$seconds"
	echo "STRESS_TOOLS=/run/ipcc"
	cat "$HARNESS/stress/guest-stress.sh"
} >"$script"

msg "stress: $profile, $minutes min, debug kernel $BUILD_DEBUG (logs: $logdir)"
t0=$(date +%s)
KERNEL=$BUILD_DEBUG/arch/x86/boot/bzImage PROFILE=$profile QEMU_MEM=${QEMU_MEM:-2G} \
	TIMEOUT=$((seconds * 3 + 900)) SCRIPT_FILES=$CACHE/build/guest-bin/ipcc-worker \
	"$HARNESS/boot.sh" script "$logdir" "$script"
rc=$?
msg "stress: guest ran $(($(date +%s) - t0)) s, exit $rc"

sed -n 's/^stress-count /  /p' "$logdir/output.log" >&2
grep '^stress: ' "$logdir/output.log" >&2
splats=$(grep -cE "$SPLAT_RE" "$logdir/console.log")
msg "stress: splats on the console: $splats"

ok=1
case $rc in
0) record "workload: every worker finished, nothing stuck" pass ;;
124) record "guest hung (console: $logdir/console.log)" fail; ok=0 ;;
125) record "guest crashed (console: $logdir/console.log)" fail; ok=0 ;;
*)	# The first reason goes into the case name: CI shows only the summary.
	why=$(grep -m 1 -E '^stress: (FAIL: |write )' "$logdir/output.log" |
		sed 's/^stress: \(FAIL: \)\{0,1\}//' | cut -c 1-100)
	record "workload failed${why:+: $why} (output: $logdir/output.log)" fail
	ok=0
	;;
esac
if [ "$splats" -eq 0 ]; then
	record "no splat on the console (lockdep, KASAN, UBSAN, KFENCE, WARN, stalls)" pass
else
	grep -E -m 5 -A 12 "$SPLAT_RE" "$logdir/console.log" >&2
	record "kernel splat on the console ($logdir/console.log)" fail
	ok=0
fi
[ $ok = 1 ] && msg "stress: PASS" && exit 0
msg "stress: FAIL"
exit 1
