"""Issue 27 (part A): the app shows an adopted text changed by hand as an error on the
Rules, Editions and Rulings workspaces; a folder whose texts match shows nothing."""
from __future__ import annotations

import yaml


def _start(qtbot, settings, data):
    from ui.controller import AppController
    from ui.mainwindow import MainWindow

    controller = AppController()
    assert controller.load(data).ok
    win = MainWindow(controller, settings)
    qtbot.addWidget(win)
    win.resize(1024, 700)
    win.show()
    qtbot.waitExposed(win)
    return controller, win


def test_matching_texts_show_no_banner(qtbot, settings, two_editions):
    controller, win = _start(qtbot, settings, two_editions)
    assert controller.text_mismatches == ()
    for name in ("rules", "editions", "rulings"):
        assert not win.workspaces[name].texts_banner.isVisible()


def test_an_adopted_text_changed_by_hand_is_an_error_banner(qtbot, settings, two_editions):
    book = two_editions / "apca" / "rulebook.yaml"
    data = yaml.safe_load(book.read_text(encoding="utf-8"))
    rule = next(r for r in data["rules"] if r["id"] == "28")
    proposal = next(p for p in rule["proposals"] if p["id"] == "28A")
    proposal["text"] += " Or a win for the lone King."  # the rulings' quotes stay in it
    book.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True),
                    encoding="utf-8")
    controller, win = _start(qtbot, settings, two_editions)
    assert [m.source for m in controller.text_mismatches if m.where == "edition second"] \
        == ["apca:28A"]
    for name in ("rules", "editions"):
        win.show_workspace(name)
        banner = win.workspaces[name].texts_banner
        assert not banner.isHidden()
        assert "NOT the ones the committee voted on or adopted" in banner.label.text()
        assert "apca:28A" in banner.label.text()
        assert "rulesbook history apca:28A" in banner.label.text()
    rulings = win.workspaces["rulings"].texts_banner
    assert not rulings.isHidden()
    assert rulings.label.text().startswith("The rulings below quote edition second, but its "
                                           "text is NOT the adopted one")
    win.show_workspace("rules")
    win.grab().save("/tmp/i27a-banner.png")
