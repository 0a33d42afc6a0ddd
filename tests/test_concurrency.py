import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_concurrent_sessions_each_get_their_own_decode(tiny_dir):
    proc = subprocess.run([sys.executable, "-m", "tools.concurrency", "--model", str(tiny_dir),
                           "--sessions", "8", "--max-new-tokens", "16", "--timeout", "300"],
                          capture_output=True, text=True, timeout=600, cwd=ROOT,
                          env={**os.environ, "HF_HUB_OFFLINE": "1", "GRADIO_ANALYTICS_ENABLED": "False"})
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert report["completed"] == report["equal_to_lone_run"] == 8
