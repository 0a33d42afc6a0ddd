"""tools/measure_app.py reads the server's CPU from /proc: another process's, not its own."""
import subprocess
import sys
import time

import pytest

from tools.measure_app import cpu_seconds, thread_cpu_seconds

# Burns CPU in a second thread, then reports its own CPU time (os.times) and waits.
BUSY_CHILD = """
import os, sys, threading
def burn():
    x = 0
    for i in range(3_000_000):
        x += i * i
t = threading.Thread(target=burn); t.start(); t.join()
burn()
times = os.times()
print(times.user + times.system, flush=True)
sys.stdin.readline()
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_cpu_reader_agrees_with_a_busy_child_process_own_count():
    child = subprocess.Popen([sys.executable, "-c", BUSY_CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        own = float(child.stdout.readline())   # the child has stopped burning: its count is final
        before = time.process_time()
        read = cpu_seconds(child.pid)
        threads = thread_cpu_seconds(child.pid)
        assert own > 0.05
        assert abs(read - own) <= 0.05, (read, own)   # /proc counts in clock ticks (10 ms)
        # the reader reads the child, not this process (which did nothing meanwhile)
        assert time.process_time() - before < 0.05 < read
        # the burning thread has ended: the threads still alive used what the main thread burned
        assert 0.0 < sum(threads.values()) <= read + 0.01
    finally:
        child.stdin.close()
        child.wait(30)
