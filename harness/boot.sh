#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot layer: boot the test kernel in QEMU and run something in the guest.
#
# usage: boot.sh MODE LOGDIR [SCRIPT]
#   MODE     selftests | script | shell | disk
#   LOGDIR   console.log (kernel console), output.log (what ran), qemu.log
#   SCRIPT   host file to run in the guest (MODE=script)
# MODE=disk boots an installed system instead (harness/deb-boot.sh): KERNEL
# with INITRD, root file system on the raw image DISK (/dev/vda), the
# console on stdin/stdout for whoever drives it, nothing of the test
# initramfs.
# Environment:
#   PROFILE       harness/profiles/NAME.conf: topology, CPU model and
#                 kernel command line of a platform (smt8, adl-hw, mtl-hw,
#                 lnl-hw, numa2-hw, adl-rpl; default smt8)
#   QEMU_SMP      -smp value (default: the profile's)
#   QEMU_MEM      guest memory (default 1G)
#   QEMU_NUMA     number of NUMA nodes (default 1; CPUs split evenly)
#   QEMU_ACCEL    tcg (default) | kvm | auto (probe KVM, fall back to TCG)
#   QEMU_ICOUNT   1: -icount shift=auto,sleep=off (guest time independent
#                 of host load; slower, for placement measurements);
#                 a number N: -icount shift=N,sleep=off (every instruction
#                 takes 2^N ns of guest time: times count instructions)
#   QEMU_CPU      CPU model and properties (default: the profile's, else
#                 Skylake-Client)
#   ITD_MODEL     hybrid profiles: Thread Director model of the emulated
#                 part, oracle (default), rpl or rule (qemu/README.md)
#   ITD_SEED      hybrid profiles: seed of the model's randomness (0)
#   SCRIPT_FILES  MODE=script: host files copied to the guest's /run/ipcc
#   SCRIPT_ROOT   MODE=script: a host directory whose tree is added at the
#                 guest's root (the benchmark's real programs and their
#                 libraries, bench/build-guest.sh)
#   QEMU_BIN      the emulator (default: the one harness/qemu-build.sh built)
#   CMDLINE       extra kernel command line
#   KERNEL        bzImage to boot (default: the harness build)
#   TIMEOUT       seconds before the guest is declared hung (default 900)
#   SELFTEST_TIMEOUT  per selftest, in the guest (default 600)
# Exit: the guest's exit status (0 selftests all passed / script status),
#       124 when the guest hung (killed at TIMEOUT), 125 when it died
#       without reporting (panic, crash).
. "$(dirname "$0")/lib.sh"

mode=$1
logdir=$2
script=$3
[ -n "$mode" ] && [ -n "$logdir" ] || die "usage: boot.sh MODE LOGDIR [SCRIPT]"

kernel=${KERNEL:-$BUILD/arch/x86/boot/bzImage}
initramfs=$INITRAMFS
if [ "$mode" = disk ]; then
	initramfs=${INITRD:-}
	[ -f "${DISK:-}" ] || die "MODE=disk needs DISK, a raw disk image"
fi
[ -f "$kernel" ] || die "no kernel at $kernel: build first"
[ -f "$initramfs" ] || die "no initramfs at $initramfs: build first"
[ -x "$QEMU_BIN" ] || die "no QEMU at $QEMU_BIN: run harness/qemu-build.sh first"
mkdir -p "$logdir"

profile=${PROFILE:-smt8}
[ -f "$HARNESS/profiles/$profile.conf" ] || die "no such profile: $profile (see harness/profiles/)"
. "$HARNESS/profiles/$profile.conf"
smp=${QEMU_SMP:-$PROFILE_SMP}
mem=${QEMU_MEM:-1G}
timeout=${TIMEOUT:-900}
# vCPUs -numa splits between nodes: all possible ones (maxcpus=, when
# some are cold-plugged), in QEMU's order (socket, core, thread).
ncpu=${smp%%,*}
case ",$smp," in *,maxcpus=*) ncpu=${smp#*maxcpus=} ncpu=${ncpu%%,*} ;; esac

accel=${QEMU_ACCEL:-tcg}
if [ "$accel" = auto ]; then
	# A KVM guest can hang on this host: use it only if a trivial boot
	# (no root, immediate panic and exit) completes within seconds.
	accel=tcg
	if [ -w /dev/kvm ] && timeout -k 2 15 "$QEMU_BIN" "${QEMU_FW_ARGS[@]}" -accel kvm -nodefaults \
		-display none -no-reboot -m 256M -kernel "$kernel" \
		-append "panic=-1 console=ttyS0" -serial null >/dev/null 2>&1; then
		accel=kvm
	fi
fi
accel_args=(-accel "$accel")
if [ "$accel" = tcg ]; then
	accel_args=(-accel tcg,thread=multi)
	case ${QEMU_ICOUNT:-0} in
	0) ;;
	1) accel_args=(-accel tcg -icount shift=auto,sleep=off) ;;
	[0-9]|10) accel_args=(-accel tcg -icount "shift=$QEMU_ICOUNT,sleep=off") ;;
	*) die "QEMU_ICOUNT must be 0, 1 or a shift of 2..10, not '$QEMU_ICOUNT'" ;;
	esac
fi

numa_args=()
nodes=${QEMU_NUMA:-$PROFILE_NUMA}
if [ "$nodes" -gt 1 ]; then
	memmb=$(($(numfmt --from=iec "${mem}") / 1048576 / nodes))
	per=$((ncpu / nodes))
	for ((n = 0; n < nodes; n++)); do
		numa_args+=(-object "memory-backend-ram,id=m$n,size=${memmb}M"
			-numa "node,nodeid=$n,cpus=$((n * per))-$(((n + 1) * per - 1)),memdev=m$n")
	done
	mem=$((memmb * nodes))M
fi

rd=$initramfs
rd_drop=
if [ "$mode" = script ]; then
	[ -f "$script" ] || die "no such script: $script"
	# A second cpio appended to the first: the kernel unpacks both.
	extra=$logdir/extra
	rm -rf "$extra"
	mkdir -p "$extra/run/ipcc"
	cp "$script" "$extra/run/ipcc/script"
	chmod +x "$extra/run/ipcc/script"
	[ -n "${SCRIPT_FILES:-}" ] && cp $SCRIPT_FILES "$extra/run/ipcc/"
	[ -z "${SCRIPT_ROOT:-}" ] || [ -d "$SCRIPT_ROOT" ] ||
		die "SCRIPT_ROOT $SCRIPT_ROOT is not a directory"
	rd=$logdir/initramfs.cpio
	(
		cat "$initramfs"
		cd "$extra" && find . | LC_ALL=C sort | cpio -o -H newc --quiet || exit 1
		[ -z "${SCRIPT_ROOT:-}" ] && exit 0
		# A third archive; not kept with the logs (tens of MB a boot).
		cd "$SCRIPT_ROOT" && find . | LC_ALL=C sort | cpio -o -H newc --quiet
	) >"$rd" || die "cannot write $rd"
	[ -n "${SCRIPT_ROOT:-}" ] && rd_drop=$rd
fi

# A log large enough that tests late in a boot still find its early lines.
append="console=ttyS0 log_buf_len=4M panic=-1 oops=panic softlockup_panic=1 hung_task_panic=1"
disk_args=()
if [ "$mode" = disk ]; then
	append+=" root=/dev/vda rw"
	disk_args=(-drive "file=$DISK,if=virtio,format=raw")
else
	append+=" kunit.enable=0 ipcctest=$mode ipcctimeout=${SELFTEST_TIMEOUT:-600}"
	[ -n "${PROFILE_SKIP:-}" ] && append+=" ipccskip=$PROFILE_SKIP"
	[ -n "${PROFILE_ONLY:-}" ] && append+=" ipcconly=$PROFILE_ONLY"
fi
[ -n "$PROFILE_CMDLINE" ] && append+=" $PROFILE_CMDLINE"
[ -n "${CMDLINE:-}" ] && append+=" $CMDLINE"

# Hybrid profiles: the part's model and properties, the Thread Director
# model of this run, and the vCPUs that -smp cannot place (a core of one
# thread among cores of two): "[SOCKET:]CORE:THREAD ..." cold-plugged
# with -device.
cpu=${QEMU_CPU:-${PROFILE_CPU:-Skylake-Client}}
ITD_MODEL=${ITD_MODEL:-${PROFILE_ITD_MODEL:-oracle}}
case $ITD_MODEL in
oracle | rpl | rule) ;;
*) die "ITD_MODEL must be oracle, rpl or rule, not '$ITD_MODEL'" ;;
esac
case ${ITD_SEED:-0} in
*[!0-9]* | '') die "ITD_SEED must be a decimal number, not '$ITD_SEED'" ;;
esac
[ -n "${PROFILE_CPU:-}" ] && [ -z "${QEMU_CPU:-}" ] &&
	cpu+=",itd-model=$ITD_MODEL,itd-seed=${ITD_SEED:-0}"
# An invariant TSC with IA32_TSC_ADJUST, as on every Intel part since
# Haswell (qemu/patches/0004): Linux then leaves the TSC unwatched, as
# on real parts, instead of running its clocksource watchdog.
cpu+=",invtsc=on,tsc-adjust=on"
dev_args=()
for ct in ${PROFILE_DEVICES:-}; do
	case $ct in *:*:*) ;; *) ct=0:$ct ;; esac
	sct=${ct#*:}
	dev_args+=(-device "${cpu%%,*}-x86_64-cpu,socket-id=${ct%%:*},core-id=${sct%:*},thread-id=${sct#*:}")
done
# The guest's third serial port (ttyS2) is a QMP monitor of this very
# QEMU: a server socket for the monitor, a client of it for the port.
# (A short path: socket paths are limited to 107 bytes.)
qmp_sock=$(mktemp -u /tmp/ipcc-qmp.XXXXXX)
trap 'rm -f "$qmp_sock" ${rd_drop:+"$rd_drop"}' EXIT
qmp_args=(-chardev "socket,id=qmpmon,path=$qmp_sock,server=on,wait=off"
	-mon chardev=qmpmon,mode=control
	-chardev "socket,id=qmpport,path=$qmp_sock")

qemu=("$QEMU_BIN" "${QEMU_FW_ARGS[@]}" -nodefaults -no-reboot -display none
	"${accel_args[@]}" -cpu "$cpu"
	-smp "$smp" "${dev_args[@]}" -m "$mem" "${numa_args[@]}"
	"${qmp_args[@]}" "${disk_args[@]}"
	-kernel "$kernel" -initrd "$rd" -append "$append")
printf '%q ' "${qemu[@]}" >"$logdir/qemu.cmd"

if [ "$mode" = disk ]; then
	exec timeout -k 10 "$timeout" "${qemu[@]}" -serial stdio -serial null \
		-serial chardev:qmpport 2>"$logdir/qemu.log"
fi

if [ "$mode" = shell ]; then
	# Console on this terminal; results port into the log directory.
	exec "${qemu[@]}" -serial mon:stdio -serial "file:$logdir/output.log" \
		-serial chardev:qmpport
fi

: >"$logdir/output.log"
timeout -k 10 "$timeout" "${qemu[@]}" \
	-serial "file:$logdir/console.log" -serial "file:$logdir/output.log" \
	-serial chardev:qmpport >"$logdir/qemu.log" 2>&1 </dev/null
qrc=$?
rc=$(sed -n 's/.*@@IPCC-EXIT \([0-9]*\)@@.*/\1/p' "$logdir/output.log" | tail -n 1)
if [ -n "$rc" ]; then
	exit "$rc"
fi
if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
	msg "guest hung: no result after ${timeout}s; console log kept in $logdir/console.log"
	tail -n 20 "$logdir/console.log" >&2
	exit 124
fi
msg "guest died without reporting (qemu exit $qrc); console log kept in $logdir/console.log"
grep -E -m 5 -A 15 'Kernel panic|BUG:|Oops|WARNING:' "$logdir/console.log" >&2 ||
	tail -n 20 "$logdir/console.log" >&2
exit 125
