"""Training the bundled tiny model: tokenizer, corpus, AR pre-training, WeDLM dual-stream."""
