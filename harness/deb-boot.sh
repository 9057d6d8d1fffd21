#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make deb-boot [PROFILE=adl-hw] [DEB_SUITE=trixie] [DEB_CONFIG=test]: install the package
# make deb built into a minimal Debian system and boot it on an emulated
# hybrid part to a login prompt, then check what a user checks.
#
#   root file system  debootstrap --variant=minbase of DEB_SUITE (Debian 13
#                     by default: the release users run) from Debian's
#                     archive, with systemd, udev, kmod and
#                     initramfs-tools; made once, kept in the cache
#   install           a copy of it; the newest out/deb/linux-image-*.deb
#                     (of this base's version) installed with dpkg in a
#                     chroot, which builds the initramfs as on a real
#                     system; root without a password; written into an
#                     ext4 image
#   boot              boot.sh MODE=disk on PROFILE: the installed
#                     /boot/vmlinuz and initrd.img, root on /dev/vda
#   checks            harness/deb-login.py: login prompt, root shell, the
#                     package's kernel, the CPU features, the Thread
#                     Director backend on, its status and scores, the
#                     sysctl's default, off, a bad value refused, full
#   selftests         then DEB_SELFTESTS (default: the five ipcc_*
#                     selftests; "none" for none), the static
#                     binaries make build made, copied to /opt/ipcc: the
#                     series' tests on the package's kernel and options,
#                     under systemd; each passes when it exits 0
#
# DEB_PACKAGE=file boots that linux-image package instead (Debian's own
# build of the base, say: a kernel without the series, on which the
# series' checks fail).
#
# Needs root (chroot, file ownership in the image). Results:
# out/deb/boot-BASE/ (boot-BASE-test/ for DEB_CONFIG=test, boot-BASE-other/
# for DEB_PACKAGE), with lsmod.txt, the modules the booted system loaded
# (what make deb DEB_LSMOD= takes).
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || die "make deb-boot needs root (debootstrap, chroot)"
"$HARNESS/deps.sh" deb-boot || exit 1

suite=${DEB_SUITE:-trixie}
mirror=${DEB_MIRROR:-http://deb.debian.org/debian}
ver=${BASE_VERSION%%-*}
# DEB_CONFIG=test: the packaging check's package (harness/deb.sh).
case ${DEB_CONFIG:-} in
'') name=ipcc ;;
test) name=ipcc-test ;;
*) die "DEB_CONFIG must be test or unset, not '$DEB_CONFIG'" ;;
esac
# DEB_PACKAGE names another linux-image package to boot the same way, such
# as Debian's own build of the base (a kernel without the series: the
# series' checks fail there; lsmod.txt lists the modules it loaded).
if [ -n "${DEB_PACKAGE:-}" ]; then
	deb=$(realpath "$DEB_PACKAGE") && [ -f "$deb" ] || die "no such package: $DEB_PACKAGE"
	name=ipcc-other
else
	deb=$(ls -t "$OUT"/deb/linux-image-"$ver"*-"$name"_*.deb 2>/dev/null | head -n 1)
	[ -n "$deb" ] || die "no out/deb/linux-image-$ver*-${name}_*.deb: run make deb${DEB_CONFIG:+ DEB_CONFIG=$DEB_CONFIG} first"
fi

roots=$CACHE/deb-root
base=$roots/$suite
work=$roots/work
logdir=$OUT/deb/boot-$BASE${name#ipcc}
# A run killed in a chroot (ours, or debootstrap's second stage) may have
# left the host's file systems mounted there: unmount them before
# removing anything, and never cross into another file system.
unbind() {
	local fs
	for fs in dev/pts dev sys proc; do
		mountpoint -q "$1/$fs" && umount -l "$1/$fs"
	done
	return 0
}
if [ ! -f "$base/.ipcc-complete" ]; then
	msg "debootstrap $suite into $base (once; log: $roots/$suite.log)"
	unbind "$base"
	rm -rf --one-file-system "$base"
	mkdir -p "$roots"
	debootstrap --variant=minbase \
		--include=systemd-sysv,udev,kmod,initramfs-tools,zstd,procps \
		"$suite" "$base" "$mirror" >"$roots/$suite.log" 2>&1 ||
		{ tail -n 20 "$roots/$suite.log" >&2; die "debootstrap failed"; }
	touch "$base/.ipcc-complete"
fi

unbind "$work"
rm -rf --one-file-system "$work" "$logdir"
mkdir -p "$logdir"
msg "installing $(basename "$deb") into a copy of the $suite root"
cp -a "$base" "$work"
rm -f "$work/.ipcc-complete"
cp "$deb" "$work/root/"
trap 'unbind "$work"' EXIT
for fs in proc sys dev; do
	mount --bind "/$fs" "$work/$fs" || die "cannot bind /$fs into $work"
done
chroot "$work" dpkg -i "/root/$(basename "$deb")" >"$logdir/install.log" 2>&1 ||
	{ tail -n 20 "$logdir/install.log" >&2; die "dpkg -i of the package failed"; }
unbind "$work"
rm -f "$work/root/$(basename "$deb")"
chroot "$work" passwd -d root >/dev/null || die "passwd -d root failed"
echo ipcc-deb >"$work/etc/hostname"
# (make exports DEB_SELFTESTS empty when it is not set: empty means the
# default, "none" means none.)
tests=${DEB_SELFTESTS:-ipcc_hw_test ipcc_knobs_test ipcc_input_test ipcc_topology_test ipcc_placement_test}
[ "$tests" = none ] && tests=
mkdir -p "$work/opt/ipcc"
for t in $tests; do
	[ -x "$SELFTEST_OUT/sched/$t" ] || die "no selftest $SELFTEST_OUT/sched/$t: make build first"
	cp "$SELFTEST_OUT/sched/$t" "$work/opt/ipcc/"
done
echo '/dev/vda / ext4 defaults 0 1' >"$work/etc/fstab"

# The kernel release is the installed image's name (Debian's own
# packages add -unsigned to the package name, not to the release).
kver=$(dpkg-deb -c "$deb" | grep -o '/boot/vmlinuz-.*' | head -n 1)
kver=${kver#/boot/vmlinuz-}
[ -n "$kver" ] || die "$(basename "$deb") holds no /boot/vmlinuz-*"
kernel=$work/boot/vmlinuz-$kver
initrd=$work/boot/initrd.img-$kver
[ -f "$kernel" ] || die "the package installed no $kernel"
[ -f "$initrd" ] || die "no initramfs was built at $initrd (see $logdir/install.log)"
cp "$kernel" "$initrd" "$logdir/"

img=$logdir/root.img
size=$(( $(du -sm "$work" | cut -f1) + 512 ))
mke2fs -q -t ext4 -L root -d "$work" "$img" "${size}M" || die "mke2fs failed"
rm -rf --one-file-system "$work"
msg "booting $kver on ${PROFILE:=adl-hw} to a login prompt (log: $logdir/console.log)"
start=$(date +%s)
PROFILE=$PROFILE KERNEL=$logdir/vmlinuz-$kver INITRD=$logdir/initrd.img-$kver \
	DISK=$img QEMU_MEM=${QEMU_MEM:-2G} TIMEOUT=${TIMEOUT:-1800} DEB_KVER=$kver \
	DEB_SELFTESTS=$tests \
	python3 "$HARNESS/deb-login.py" "$logdir" -- "$HARNESS/boot.sh" disk "$logdir" |
	tee "$logdir/results.txt"
rc=${PIPESTATUS[0]}
rm -f "$img"
msg "deb-boot: $(tail -n 1 "$logdir/results.txt") in $(($(date +%s) - start)) s"
exit "$rc"
