# Three processes that spin for ever beside the grading.
import os
import signal

for _ in range(3):
    try:
        if os.fork() == 0:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            while True:
                pass
    except OSError:
        break
print("ATTACK hogs_the_cpu: started")
