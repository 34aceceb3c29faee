"""What the bundle leaves out (bundle/trim.py), checked without a build: the file
names are those of PySide6's wheels on each system (Linux and macOS under
PySide6/Qt/, Windows under PySide6/), as PyInstaller lays them out."""
from __future__ import annotations

import pytest

from bundle.trim import orphans, plugin_name, strippable, unused

KEPT = [
    # what the app runs on: the desktop platforms and offscreen (tests, --smoke-test)
    "PySide6/Qt/plugins/platforms/libqxcb.so",
    "PySide6/Qt/plugins/platforms/libqwayland.so",
    "PySide6/Qt/plugins/platforms/libqoffscreen.so",
    "PySide6/plugins/platforms/qwindows.dll",
    "PySide6/plugins/platforms/qoffscreen.dll",
    "PySide6/Qt/plugins/platforms/libqcocoa.dylib",
    "PySide6/Qt/plugins/platformthemes/libqxdgdesktopportal.so",  # the desktop's file dialog
    "PySide6/Qt/plugins/platforminputcontexts/libibusplatforminputcontextplugin.so",
    "PySide6/Qt/plugins/imageformats/libqsvg.so",
    "PySide6/Qt/plugins/imageformats/libqjpeg.so",
    "PySide6/plugins/imageformats/qico.dll",
    "PySide6/Qt/plugins/iconengines/libqsvgicon.so",
    "PySide6/plugins/styles/qmodernwindowsstyle.dll",
    "PySide6/Qt/plugins/xcbglintegrations/libqxcb-glx-integration.so",
    "PySide6/Qt/plugins/wayland-shell-integration/libxdg-shell.so",
    "PySide6/Qt/lib/libQt6Core.so.6",
    "PySide6/Qt6Widgets.dll",
    "PySide6/QtWidgets.abi3.so",
    # not Qt's: a folder of the seed data may be called anything
    "rules_data/translations/notes.yaml",
    "libpython3.11.so.1.0",
]
LEFT_OUT = [
    "PySide6/Qt/translations/qtbase_de.qm",
    "PySide6/translations/qtbase_fr.qm",
    "PySide6/Qt/plugins/platforms/libqeglfs.so",
    "PySide6/Qt/plugins/platforms/libqvnc.so",
    "PySide6/Qt/plugins/platforms/libqlinuxfb.so",
    "PySide6/Qt/plugins/platforms/libqminimal.so",
    "PySide6/plugins/platforms/qdirect2d.dll",
    "PySide6/Qt/plugins/platformthemes/libqgtk3.so",
    "PySide6/Qt/plugins/egldeviceintegrations/libqeglfs-x11-integration.so",
    "PySide6/Qt/plugins/generic/libqevdevmouseplugin.so",
    "PySide6/Qt/plugins/tls/libqopensslbackend.so",
    "PySide6/plugins/tls/qschannelbackend.dll",
    "PySide6/Qt/plugins/networkinformation/libqnetworkmanager.so",
    "PySide6/Qt/plugins/imageformats/libqtiff.so",
    "PySide6/plugins/imageformats/qwebp.dll",
]


@pytest.mark.parametrize("dest", KEPT)
def test_what_the_app_uses_is_kept(dest):
    assert not unused(dest)


@pytest.mark.parametrize("dest", LEFT_OUT)
def test_what_the_app_never_uses_is_left_out(dest):
    assert unused(dest)


def test_a_windows_destination_with_backslashes_is_read_as_a_path():
    assert unused(r"PySide6\translations\qtbase_de.qm")
    assert not unused(r"PySide6\plugins\platforms\qwindows.dll")


@pytest.mark.parametrize("filename, name", [("libqxcb.so", "qxcb"), ("qwindows.dll", "qwindows"),
                                            ("libqcocoa.dylib", "qcocoa"),
                                            ("libqgtk3.so", "qgtk3")])
def test_plugin_names_on_each_system(filename, name):
    assert plugin_name(filename) == name


def test_host_libraries_only_a_left_out_plugin_needed_go_with_it():
    """The GTK theme pulls cairo and pango; Qt's xcb platform needs libX11 and
    fontconfig, and so does the theme: those stay."""
    gtk = ("PySide6/Qt/plugins/platformthemes/libqgtk3.so", "/src/libqgtk3.so", "BINARY")
    xcb = ("PySide6/Qt/plugins/platforms/libqxcb.so", "/src/libqxcb.so", "BINARY")
    kept = [xcb, *[(name, f"/src/{name}", "BINARY")
                   for name in ("libcairo.so.2", "libpango-1.0.so.0", "libX11.so.6",
                                "libfontconfig.so.1", "libpython3.11.so.1.0")]]
    closure = {  # as ldd answers: every library, directly or not
        "/src/libqgtk3.so": ["libcairo.so.2", "libpango-1.0.so.0", "libX11.so.6",
                             "libfontconfig.so.1", "libgtk-3.so.0"],
        "/src/libqxcb.so": ["libX11.so.6", "libfontconfig.so.1"],
        "/src/libpango-1.0.so.0": ["libcairo.so.2"],
    }
    gone = orphans(kept, [gtk], lambda source: closure.get(source, []))
    assert gone == {"libcairo.so.2", "libpango-1.0.so.0"}


def test_a_library_in_a_packages_folder_is_never_an_orphan():
    plugin = ("PySide6/Qt/plugins/platformthemes/libqgtk3.so", "/src/gtk", "BINARY")
    qt_lib = ("PySide6/Qt/lib/libQt6DBus.so.6", "/src/dbus", "BINARY")
    assert orphans([qt_lib], [plugin], lambda source: ["libQt6DBus.so.6"]) == set()


@pytest.mark.parametrize("dest, expected", [
    ("llvmlite/binding/libllvmlite.so", True),
    ("libpython3.11.so.1.0", True),
    ("PySide6/Qt/lib/libQt6Core.so.6", True),
    ("yaml/_yaml.cpython-311-x86_64-linux-gnu.so", True),
    # auditwheel patched these: stripped, numpy's OpenBLAS no longer loads
    ("numpy.libs/libscipy_openblas64_-32a4b2a6.so", False),
    ("numpy.libs/libgfortran-040039e1-0352e75f.so.5.0.0", False),
    ("rules_data/apca/rules.yaml", False),
    ("base_library.zip", False),
])
def test_what_is_stripped_on_linux(dest, expected):
    assert strippable(dest) is expected


def test_a_library_found_in_an_auditwheel_folder_is_not_stripped_wherever_it_goes():
    assert not strippable("libscipy_openblas64_-32a4b2a6.so",
                          "/venv/site-packages/numpy.libs/libscipy_openblas64_-32a4b2a6.so")
    assert strippable("libz.so.1", "/usr/lib/x86_64-linux-gnu/libz.so.1")


def test_a_library_needed_through_a_kept_one_stays_where_headers_name_direct_links_only():
    """Windows and macOS name a binary's direct links: harfbuzz, linked by the GTK theme
    and by freetype, which Qt's platform needs, stays; pango (the theme's only) goes."""
    theme = ("PySide6/plugins/platformthemes/qgtk3.dll", "/src/qgtk3.dll", "BINARY")
    platform = ("PySide6/plugins/platforms/qwindows.dll", "/src/qwindows.dll", "BINARY")
    kept = [platform, *[(name, f"/src/{name}", "BINARY")
                        for name in ("freetype.dll", "harfbuzz.dll", "pango.dll")]]
    direct = {"/src/qgtk3.dll": ["harfbuzz.dll", "freetype.dll", "pango.dll"],
              "/src/qwindows.dll": ["freetype.dll"], "/src/freetype.dll": ["harfbuzz.dll"],
              "/src/pango.dll": ["harfbuzz.dll"]}
    assert orphans(kept, [theme], lambda source: direct.get(source, [])) == {"pango.dll"}
