"""The explorer: one Blocks page whose tabs live in their own modules. Decoding happens in
`wedlm`; views are functions in render.py and figures.py."""
from __future__ import annotations

from pathlib import Path

import gradio as gr

from wedlm.loading import BUNDLED_AR_MODEL

from . import decode_tab, entropy_tab, lessons_tab, race_tab, tour
from .common import Context, Models

CSS = (Path(__file__).parent / "style.css").read_text()
MAX_UPLOAD = "5mb"
QUEUE_SIZE = 64   # waiting events at most; more get a "queue full" message
DEFAULT_CONCURRENCY = 2  # events of one kind running at once (per-event limits override it)


def build_ui(model_name: str | None = None, ar_model_name: str | None = None) -> gr.Blocks:
    """model_name: the WeDLM model (default: bundled); ar_model_name: the AR baseline (default:
    the bundled model's AR parent when the bundled model is used)."""
    if ar_model_name is None and model_name is None and BUNDLED_AR_MODEL.is_dir():
        ar_model_name = str(BUNDLED_AR_MODEL)
    ctx = Context(models=Models(model_name), ar_model_name=ar_model_name)
    with gr.Blocks(title="WeDLM Explorer") as demo:
        gr.Markdown("# WeDLM Explorer\nA real **WeDLM streaming parallel decoder** on a real KV cache, "
                    "step by step: masks are filled in parallel, filled tokens move in front of masks "
                    "(keeping their position ids), and the leading filled run commits to the cache.",
                    elem_id="app-header")
        with gr.Tab("Tour", elem_id="tour"):
            tour.build(ctx, demo)
        with gr.Tab("Decode"):
            decode_tab.build(ctx, demo)
        with gr.Tab("Race"):
            race_tab.build(ctx, demo, decode_tab.EXAMPLES[1][0])
        with gr.Tab("Entropy explorer"):
            entropy_tab.build(ctx, demo, decode_tab.EXAMPLES[3][0])
        with gr.Tab("How it works"):
            lessons_tab.build(ctx, demo)
    return demo


def launch(demo: gr.Blocks, **kwargs):
    """Queue and launch with the explorer's settings: offline, no share link, capped uploads."""
    demo.queue(default_concurrency_limit=DEFAULT_CONCURRENCY, max_size=QUEUE_SIZE)
    return demo.launch(css=CSS, share=False, max_file_size=MAX_UPLOAD, **kwargs)
