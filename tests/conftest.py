import os
from pathlib import Path

import pytest

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
os.environ.setdefault("WEDLM_PICKLE_CHECK", "1")  # app calls pickle what crosses app/serving/gpu.py, as on ZeroGPU

from corpora import write_tiny_corpora
from tiny import write_tiny_checkpoint  # tests/ is on sys.path: pytest puts a conftest's folder there


@pytest.fixture(scope="session")
def tiny_dir(tmp_path_factory) -> Path:
    """A random Qwen3-layout checkpoint saved the way released WeDLM checkpoints are."""
    return write_tiny_checkpoint(tmp_path_factory.mktemp("tiny-wedlm-qwen3"), "wedlm-qwen3", seed=0)


@pytest.fixture(scope="session")
def tiny_corpora(tmp_path_factory) -> Path:
    """Small training corpora in the real ones' formats (tests/corpora.py): no test reads ../shared."""
    return write_tiny_corpora(tmp_path_factory.mktemp("corpora"))


@pytest.fixture(scope="session")
def tiny_lm(tiny_dir):
    from wedlm import load_model
    return load_model(str(tiny_dir), device="cpu", dtype="float32")


@pytest.fixture(scope="session")
def tiny_models(tmp_path_factory):
    """Three random models (seeds 0-2), alternating layouts, loaded in fp32 on CPU."""
    from wedlm import load_model
    models = []
    for seed, layout in [(0, "wedlm-qwen3"), (1, "wedlm-qwen2"), (2, "qwen3")]:
        folder = write_tiny_checkpoint(tmp_path_factory.mktemp(f"tiny-{seed}"), layout, seed=seed)
        models.append(load_model(str(folder), device="cpu", dtype="float32"))
    return models


@pytest.fixture(scope="module")
def app_demo(tiny_dir):
    """The explorer launched for real on loopback, on the tiny checkpoint."""
    from app.ui import build_ui, launch
    demo = build_ui(str(tiny_dir))
    launch(demo, prevent_thread_lock=True, server_name="127.0.0.1", quiet=True)
    yield demo
    demo.close()


@pytest.fixture(scope="module")
def app_url(app_demo):
    return app_demo.local_url
