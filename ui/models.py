"""Qt item models over the core's frozen objects (read-only)."""
from __future__ import annotations

from typing import TypeAlias, overload

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractListModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)

from rulesbook import Edition, Library, Proposal, Rule, Rulebook
from rulesbook.search import SearchHit

from .widgets import plain_tip

REF_ROLE = Qt.ItemDataRole.UserRole + 1
HTML_ROLE = Qt.ItemDataRole.UserRole + 2
_NO_INDEX = QModelIndex()
#: What Qt passes to a model override: a plain or a persistent index.
Index: TypeAlias = QModelIndex | QPersistentModelIndex


class _Node:
    __slots__ = ("obj", "parent", "row", "children")

    def __init__(self, obj: Rulebook | Rule | Proposal | None, parent: _Node | None,
                 row: int) -> None:
        self.obj = obj
        self.parent = parent
        self.row = row
        self.children: list[_Node] = []


class RulebookTreeModel(QAbstractItemModel):
    """Rulebooks → rules/sections → proposals. Column 0 only."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._library: Library | None = None
        self._root = _Node(None, None, 0)
        self._by_ref: dict[str, _Node] = {}

    def set_library(self, library: Library | None) -> None:
        self.beginResetModel()
        self._library = library
        self._root = _Node(None, None, 0)
        self._by_ref = {}
        if library is not None:
            home = library.editions[0].rulebook if library.editions else None
            books = sorted(library.rulebooks, key=lambda b: b.id != home)
            for i, book in enumerate(books):
                bnode = _Node(book, self._root, i)
                self._root.children.append(bnode)
                items = list(book.preamble) + list(book.rules)
                for j, item in enumerate(items):
                    rnode = _Node(item, bnode, j)
                    bnode.children.append(rnode)
                    self._by_ref[item.ref] = rnode
                    for k, prop in enumerate(getattr(item, "proposals", ())):
                        pnode = _Node(prop, rnode, k)
                        rnode.children.append(pnode)
                        self._by_ref[prop.ref] = pnode
        self.endResetModel()

    # -- structure -------------------------------------------------------
    def _node(self, index: Index) -> _Node:
        return index.internalPointer() if index.isValid() else self._root

    def index(self, row: int, column: int, parent: Index = _NO_INDEX) -> QModelIndex:
        if column != 0 or row < 0:
            return QModelIndex()
        node = self._node(parent)
        if row >= len(node.children):
            return QModelIndex()
        return self.createIndex(row, 0, node.children[row])

    @overload
    def parent(self) -> QObject | None: ...
    @overload
    def parent(self, child: Index) -> QModelIndex: ...

    def parent(self, child: Index | None = None) -> QObject | QModelIndex | None:
        """Qt's two ``parent``: the owning QObject, or the parent of an index."""
        if child is None:
            return super().parent()
        if not child.isValid():
            return QModelIndex()
        node: _Node = child.internalPointer()
        up = node.parent
        if up is None or up is self._root:
            return QModelIndex()
        return self.createIndex(up.row, 0, up)

    def rowCount(self, parent: Index = _NO_INDEX) -> int:
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self._node(parent).children)

    def columnCount(self, parent: Index = _NO_INDEX) -> int:
        return 1

    def hasChildren(self, parent: Index = _NO_INDEX) -> bool:
        return self.rowCount(parent) > 0

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> str | None:
        if (section == 0 and orientation == Qt.Orientation.Horizontal
                and role == Qt.ItemDataRole.DisplayRole):
            return "Rulebooks"
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> str | None:
        if not index.isValid():
            return None
        obj = self._node(index).obj
        if obj is None:  # the invisible root
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            if isinstance(obj, Rulebook):
                return obj.short_title or obj.title
            if isinstance(obj, Rule):
                return f"{obj.id}. {obj.title}"
            member = self._member_name(obj.member)
            return f"{obj.id} — {member}, {obj.kind}"
        if role == Qt.ItemDataRole.ToolTipRole:
            if isinstance(obj, Rulebook):
                return plain_tip(obj.title)
            return plain_tip(obj.ref)
        if role == REF_ROLE:
            return None if isinstance(obj, Rulebook) else obj.ref
        return None

    def _member_name(self, member_id: str) -> str:
        if self._library is None:
            return member_id
        try:
            return self._library.member(member_id).label
        except LookupError:
            return member_id

    def index_for_ref(self, ref: str) -> QModelIndex:
        node = self._by_ref.get(ref)
        if node is None:
            return QModelIndex()
        return self.createIndex(node.row, 0, node)


class TopicListModel(QAbstractListModel):
    """The topics of the library, with how many entries address each."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[tuple[str, str, int]] = []

    def set_library(self, library: Library | None) -> None:
        self.beginResetModel()
        self._rows = []
        if library is not None:
            counts: dict[str, int] = {}
            for entry in library.entries():
                for t in entry.topics:
                    counts[t] = counts.get(t, 0) + 1
            self._rows = [(t.id, t.title, counts.get(t.id, 0)) for t in library.topics]
        self.endResetModel()

    def rowCount(self, parent: Index = _NO_INDEX) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> str | None:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        topic_id, title, count = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{title} ({count})"
        if role == Qt.ItemDataRole.ToolTipRole:  # whole, where the list elides it
            return plain_tip(f"{title} ({count}) · {topic_id}")
        if role == REF_ROLE:
            return topic_id
        return None

    def row_of(self, topic_id: str) -> int:
        for i, (tid, _, _) in enumerate(self._rows):
            if tid == topic_id:
                return i
        return -1


class SearchResultsModel(QAbstractListModel):
    """Search hits; HTML_ROLE gives the highlighted snippet."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._hits: list[SearchHit] = []

    def set_hits(self, hits: list[SearchHit]) -> None:
        self.beginResetModel()
        self._hits = list(hits)
        self.endResetModel()

    @property
    def hits(self) -> list[SearchHit]:
        return list(self._hits)

    def rowCount(self, parent: Index = _NO_INDEX) -> int:
        return 0 if parent.isValid() else len(self._hits)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> str | None:
        if not index.isValid() or not 0 <= index.row() < len(self._hits):
            return None
        hit = self._hits[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{hit.ref} — {hit.title}: {hit.snippet}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tip(f"{hit.ref} ({hit.kind}, {hit.match})")
        if role == HTML_ROLE:
            import html
            return (f"<b>{html.escape(hit.ref)}</b> — {html.escape(hit.title)}<br/>"
                    f"<span>{hit.snippet_html}</span>")
        if role == REF_ROLE:
            return hit.ref
        return None


class EditionListModel(QAbstractListModel):
    """The editions of the library; the one in force is marked."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._editions: list[Edition] = []
        self._in_force: str | None = None

    def set_library(self, library: Library | None) -> None:
        self.beginResetModel()
        self._editions = list(library.editions) if library is not None else []
        self.endResetModel()

    def set_in_force(self, edition_id: str | None) -> None:
        self._in_force = edition_id
        if self._editions:
            self.dataChanged.emit(self.index(0), self.index(len(self._editions) - 1))

    def rowCount(self, parent: Index = _NO_INDEX) -> int:
        return 0 if parent.isValid() else len(self._editions)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> str | None:
        if not index.isValid() or not 0 <= index.row() < len(self._editions):
            return None
        ed = self._editions[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            mark = "  (in force)" if ed.id == self._in_force else ""
            return f"{ed.title} — {ed.date}{mark}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tip(ed.description or ed.id)
        if role == REF_ROLE:
            return ed.id
        return None

    def edition_ids(self) -> list[str]:
        return [e.id for e in self._editions]
