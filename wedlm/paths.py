"""Where the project's files are: the bundled models, example traces, the prompt suite, and the
training data. The one module that knows the repository's layout.

In a clone the assets are the top-level `assets/` folder; an installed package carries the same
folder as `wedlm/assets/` (pyproject.toml maps one onto the other), so the bundled model is found
from any working directory.
"""
from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
REPO_ROOT = PACKAGE_DIR.parent  # the clone's root when running from source

_INSTALLED_ASSETS = PACKAGE_DIR / "assets"
ASSETS_DIR = _INSTALLED_ASSETS if _INSTALLED_ASSETS.is_dir() else REPO_ROOT / "assets"

MODELS_DIR = ASSETS_DIR / "models"
BUNDLED_MODEL = MODELS_DIR / "wedlm-tiny"
BUNDLED_AR_MODEL = MODELS_DIR / "ar-tiny"
TRACES_DIR = ASSETS_DIR / "traces"
SUITE_FILE = ASSETS_DIR / "bench" / "prompts.jsonl"

DATA_DIR_ENV = "WEDLM_DATA_DIR"


def default_data_dir() -> Path:
    """The training data folder: $WEDLM_DATA_DIR, else ../shared/data beside the checkout."""
    configured = os.environ.get(DATA_DIR_ENV)
    return Path(configured) if configured else REPO_ROOT.parent / "shared" / "data"
