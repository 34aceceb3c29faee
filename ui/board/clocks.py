"""Clock readings as a referee writes them, and the one-line formula of
:func:`rulesbook.reconstruct.prorate_clocks` in plain words."""
from __future__ import annotations

import re

__all__ = ["FORMULA", "format_clock", "parse_clock"]

#: :func:`rulesbook.reconstruct.prorate_clocks`, in one line of plain words.
FORMULA = ("Each side gets back its average time per move for each move taken back: "
           "reading + moves taken back × (time control − reading) ÷ moves played.")

_CLOCK = re.compile(r"^\s*(\d+(?:[.,]\d+)?)(?:\s*:\s*(\d{1,2}))?(?:\s*:\s*(\d{1,2}))?\s*$")


def parse_clock(text: str) -> float | None:
    """Seconds from a clock reading: ``m:ss``, ``h:mm:ss`` or whole minutes (``25``).
    None when empty; ValueError with a readable message when it cannot be read."""
    text = (text or "").strip()
    if not text:
        return None
    m = _CLOCK.match(text)
    if m is None:
        raise ValueError(f"cannot read {text!r}: write minutes:seconds, e.g. 12:30")
    first, second, third = m.group(1), m.group(2), m.group(3)
    if third is not None:  # h:mm:ss
        if "." in first or "," in first:
            raise ValueError(f"cannot read {text!r}: write hours:minutes:seconds")
        h, mins, secs = int(first), int(second), int(third)
        if mins > 59 or secs > 59:
            raise ValueError(f"cannot read {text!r}: minutes and seconds go up to 59")
        return float(h * 3600 + mins * 60 + secs)
    if second is not None:  # m:ss
        if "." in first or "," in first:
            raise ValueError(f"cannot read {text!r}: write minutes:seconds, e.g. 12:30")
        secs = int(second)
        if secs > 59:
            raise ValueError(f"cannot read {text!r}: seconds go up to 59")
        return float(int(first) * 60 + secs)
    return float(first.replace(",", ".")) * 60.0


def format_clock(seconds: float) -> str:
    """``m:ss`` (``h:mm:ss`` from an hour), rounded to the second."""
    total = max(0, int(round(seconds)))
    h, rest = divmod(total, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
