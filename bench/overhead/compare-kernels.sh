#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Context-switch cost of (part of) the series: the harness's kernel against
# the same kernel built without it, both booted alternately in QEMU.
#
# usage: [VARIANT=noipcc|noitd] bench/overhead/compare-kernels.sh [BOOTS] [REPS]
#   VARIANT=noipcc (default): the second kernel is built without
#     CONFIG_SCHED_IPCC: the cost of the option when built in but off
#     (kernel.sched_ipcc=0 in both boots).
#   VARIANT=noitd: the second kernel is built without CONFIG_X86_IPCC_ITD
#     only, so the one difference on the context-switch path is the
#     HRESET hook at the end of __switch_to(): the cost of that path.
#   The second kernel is built once in ~/.cache/ipcc/base-$BASE/kernel-VARIANT,
#   seeded from the harness's build directory so that kbuild rebuilds only
#   what the changed options touch.  The two kernels boot alternately BOOTS
#   times (default 3), each running the pipe ping-pong and the
#   hackbench-like messaging REPS times (default 5).
#   NOIPCC_KERNEL=path boots that bzImage instead of building one.
#   The boots use QEMU's icount with a fixed shift (COMPARE_ICOUNT=N,
#   default 3; 1: shift=auto; 0: multi-threaded TCG, which adds
#   hackbench), so guest time counts instructions: pingpong-1cpu (both
#   ends on CPU 0: wakeup and context switch) and pingpong (cross-CPU).
#   Under a fixed shift times are raw (instruction counts); under
#   shift=auto or MTTCG they are divided by the guest's calibration loop
#   (cancels icount's shift changes and TCG speed drift between boots),
#   and runs whose calibration drifted by more than 10% are dropped.
#   Prints per-pair ratios other/ipcc (>= 0.99: no measurable overhead)
#   with median and spread.
. "$(dirname "$0")/../../harness/lib.sh"

boots=${1:-3}
reps=${2:-5}
variant=${VARIANT:-noipcc}
case $variant in
noipcc) drop="SCHED_IPCC SCHED_IPCC_KUNIT_TEST X86_IPCC_ITD X86_IPCC_ITD_KUNIT_TEST" ;;
noitd) drop="X86_IPCC_ITD X86_IPCC_ITD_KUNIT_TEST" ;;
*) die "VARIANT must be noipcc or noitd, not '$variant'" ;;
esac
nob=$KCACHE/kernel-$variant
"$HARNESS/build.sh" all || exit 1
"$REPO/bench/build-guest.sh" || exit 1
"$HARNESS/build.sh" initramfs || exit 1
if [ -n "${NOIPCC_KERNEL:-}" ]; then
	noimg=$NOIPCC_KERNEL
else
noimg=$nob/arch/x86/boot/bzImage
if [ ! -f "$nob/.config" ] || [ "$BUILD/.config" -nt "$nob/.config" ]; then
	if [ ! -f "$nob/.config" ]; then
		msg "seeding $nob from $BUILD"
		rm -rf "$nob"
		cp -a "$BUILD" "$nob"
	fi
	cp "$BUILD/.config" "$nob/.config"
	for o in $drop; do
		"$SRC/scripts/config" --file "$nob/.config" -d "$o"
	done
fi
msg "building the kernel without ${drop%% *} in $nob"
flock "$CACHE/build.lock" make -C "$SRC" O="$nob" ARCH=x86_64 CC="ccache gcc" \
	HOSTCC="ccache gcc" -j"$JOBS" olddefconfig bzImage \
	>"$OUT/kernel-$variant.log" 2>&1 ||
	die "build failed; see $OUT/kernel-$variant.log"
for o in $drop; do
	! grep -q "^CONFIG_$o=" "$nob/.config" || die "$o still on"
done
fi

guest=$(mktemp)
icount=${COMPARE_ICOUNT:-3}
if [ "$icount" != 0 ]; then
	# icount: guest time counts instructions, so host load cannot skew
	# one kernel against the other. A fixed shift (default 3: 8 ns per
	# instruction) makes a round trip's time its instruction count;
	# hackbench jumps with an automatic shift.
	tools='pingpong-1cpu:ipcc-pingpong 5000 0|pingpong:ipcc-pingpong 1000'
else
	tools='pingpong:ipcc-pingpong 20000|hackbench:ipcc-hackbench 4 10 100'
fi
{
	echo '#!/bin/sh'
	echo '[ -f /proc/sys/kernel/sched_ipcc ] && echo 0 >/proc/sys/kernel/sched_ipcc'
	echo "for i in \$(seq $reps); do"
	IFS='|' read -ra list <<<"$tools"
	for t in "${list[@]}"; do
		echo "	echo \"${t%%:*} \$(${t#*:})\""
	done
	echo 'done'
} >"$guest"
logdir=$(new_logdir compare-kernels)
for ((b = 1; b <= boots; b++)); do
	for k in ipcc "$variant"; do
		kern=$BUILD/arch/x86/boot/bzImage
		[ "$k" = "$variant" ] && kern=$noimg
		KERNEL=$kern QEMU_ICOUNT=$icount \
			"$HARNESS/boot.sh" script "$logdir/$k-$b" "$guest" ||
			die "guest run failed; see $logdir/$k-$b"
		sed "s/^/$k $b /" "$logdir/$k-$b/output.log" >>"$logdir/all.txt"
	done
done
rm -f "$guest"
python3 - "$logdir/all.txt" "$variant" "$icount" <<'EOT'
import statistics, sys
other = sys.argv[2]
# Under a fixed shift a time is an instruction count: dividing by the
# calibration loop's time would only add the other vCPUs' turns in it.
fixed = sys.argv[3] not in ('0', '1')
val, dropped = {}, 0
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 4 or f[3] not in ('pingpong', 'hackbench'):
        continue
    kv = dict(x.split('=', 1) for x in f[4:] if '=' in x)
    # The calibration loop ran at two speeds: the run straddled a change.
    if not fixed and abs(float(kv.get('drift', 1)) - 1) > 0.1:
        dropped += 1
        continue
    t = float(kv.get('ns_per_roundtrip', kv.get('seconds', 0)))
    val.setdefault((f[2], f[1]), {}).setdefault(f[0], []).append(
        t if fixed else t / float(kv['calib_ns']))
for bench in sorted({b for b, _ in val}):
    ratios = []
    for (b, boot), d in sorted(val.items()):
        if b == bench and 'ipcc' in d and other in d:
            ratios.append(statistics.median(d[other]) / statistics.median(d['ipcc']))
    if ratios:
        print(f'{bench}: {other}/ipcc(mode 0) per boot pair: ' +
              ' '.join(f'{r:.3f}' for r in ratios) +
              f'  median {statistics.median(ratios):.3f}'
              f'  spread {min(ratios):.3f}..{max(ratios):.3f}')
print(f'runs dropped for calibration drift > 10%: {dropped}')
EOT
