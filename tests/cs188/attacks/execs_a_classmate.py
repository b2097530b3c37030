# Run a classmate's file as this one (found beside this file's folder, or in the class folder).
import glob
import os

_mine = os.path.abspath(__file__)
_theirs = [p for p in glob.glob(os.path.join(os.path.dirname(os.path.dirname(_mine)), "*",
                                             "multiAgents.py"))
           + glob.glob("@CLASS@/honest_*/multiAgents.py") if os.path.basename(
               os.path.dirname(p)) != "execs_a_classmate" and os.path.abspath(p) != _mine]
print(f"ATTACK execs_a_classmate: found {len(_theirs)} classmates")
_EXEC = None
for _path in _theirs:
    try:
        _EXEC = open(_path).read()
        break
    except OSError:
        pass
