"""The lesson browser: shipped lessons by topic with pictures, the teacher's folder, recent lessons."""

import pytest
from PySide6.QtCore import QSettings, Qt

from classroom_sim import lesson_files, load_scene
from ui.browser import FOLDER_KEY, TEXT, LessonBrowser
from ui.main_window import MainWindow


@pytest.fixture
def settings(tmp_path):
    return QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat)


def items(tree):
    """(topic or None, item) for every lesson row."""
    out = []
    for k in range(tree.topLevelItemCount()):
        top = tree.topLevelItem(k)
        if top.childCount():
            out += [(top.text(0), top.child(j)) for j in range(top.childCount())]
        else:
            out.append((None, top))
    return out


def test_every_shipped_lesson_is_listed_under_its_topic_with_a_picture(qtbot, settings):
    browser = LessonBrowser(lesson_files(), settings)
    qtbot.addWidget(browser)
    browser.shipped.draw_all()
    rows = items(browser.shipped)
    assert len(rows) == len(lesson_files())
    for topic, item in rows:
        lesson = load_scene(item.data(0, Qt.UserRole)).lesson
        assert topic == lesson.topic
        text = item.data(0, TEXT)
        assert lesson.title in text and lesson.summary in text and lesson.audience in text
        assert not browser.shipped.itemWidget(item, 0).picture.pixmap().isNull()
    assert len({t for t, _ in rows}) >= 5


def test_double_click_opens_the_lesson_in_the_window(qtbot, settings):
    path = next(p for p in lesson_files() if p.stem == "free_fall")
    w = MainWindow(load_scene(path), path, settings=settings)
    qtbot.addWidget(w)
    browser = w.make_browser()
    qtbot.addWidget(browser)
    target = next(item for _, item in items(browser.shipped) if item.data(0, Qt.UserRole).endswith("cradle.toml"))
    browser.shipped.setCurrentItem(target)
    browser.shipped.itemDoubleClicked.emit(target, 0)
    assert browser.path.endswith("cradle.toml") and browser.result() == LessonBrowser.Accepted
    assert w.open_scene_file(browser.path)
    w.lesson_panel.entering.result(timeout=5)
    assert w.lesson_panel.title.text() == "Newton's cradle" and "cradle" in w.recent.paths()[0]
    w.close()


def test_a_teachers_folder_lists_good_lessons_and_a_bad_files_error(qtbot, settings, tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    good = next(p for p in lesson_files() if p.stem == "moon")
    (folder / "moon_copy.toml").write_text(good.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "broken.toml").write_text("[[bodies]]\nname = 'x'\nmass = -1\n", encoding="utf-8")
    browser = LessonBrowser(lesson_files(), settings)
    qtbot.addWidget(browser)
    browser.set_folder(folder)
    assert settings.value(FOLDER_KEY) == str(folder)
    texts = [item.data(0, TEXT) or item.text(0) for _, item in items(browser.mine)]
    assert any("The Moon against the Earth" in t for t in texts)
    bad = [t for t in texts if "broken.toml" in t]
    assert len(bad) == 1 and "bodies[0]" in bad[0] and "\n" not in bad[0]
    # remembered: a new browser shows the same folder
    again = LessonBrowser(lesson_files(), settings)
    qtbot.addWidget(again)
    assert len(items(again.mine)) == 2


def test_recent_lessons_are_listed(qtbot, settings):
    paths = [str(p) for p in lesson_files()[:2]]
    browser = LessonBrowser(lesson_files(), settings, recent=paths + ["/no/such/file.toml"])
    qtbot.addWidget(browser)
    assert [item.data(0, Qt.UserRole) for _, item in items(browser.recent)] == paths
