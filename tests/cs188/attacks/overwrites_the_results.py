# Rewrite the results folder: every kept report, the table, the CSV (in a thread, so that it
# keeps at it while the class is graded).
import os
import threading
import time


def _rewrite():
    _done = 0
    for _ in range(200):
        for _root, _dirs, _files in os.walk("@OUT@"):
            for _name in _files:
                try:
                    with open(os.path.join(_root, _name), "w") as _out:
                        _out.write("{}")
                    _done += 1
                except OSError:
                    pass
        time.sleep(0.01)
    return _done
try:
    os.makedirs("@OUT@/graded", exist_ok=True)
    open("@OUT@/graded/forged.json", "w").write("{}")
    print("ATTACK overwrites_the_results: could write there")
except OSError as _error:
    print(f"ATTACK overwrites_the_results: {type(_error).__name__}")
threading.Thread(target=_rewrite, daemon=True).start()
