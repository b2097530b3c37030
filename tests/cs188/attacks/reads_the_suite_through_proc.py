# Read the suite through another process's root (/proc/PID/root), which may not hide it.
import os

_found = 0
for _pid in os.listdir("/proc"):
    if _pid.isdigit():
        for _root, _dirs, _files in os.walk(f"/proc/{_pid}/root@SUITE@"):
            _found += sum(1 for f in _files if f.endswith(".solution"))
print(f"ATTACK reads_the_suite_through_proc: found {_found} solution files")
