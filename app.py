"""WeDLM Explorer: python app.py [--host H] [--port P] [--model PATH_OR_ID] [--ar-model ...].

A Space runs it with no arguments: the models and limits come from WEDLM_MODEL, WEDLM_AR_MODEL
and WEDLM_SPACE_MODE (app/serving/settings.py)."""
import argparse
import os

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")

import app.serving.gpu  # noqa: E402,F401  first: on ZeroGPU `spaces` must be imported before CUDA is touched
from app.serving.settings import model_names  # noqa: E402
from app.ui import build_ui, launch  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description="WeDLM Explorer")
    parser.add_argument("--host", default=os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("GRADIO_SERVER_PORT", 7860)))
    parser.add_argument("--model", default=None,
                        help="local folder or hub id (default: WEDLM_MODEL, else the bundled model)")
    parser.add_argument("--ar-model", default=None,
                        help="AR baseline for the race (default: WEDLM_AR_MODEL, else the bundled "
                             "model's AR parent when the bundled model is served)")
    args = parser.parse_args()
    model, ar_model = model_names(args.model, args.ar_model)
    demo = build_ui(model, ar_model)  # loads and warms the models, once, before serving
    launch(demo, server_name=args.host, server_port=args.port)


if __name__ == "__main__":
    main()
