"""The workbench page in a real headless Chromium (Debian's chromium and chromium-driver).

One walk through the page, as a user would: paste a FEN and check it, prove a short
position legal and step through the proof on the board, verify a cage by clicking
squares, solve a last-move problem and show a predecessor, play a helpmate, list the
retractions. A screenshot of each panel is taken; it goes to ``docs/`` (the README
shows them) when ``RETRO_SCREENSHOTS=docs`` is set, else to a temporary folder, so that
a test run leaves the work tree clean.
Skipped only when chromium or its driver is not installed (``.ci/run`` installs both).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
DOCS = Path(__file__).resolve().parents[3] / "docs"
SHOTS = DOCS if os.environ.get("RETRO_SCREENSHOTS") == "docs" else Path(tempfile.mkdtemp(prefix="retro-shots-"))

if not (Path(CHROMIUM).exists() and Path(DRIVER).exists()):
    pytest.skip(
        "chromium and chromium-driver are not installed (apt-get install -y chromium chromium-driver)",
        allow_module_level=True,
    )

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install selenium)")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="retro-chromium-")
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        "--window-size=1360,1000",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=DRIVER))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _wait_for(driver: WebDriver, css: str, text: str = "", timeout: float = 30) -> WebElement:
    """The first visible element matching ``css`` whose text contains ``text``."""

    def found(d: WebDriver) -> WebElement | bool:
        for element in d.find_elements(By.CSS_SELECTOR, css):
            if element.is_displayed() and text in element.text:
                return element
        return False

    return cast(WebElement, WebDriverWait(driver, timeout, poll_frequency=0.1).until(found))


def _load(driver: WebDriver, fen: str) -> None:
    field = driver.find_element(By.ID, "fen")
    field.clear()
    field.send_keys(fen + "\n")


def _tab(driver: WebDriver, name: str) -> WebElement:
    driver.find_element(By.CSS_SELECTOR, f"#tabs [data-panel={name}]").click()
    return driver.find_element(By.ID, f"panel-{name}")


def _piece_on(driver: WebDriver, square: str) -> str | None:
    images = driver.find_elements(By.CSS_SELECTOR, f'#board g[data-square="{square}"] image')
    return (images[0].get_attribute("href") or "").rsplit("/", 1)[-1].removesuffix(".svg") if images else None


def _shot(driver: WebDriver, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(SHOTS / f"serve-{name}.png"))


def test_workbench_page(live_server: str, browser: WebDriver) -> None:
    driver = browser
    driver.get(live_server + "/")
    _wait_for(driver, "#pool-status", "workers")

    # Check: pasted FEN, one black pawn too many on the a-file (a capture White never lost).
    _load(driver, "rnbqkbnr/p1pppppp/p7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert _piece_on(driver, "a6") == "bP" and _piece_on(driver, "b7") is None
    panel = _tab(driver, "check")
    panel.find_element(By.CSS_SELECTOR, ".run").click()
    assert "captures" in _wait_for(driver, "#panel-check .verdict", "illegal").text
    _shot(driver, "check")

    # Legality: after 1.e4 d5 the proof game has two plies; step through it on the board.
    _load(driver, "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
    panel = _tab(driver, "proofgame")
    panel.find_element(By.CSS_SELECTOR, ".run").click()
    _wait_for(driver, "#panel-proofgame .verdict", "legal")
    assert [m.text for m in panel.find_elements(By.CSS_SELECTOR, ".moves span.m")] == ["e4", "d5"]
    assert _piece_on(driver, "e2") == "wP" and _piece_on(driver, "d7") == "bP"  # the playback starts at move 0
    next_button = driver.find_element(By.CSS_SELECTOR, '#playback [data-step="next"]')
    next_button.click()
    assert _piece_on(driver, "e4") == "wP" and _piece_on(driver, "e2") is None and _piece_on(driver, "d7") == "bP"
    assert "position 1 of 2" in driver.find_element(By.ID, "ply-label").text
    _shot(driver, "legality")
    next_button.click()
    assert _piece_on(driver, "d5") == "bP" and _piece_on(driver, "d7") is None
    assert panel.find_element(By.CSS_SELECTOR, "button.pgn").is_displayed()
    driver.find_element(By.ID, "view-close").click()

    # Cage (Hwa's frozen-piece example): without the frozen knight the rook escapes; freeze g1 by clicking it.
    _load(driver, "8/8/8/8/8/8/6PP/6Nr w - - 0 1")
    panel = _tab(driver, "cage")
    panel.find_element(By.NAME, "depth").clear()
    panel.find_element(By.NAME, "depth").send_keys("5")
    driver.find_element(By.CSS_SELECTOR, '#board g[data-square="d1"]').click()  # zone mode is the default
    assert "Zone (added to the default): d1" in panel.find_element(By.CSS_SELECTOR, ".marks").text
    panel.find_element(By.CSS_SELECTOR, ".run").click()
    result = _wait_for(driver, "#panel-cage .result", "not verified").text
    assert "Ra1-h1" in result and "d1 " in result.split("zone searched")[1]  # the clicked square was searched
    panel.find_element(By.CSS_SELECTOR, 'input[name=cage-mode][value="frozen"]').click()
    driver.find_element(By.CSS_SELECTOR, '#board g[data-square="g1"]').click()
    assert "frozen: g1" in panel.find_element(By.CSS_SELECTOR, ".marks").text
    assert _piece_on(driver, "g1") == "wN"  # clicking marks the square; the knight stays
    panel.find_element(By.CSS_SELECTOR, ".run").click()
    _wait_for(driver, "#panel-cage .verdict", "verified")
    assert "not verified" not in panel.find_element(By.CSS_SELECTOR, ".result").text
    assert not driver.find_element(By.ID, "view-banner").is_displayed()
    _shot(driver, "cage")

    # Last move (Angelini, README): White retracts 3 moves; the solution shows its predecessors.
    _load(driver, "8/8/3r4/4K3/8/4kqpb/8/8 b - - 0 1")
    panel = _tab(driver, "lastmove")
    panel.find_element(By.CSS_SELECTOR, 'select[name=retract] option[value="w"]').click()
    moves = panel.find_element(By.NAME, "moves")
    moves.clear()
    moves.send_keys("3")
    panel.find_element(By.NAME, "legality").click()  # static filters suffice here, and are fast
    panel.find_element(By.CSS_SELECTOR, ".run").click()
    _wait_for(driver, "#panel-lastmove .verdict", "unique solution")
    row = _wait_for(driver, "#panel-lastmove tr.pick", "Kf5xNe5")
    assert "KxN" in row.text
    row.click()
    _wait_for(driver, "#view-label", "Before Kf5xNe5")
    assert _piece_on(driver, "f5") == "wK" and _piece_on(driver, "e5") == "bN"
    _shot(driver, "lastmove")
    driver.find_element(By.ID, "view-close").click()

    # Dead / unwinnable: White's queen can mate; play the helpmate to its end.
    _load(driver, "8/8/8/4k3/8/8/8/3QK3 b - - 0 1")
    panel = _tab(driver, "dead")
    panel.find_element(By.CSS_SELECTOR, 'select[name=mode] option[value="white"]').click()
    panel.find_element(By.CSS_SELECTOR, ".run").click()
    _wait_for(driver, "#panel-dead .verdict", "winnable")
    _wait_for(driver, "#panel-dead button", "helpmate").click()
    driver.find_element(By.CSS_SELECTOR, '#playback [data-step="last"]').click()
    _shot(driver, "dead")
    driver.find_element(By.ID, "view-close").click()

    # Revmoves: the README's example has a bishop check from b4.
    _load(driver, "rnbqk1nr/ppp2ppp/4p3/3p4/1b1P4/2N5/PPPQPPPP/R1B1KBNR w KQkq - 0 1")
    panel = _tab(driver, "revmoves")
    panel.find_element(By.CSS_SELECTOR, ".run").click()
    _wait_for(driver, "#panel-revmoves .verdict", "retractions")
    cells = [td.text for td in panel.find_elements(By.CSS_SELECTOR, "td.moves")]
    assert "a3b4" in cells
    _shot(driver, "revmoves")


def test_cancel_keeps_the_page_responsive(live_server: str, browser: WebDriver) -> None:
    """A long proof search shows its progress and stops on Cancel; the page answers meanwhile."""
    driver = browser
    driver.get(live_server + "/")
    # Tromp's 1bQ2b2/... (tests/astar/test_initial_path.py): its search runs out of any budget of seconds.
    _load(driver, "1bQ2b2/1K1Nr3/2p5/1kPQpb2/N2QP3/1q1bR3/1nnN2P1/nq1N1bn1 b - - 0 1")
    panel = _tab(driver, "proofgame")
    panel.find_element(By.CSS_SELECTOR, ".run").click()
    _wait_for(driver, "#panel-proofgame .job .state", "running")
    driver.find_element(By.CSS_SELECTOR, "#tabs [data-panel=check]").click()  # the page still reacts
    assert driver.find_element(By.ID, "panel-check").is_displayed()
    _tab(driver, "proofgame")
    _wait_for(driver, "#panel-proofgame .job .state", "1.")  # a second of search: the bar has moved
    _shot(driver, "progress")
    panel.find_element(By.CSS_SELECTOR, ".job .cancel").click()
    _wait_for(driver, "#panel-proofgame .result .error", "cancelled")
    _wait_for(driver, "#pool-status", "2 ready", timeout=20)  # the killed worker was replaced
