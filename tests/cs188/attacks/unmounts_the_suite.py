# Unmount whatever hides the suite (its path is in the mount table), then read the solutions.
import ctypes
import os

_libc = ctypes.CDLL(None, use_errno=True)
try:
    _mounts = [line.split()[4] for line in open("/proc/self/mountinfo")]
except OSError:
    _mounts = []
for _ in range(3):
    for _point in reversed(_mounts):
        _libc.umount2(_point.encode(), 2)
_found = 0
for _root, _dirs, _files in os.walk("@SUITE@"):
    _found += sum(1 for f in _files if f.endswith(".solution"))
print(f"ATTACK unmounts_the_suite: found {_found} solution files")
