"""Rulesbook desktop app (PySide6)."""
