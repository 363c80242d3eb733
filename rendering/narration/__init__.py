"""Narrated clips: captions read aloud by an offline neural voice.

pronounce (caption → spoken words), voice (the only module that imports piper, lazily), speech (sentences →
cached samples). Importing this package imports nothing heavy: no piper, no onnxruntime, no manim.
"""
