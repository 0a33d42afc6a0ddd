"""WeDLM Explorer: python app.py [--host H] [--port P] [--model PATH_OR_ID]."""
import argparse
import os

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")

from app.ui import build_ui, launch  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description="WeDLM Explorer")
    parser.add_argument("--host", default=os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("GRADIO_SERVER_PORT", 7860)))
    parser.add_argument("--model", default=None, help="local folder or hub id (default: bundled model)")
    parser.add_argument("--ar-model", default=None,
                        help="AR baseline for the race (default: the bundled model's AR parent)")
    args = parser.parse_args()
    demo = build_ui(args.model, args.ar_model)
    launch(demo, server_name=args.host, server_port=args.port)


if __name__ == "__main__":
    main()
