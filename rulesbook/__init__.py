"""Rulesbook core: pure Python, never imports Qt."""
