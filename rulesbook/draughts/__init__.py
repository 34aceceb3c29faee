"""Draughts rules engine."""
