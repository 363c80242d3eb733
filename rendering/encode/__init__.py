"""Encoding one clip: the worker process, its frame sink and windows, joining chunks, media facts, the film."""
