"""The Gradio UI of WeDLM Explorer: layout, figures and rendering only; decoding lives in wedlm."""
