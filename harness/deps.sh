#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make sure the host has what the harness needs.  As root on Debian, install
# what is missing; otherwise print the exact apt-get line and stop.
. "$(dirname "$0")/lib.sh"

# command-or-file : Debian package
NEEDS="
/usr/share/qemu/linuxboot_dma.bin:qemu-system-data
/usr/share/seabios/bios-256k.bin:seabios
dpkg-source:dpkg-dev
meson:meson
ninja:ninja-build
pkg-config:pkg-config
/usr/include/glib-2.0/glib.h:libglib2.0-dev
/usr/include/pixman-1/pixman.h:libpixman-1-dev
/usr/include/zlib.h:zlib1g-dev
/usr/include/libfdt.h:libfdt-dev
gcc:gcc
make:make
flex:flex
bison:bison
bc:bc
/usr/include/libelf.h:libelf-dev
/usr/include/openssl/ssl.h:libssl-dev
/bin/busybox:busybox-static
cpio:cpio
ccache:ccache
quilt:quilt
patch:patch
rsync:rsync
python3:python3
perl:perl
xz:xz-utils
dpkg-deb:dpkg
apt-get:apt
/usr/lib/x86_64-linux-gnu/libc.a:libc6-dev
git:git
sparse:sparse
flock:util-linux
timeout:coreutils
"
# The emulator is built from Debian's qemu source (harness/qemu-build.sh):
# its build dependencies for x86_64-softmmu with TCG only, and the firmware
# (SeaBIOS, option ROMs) that Debian ships apart from the dfsg source.
# make deb: what the tree's bindeb-pkg needs.
[ "${1:-}" = deb ] && NEEDS="$NEEDS
dpkg-buildpackage:dpkg-dev
dh:debhelper
kmod:kmod
fakeroot:fakeroot
/usr/include/dwarf.h:libdw-dev
pahole:dwarves
"

# The benchmark's real programs: Debian's stress-ng, run in the guest
# with the host's libraries (bench/build-guest.sh).
[ "${1:-}" = bench ] && NEEDS="$NEEDS
stress-ng:stress-ng
ldd:libc-bin
"

# make deb-boot: a Debian root file system, a chroot, an ext4 image.
[ "${1:-}" = deb-boot ] && NEEDS="$NEEDS
debootstrap:debootstrap
mke2fs:e2fsprogs
mountpoint:util-linux
"

missing=()
for n in $NEEDS; do
	what=${n%%:*}
	pkg=${n##*:}
	case $what in
	/*) [ -e "$what" ] && continue ;;
	*) command -v "$what" >/dev/null 2>&1 && continue ;;
	esac
	case " ${missing[*]} " in *" $pkg "*) ;; *) missing+=("$pkg") ;; esac
done
# Python modules, as the python3 the harness runs sees them.
for n in docutils:python3-docutils; do
	python3 -c "import ${n%%:*}" >/dev/null 2>&1 && continue
	case " ${missing[*]} " in *" ${n##*:} "*) ;; *) missing+=("${n##*:}") ;; esac
done
# busybox-static must be the static one: the guest has no libc.
if [ -e /bin/busybox ] && ldd /bin/busybox >/dev/null 2>&1; then
	case " ${missing[*]} " in *" busybox-static "*) ;; *) missing+=(busybox-static) ;; esac
fi

[ ${#missing[@]} -eq 0 ] && exit 0

line="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	die "missing packages; run as root: apt-get update && $line"
fi
msg "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
mkdir -p "$CACHE"
apt-get update -qq >/dev/null || die "apt-get update failed"
# shellcheck disable=SC2086
$line >"$CACHE/apt.log" 2>&1 || { tail -20 "$CACHE/apt.log" >&2; die "$line failed"; }
