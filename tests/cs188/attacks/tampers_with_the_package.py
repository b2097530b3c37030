# Append to the installed package's files, so that every later grade is the cheater's.
import os

_done = 0
for _name in ("grading/running/session.py", "__init__.py", "grading/reports/results.py"):
    try:
        with open(os.path.join("@PACKAGE@", _name), "a") as _out:
            _out.write("\n# tampered\n")
        _done += 1
    except OSError:
        pass
print(f"ATTACK tampers_with_the_package: changed {_done} files")
