"""`pip install .` gives a working `wedlm` command outside the repository, on the bundled model."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# what the build reads from a clone (pyproject.toml names no other file)
BUILD_INPUTS = ("pyproject.toml", "README.md", "requirements.txt", "wedlm", "assets")


def test_installed_wedlm_command_runs_from_any_folder_on_the_bundled_model(tmp_path):
    source, target, elsewhere = tmp_path / "clone", tmp_path / "site", tmp_path / "elsewhere"
    # build from a copy, so the build's scratch folders never land in the checkout
    source.mkdir()
    for name in BUILD_INPUTS:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(ROOT / name, source / name)
    build = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                            "--no-build-isolation", "--no-compile", "--target", str(target), str(source)],
                           capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stderr[-3000:]

    # every package of the source tree is in the install, and the bundled models with it
    packages = {p.parent.relative_to(ROOT) for p in (ROOT / "wedlm").rglob("__init__.py")}
    assert packages and all((target / p / "__init__.py").is_file() for p in packages)
    for model in ("wedlm-tiny", "ar-tiny"):
        assert (target / "wedlm" / "assets" / "models" / model / "model.safetensors").is_file()

    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(target), "HF_HUB_OFFLINE": "1"}
    proc = subprocess.run([str(target / "bin" / "wedlm"), "generate", "Count from 1 to 12:", "--json",
                           "--max-new-tokens", "48"],
                          cwd=elsewhere, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout)
    assert Path(out["model"]).name == "wedlm-tiny"  # the bundled model (named by path or label)
    assert "1, 2, 3" in out["text"] and out["tokens_per_forward"] > 1
    # the code came from the install (locating the package runs none of it), and with no assets/
    # beside the install the model can only have been found inside it (wedlm/paths.py)
    where = subprocess.run([sys.executable, "-c", "import importlib.util as u; print(u.find_spec('wedlm').origin)"],
                           cwd=elsewhere, env=env, capture_output=True, text=True, timeout=60)
    assert Path(where.stdout.strip()).resolve().is_relative_to(target.resolve()), where.stderr
    assert not (target.parent / "assets").exists()
