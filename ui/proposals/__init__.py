"""The committee writes proposals in the app: the proposal editor (text in force
beside the draft, a live word redline, autosaved as typed) and its controller."""
