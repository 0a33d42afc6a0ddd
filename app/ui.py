"""A first explorer page: run a real decode and read its steps. The full explorer is issue 4."""
from __future__ import annotations

import html

import gradio as gr

from wedlm import DECODERS, DecodeConfig, ModelLoadError, ValidationError, decode, load_model

EXAMPLES = ["Count from 1 to 30:", "Question: Sam has 4 boxes of 6 pens. How many pens?\nAnswer:",
            "def is_even(n):\n    \"\"\"Return True when n is even.\"\"\"\n", "ROMEO:\n"]


def render_steps(trace) -> str:
    """One row per forward: the window in logical order, what committed, what was filled."""
    rows = []
    for s in trace.steps:
        cells = []
        for k, tok in enumerate(s.window):
            pos = s.start + k
            if tok is None:
                cells.append('<span class="slot mask">[M]</span>')
            else:
                cls = "committed" if k < len(s.committed) else "filled"
                cells.append(f'<span class="slot {cls}" title="pos {pos}">'
                             f'{html.escape(trace.tokens.get(tok, "?"))}</span>')
        filled = ", ".join(f"{f.pos}:{html.escape(repr(trace.tokens.get(f.token, '?')))}" for f in s.filled)
        rows.append(f"<tr><td>{s.index}</td><td>{''.join(cells)}</td><td>{len(s.committed)}</td>"
                    f"<td>{html.escape(filled)}</td><td>{s.cache_after}</td><td>{s.seconds * 1000:.1f}</td></tr>")
    head = "<tr><th>step</th><th>window (logical order)</th><th>committed</th><th>filled</th><th>cache</th><th>ms</th></tr>"
    return f'<table class="steps">{head}{"".join(rows)}</table>'


def build_ui(model_name: str | None = None) -> gr.Blocks:
    state: dict = {}

    def get_model():
        if "lm" not in state:
            state["lm"] = load_model(model_name)
        return state["lm"]

    def run(prompt, decoder, window, threshold, penalty, max_new_tokens):
        try:
            config = DecodeConfig(window=int(window), threshold=None if threshold is None else float(threshold),
                                  penalty=float(penalty), max_new_tokens=int(max_new_tokens))
            trace = decode(get_model(), prompt, decoder, config)
        except (ValidationError, ModelLoadError) as err:
            raise gr.Error(str(err))
        stats = trace.stats()
        summary = (f"{stats['generated_tokens']} tokens in {stats['forwards']} forwards — "
                   f"tokens per forward {stats['tokens_per_forward']:.2f}, p_cache {stats['p_cache']:.2f}")
        return trace.text, summary, render_steps(trace)

    with gr.Blocks(title="WeDLM Explorer") as demo:
        gr.Markdown("# WeDLM Explorer\nA real WeDLM streaming parallel decoder, step by step.")
        prompt = gr.Textbox(label="Prompt", value=EXAMPLES[0], lines=3)
        gr.Examples(EXAMPLES, inputs=prompt)
        with gr.Row():
            decoder = gr.Dropdown(list(DECODERS), value="streaming", label="Decoder")
            window = gr.Slider(1, 64, value=16, step=1, label="Window W")
            threshold = gr.Number(value=0.4, label="Threshold τ (empty = none)")
            penalty = gr.Number(value=0.02, label="Penalty λ")
            max_new = gr.Slider(1, 512, value=64, step=1, label="Max new tokens")
        run_btn = gr.Button("Run", variant="primary")
        output = gr.Textbox(label="Output", lines=4)
        summary = gr.Markdown()
        steps = gr.HTML()
        run_btn.click(run, [prompt, decoder, window, threshold, penalty, max_new],
                      [output, summary, steps], api_name="run")
    return demo


CSS = """
.steps td { vertical-align: top; font-family: monospace; font-size: 12px; }
.slot { display: inline-block; margin: 1px; padding: 0 3px; border-radius: 3px; white-space: pre; }
.slot.mask { background: #ddd; color: #555; }
.slot.filled { background: #ffe7a3; }
.slot.committed { background: #b8e6b8; }
"""
