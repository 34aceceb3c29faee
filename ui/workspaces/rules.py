"""The Rules workspace: a tree of rulebooks and a topic list beside the rule page."""
from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QSettings, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QSplitter,
    QTabWidget,
    QToolBar,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from rulesbook import Library

from ..controller import AppController
from ..history import HistoryPanel
from ..models import REF_ROLE, RulebookTreeModel, TopicListModel
from ..render import rule_page, topic_page
from ..texts_banner import TextsBanner
from ..widgets import DocBrowser, route_link
from . import Workspace


class RulesWorkspace(Workspace):
    id = "rules"
    title = "Rules"
    description = "Read the rulebooks, rule by rule, and the topic concordance"

    def __init__(self, controller: AppController, parent: QWidget | None = None) -> None:
        super().__init__(controller, parent)
        self.tree_model = RulebookTreeModel(self)
        self.topic_model = TopicListModel(self)
        self.tree = QTreeView()
        self.tree.setModel(self.tree_model)
        self.tree.setHeaderHidden(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tree.setAccessibleName("Rulebooks")
        self.topics = QListView()
        self.topics.setModel(self.topic_model)
        self.topics.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.topics.setAccessibleName("Topics")
        # no sideways scrolling (issue 33): a long title elided, whole in its tooltip
        self.topics.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.topics.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.side = QTabWidget()
        self.side.addTab(self.tree, "Rule&books")
        self.side.addTab(self.topics, "To&pics")
        self.page = DocBrowser()
        self.page.setAccessibleName("Rule page")
        self.page.internalLink.connect(lambda link: route_link(self.controller, link))

        self.back_action = QAction("Back", self)
        self.back_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Back))
        self.back_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.back_action.triggered.connect(lambda: self.go_back())
        self.back_action.setEnabled(False)
        self.compare_action = QAction("Compare Variants", self)
        self.compare_action.setShortcut(QKeySequence("Ctrl+D"))
        self.compare_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.compare_action.triggered.connect(lambda: self.compare_current())
        bar = QToolBar()
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        bar.addAction(self.back_action)
        bar.addAction(self.compare_action)
        from ..proposals.actions import ProposalActions

        self.proposal_actions = ProposalActions(self)
        bar.addSeparator()
        for action in self.proposal_actions.actions:
            bar.addAction(action)
        for action in (self.back_action, self.compare_action):
            action.setToolTip(f"{action.text()} ({action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)})")
        # The toolbar spans the whole workspace (not only the page) so that every
        # action stays visible at 1024 px (issue 19: nothing hidden behind »).
        self.toolbar = bar
        right = QWidget()
        lay = QVBoxLayout(right)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        self.history_panel = HistoryPanel(controller, self)
        self.views = QTabWidget()
        self.views.addTab(self.page, "&Text")
        self.views.addTab(self.history_panel, "Hi&story")
        self.views.currentChanged.connect(lambda _i: self._refresh_history())
        lay.addWidget(self.views)
        self._history_of: str | None = None

        self.splitter = QSplitter()
        self.splitter.addWidget(self.side)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([300, 700])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(bar)
        self.texts_banner = TextsBanner(parent=self)
        layout.addWidget(self.texts_banner)
        layout.addWidget(self.splitter)

        self.current: str | None = None  # "apca:28" or "topic:ID"
        self._recovery_offered = False
        self._history: list[str] = []
        self.tree.selectionModel().currentChanged.connect(self._tree_current)
        self.topics.selectionModel().currentChanged.connect(self._topic_current)
        controller.refRequested.connect(self.show_ref)
        controller.topicRequested.connect(self.show_topic)

    # -- controller events -----------------------------------------------
    def on_library(self, library: Library) -> None:
        self.texts_banner.show_mismatches(self.controller.text_mismatches,
                                          self.controller.edition_id)
        self.tree_model.set_library(library)
        self.topic_model.set_library(library)
        self.tree.expandToDepth(0)
        self._history.clear()
        self.back_action.setEnabled(False)
        self.current = None
        self._history_of = None
        first = library.normalise_ref("1") if library.rulebooks else None
        if first:
            self.show_ref(first, remember=False)
        self.proposal_actions.update()
        if not self._recovery_offered:  # once a run: a draft left by a crash comes back
            self._recovery_offered = True
            self.proposal_actions.recover()

    def on_edition(self, edition_id: str) -> None:
        self.texts_banner.show_mismatches(self.controller.text_mismatches, edition_id)
        if self.current and not self.current.startswith("topic:"):
            self._render()

    # -- showing -------------------------------------------------------------
    def show_ref(self, ref: str, remember: bool = True) -> None:
        if self.controller.library is None or ref not in self.controller.library.index:
            return
        self._go(ref, remember)
        self._mark_search_words()
        index = self.tree_model.index_for_ref(ref)
        if index.isValid() and self.tree.currentIndex() != index:
            self.tree.selectionModel().setCurrentIndex(
                index, QItemSelectionModel.SelectionFlag.ClearAndSelect)
            self.tree.scrollTo(index)

    def show_topic(self, topic_id: str, remember: bool = True) -> None:
        self._go(f"topic:{topic_id}", remember)
        row = self.topic_model.row_of(topic_id)
        if row >= 0:
            index = self.topic_model.index(row)
            if self.topics.currentIndex() != index:
                self.topics.selectionModel().setCurrentIndex(
                    index, QItemSelectionModel.SelectionFlag.ClearAndSelect)
            self.side.setCurrentWidget(self.topics)

    def _go(self, target: str, remember: bool) -> None:
        if target == self.current:
            return
        if remember and self.current:
            self._history.append(self.current)
            self.back_action.setEnabled(True)
        self.current = target
        self._render()

    def _render(self) -> None:
        library = self.controller.library
        if library is None or self.current is None:
            return
        if self.current.startswith("topic:"):
            html = topic_page(library, self.current.removeprefix("topic:"))
        else:
            html = rule_page(library, self.current, self.controller.consolidated())
        self.page.set_page(html)
        self._mark_search_words()
        self.compare_action.setEnabled(True)
        self.proposal_actions.update()
        self._refresh_history()

    def _refresh_history(self, force: bool = False) -> None:
        """Read the history of the rule shown, when the History tab is open."""
        if self.views.currentWidget() is not self.history_panel or self.current is None \
                or self.current.startswith("topic:"):
            return
        if force or self._history_of != self.current:
            self._history_of = self.current
            self.history_panel.show_ref(self.current)

    def _mark_search_words(self) -> None:
        """The words of the search that opened this page, marked in its text."""
        ref, words = self.controller.highlight
        self.page.mark_words(words if ref == self.current else ())

    def go_back(self) -> None:
        if not self._history:
            return
        target = self._history.pop()
        self.back_action.setEnabled(bool(self._history))
        if target.startswith("topic:"):
            self.show_topic(target.removeprefix("topic:"), remember=False)
        else:
            self.show_ref(target, remember=False)

    def compare_current(self) -> None:
        if self.current:
            self.controller.compare(self.current)

    def _tree_current(self, index: QModelIndex, _prev: QModelIndex) -> None:
        ref = index.data(REF_ROLE)
        if ref:
            self.show_ref(ref)

    def _topic_current(self, index: QModelIndex, _prev: QModelIndex) -> None:
        topic_id = index.data(REF_ROLE)
        if topic_id:
            self.show_topic(topic_id)

    # -- state -----------------------------------------------------------------
    def save_state(self, settings: QSettings) -> None:
        self.save_layout(settings, splitter=self.splitter)
        settings.setValue(self.key("current"), self.current or "")

    def restore_state(self, settings: QSettings) -> None:
        self.restore_layout(settings, splitter=self.splitter)
        current = settings.value(self.key("current"), "")
        if isinstance(current, str) and current and self.controller.library is not None:
            if current.startswith("topic:"):
                topic = current.removeprefix("topic:")
                if topic in {t.id for t in self.controller.library.topics}:
                    self.show_topic(topic, remember=False)
            elif current in self.controller.library.index:
                self.show_ref(current, remember=False)

    def export_document(self) -> tuple[str, str] | None:
        if not self.current:
            return None
        return self.current, self.page.page_html()

    def focus_main(self) -> None:
        self.tree.setFocus()
