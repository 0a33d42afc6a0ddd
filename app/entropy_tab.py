"""The Entropy explorer tab: the entropy -> speedup law, and a tau sweep for one prompt."""
from __future__ import annotations

import gradio as gr

from . import entropy, gpu
from .common import Context, make_config, rows_frame


def build(ctx: Context, demo: gr.Blocks, default_prompt: str) -> None:
    models, ar_name = ctx.models, ctx.ar_model_name

    def run_suite(tau, max_new_tokens, progress=gr.Progress()):
        config = make_config(threshold=tau, max_new_tokens=max_new_tokens)
        prompts = entropy.suite_prompts()
        work = gpu.Work.of(config.max_new_tokens, config.window, ["streaming", "ar"] * len(prompts),
                           ctx.limits)
        rows = gpu.run_on_gpu(entropy.run_suite, models.wedlm, models.ar if ar_name else models.wedlm,
                              config, prompts, progress, work.time_limit_s, work=work)
        return entropy.law_figure(rows), rows_frame(rows)

    def run_sweep(prompt, max_new_tokens):
        config = make_config(max_new_tokens=max_new_tokens)
        work = gpu.Work.of(config.max_new_tokens, config.window, ["streaming"] * len(entropy.SWEEP),
                           ctx.limits)
        rows = gpu.run_on_gpu(entropy.tau_sweep_rows, models.wedlm, prompt, config,
                              work.time_limit_s, work=work)
        return entropy.sweep_figure(rows), rows_frame(rows)

    gr.Markdown("WeDLM's speedup follows **output entropy**: where the next tokens are nearly "
                "certain (counting, sequences), many masks fall under τ at once; where they are "
                "not (plays), decoding is close to one token per forward. Run the suite to see it.")
    with gr.Row():
        tau = gr.Number(value=0.4, label="Threshold τ", minimum=0)
        max_new = gr.Slider(8, 256, value=96, step=8, label="Max new tokens")
        suite_btn = gr.Button("Run the suite", variant="primary", elem_id="suite-run")
    law = gr.Plot(elem_id="entropy-law", label="Entropy against tokens per forward")
    table = gr.Dataframe(elem_id="suite-table", label="Per prompt", interactive=False)
    gr.Markdown("#### τ sweep for one prompt: speed against faithfulness")
    with gr.Row():
        prompt = gr.Textbox(value=default_prompt, label="Prompt", lines=3, scale=3)
        sweep_btn = gr.Button("Sweep τ", elem_id="sweep-run", scale=1)
    sweep_plot = gr.Plot(elem_id="tau-sweep", label="τ sweep")
    sweep_table = gr.Dataframe(elem_id="sweep-table", interactive=False)
    suite_btn.click(run_suite, [tau, max_new], [law, table], api_name="entropy_suite", concurrency_limit=1)
    sweep_btn.click(run_sweep, [prompt, max_new], [sweep_plot, sweep_table], api_name="tau_sweep",
                    concurrency_limit=1)
