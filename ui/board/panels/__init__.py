"""The panels of the Board workspace, each a widget that subscribes to the board
controller's signals (and its small controllers') and shows one thing: the
toolbar, the set-up palette, the record (title, move list, move entry), the
comment, the check result and the clocks, the counts, the gap search and its
preview, and the board view's highlights. The workspace
(:mod:`ui.workspaces.board`) only lays them out."""
