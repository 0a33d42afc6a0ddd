"""Views: pure functions of a trace (HTML, Plotly figures, narration, palette); no Gradio."""
