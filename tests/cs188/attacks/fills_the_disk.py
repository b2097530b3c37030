# Write a 256 MB file wherever it can: its folder, /tmp, the results folder.
import os

_sizes = {}
for _folder in (os.path.dirname(os.path.abspath(__file__)), "/tmp", "@OUT@", "@CLASS@"):
    _written = 0
    try:
        with open(os.path.join(_folder, "filler.bin"), "wb") as _out:
            _chunk = b"x" * (1 << 20)
            for _ in range(256):
                _out.write(_chunk)
                _written += 1
    except (OSError, MemoryError):
        pass
    _sizes[_folder] = _written
print(f"ATTACK fills_the_disk: wrote MB {sorted(_sizes.values())}")
