"""Reading QSettings values safely.

A settings file can be edited by hand (or written by another version), so a
value may come back as a string, a list of strings, or any other QVariant
(``@Size(1 2)`` in an INI file reads as a QSize). These helpers return only
what the caller asked for and fall back to the default otherwise.
"""
from __future__ import annotations

from PySide6.QtCore import QByteArray, QSettings


def setting_text(settings: QSettings, key: str, default: str = "") -> str:
    """The string stored under ``key``; ``default`` when absent or not a string."""
    value = settings.value(key, default)
    return value if isinstance(value, str) else default


def setting_texts(settings: QSettings, key: str) -> list[str]:
    """The strings stored under ``key`` (one string counts as a list of one);
    anything that is not a string is dropped."""
    value = settings.value(key, [])
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        return [v for v in value if isinstance(v, str)]
    return []


def setting_bytes(settings: QSettings, key: str) -> QByteArray | None:
    """The saved state (``saveState``/``saveGeometry`` bytes) under ``key``; None when
    absent or of another type."""
    value = settings.value(key)
    if isinstance(value, QByteArray):
        return value
    if isinstance(value, bytes):
        return QByteArray(value)
    return None
