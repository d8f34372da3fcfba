"""Embedders turn text into unit vectors (local ONNX MiniLM by default)."""
