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

import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

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

pytestmark = pytest.mark.slow  # a real server and a real browser: subprocesses for every test


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


def _marked(driver: WebDriver) -> set[str]:
    """The squares the board highlights (a move shown or retracted)."""
    groups = driver.find_elements(By.CSS_SELECTOR, "#board g.sq")
    return {
        str(g.get_attribute("data-square"))
        for g in groups
        if g.find_elements(By.CSS_SELECTOR, 'rect[fill="var(--mark)"]')
    }


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
    kept = panel.find_elements(By.CSS_SELECTOR, ".session-cages li.cage-entry")  # the verified cage is kept
    assert len(kept) == 1 and kept[0].text.startswith("8/8/8/8/8/8/6PP/6Nr zone=d1 frozen=g1 depth=5")
    library = str(driver.execute_script("return document.querySelector('#panel-cage .cage-lines').textContent"))
    verified = subprocess.run(  # the kept line, as a known-cage library line, is the same cage for the CLI
        [sys.executable, "-m", "retro.cli", "cage", "-f", "-", "--json"],
        input=library,
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, PYTHONPATH=str(DOCS.parent)),
    )
    assert json.loads(verified.stdout)["status"] == "cage"
    _shot(driver, "cage")

    # Last move (Angelini, README): a diagram in which White retracts 3 moves; the solution shows its predecessors.
    _load(driver, "8/8/3r4/4K3/8/4kqpb/8/8 b - - 0 1")
    panel = _tab(driver, "lastmove")
    assert "my 1 verified cage" in panel.find_element(By.CSS_SELECTOR, ".session-cages-note").text
    panel.find_element(By.NAME, "placement_only").click()
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
    assert _marked(driver) == {"f5", "e5"}  # the retracted move
    _shot(driver, "lastmove")
    driver.find_element(By.ID, "view-close").click()
    panel.find_element(By.NAME, "placement_only").click()

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


# Records the body of every job the page starts (the page's only way to run a command).
RECORD_JOBS = """
window.sentJobs = [];
const send = window.fetch;
window.fetch = (url, options) => {
  if (url === "/api/v1/jobs" && options && options.method === "POST") window.sentJobs.push(JSON.parse(options.body));
  return send(url, options);
};
"""


def test_a_cage_verified_on_the_page_solves_a_last_move_problem(live_server: str, browser: WebDriver) -> None:
    """A cage verified in the Cage panel goes, ticked, with a last-move request instead of the
    library (the server verifies it again): ``k1br2b1/ppKppp1B/2p3p1`` (depth 30) refutes
    Qe8xRd8 and Qf8xRd8, and with the library off and this cage the problem
    ``k1bQ2b1/ppKppp1B/2p3p1`` (White retracts) is unique, Qf8xQd8."""
    driver = browser
    driver.get(live_server + "/")
    driver.execute_script("sessionStorage.clear()")
    driver.execute_script(RECORD_JOBS)
    _load(driver, "k1br2b1/ppKppp1B/2p3p1/8/8/8/8/8 w - - 0 1")
    panel = _tab(driver, "cage")
    panel.find_element(By.NAME, "depth").clear()
    panel.find_element(By.NAME, "depth").send_keys("30")
    panel.find_element(By.CSS_SELECTOR, ".run").click()
    _wait_for(driver, "#panel-cage .verdict", "verified", timeout=90)
    _load(driver, "k1bQ2b1/ppKppp1B/2p3p1/8/8/8/8/8 b - - 0 1")  # Black to move: White moved last
    panel = _tab(driver, "lastmove")
    panel.find_element(By.NAME, "session_cages").click()
    job = _run(driver, "lastmove", timeout=120)
    assert job["params"]["cages"] == [
        {"fen": "k1br2b1/ppKppp1B/2p3p1/8/8/8/8/8", "zone": [], "frozen": [], "forbid": [], "depth": 30}
    ]
    assert "unique solution" in panel.find_element(By.CSS_SELECTOR, ".verdict").text
    assert "Qf8xQd8" in panel.find_element(By.CSS_SELECTOR, "tr.pick").text
    _shot(driver, "lastmove-cages")


def _run(driver: WebDriver, name: str, timeout: float = 90) -> dict[str, Any]:
    """Run the panel's command, wait for its answer (a verdict or an error), and return the job the page sent."""
    panel = _tab(driver, name)
    sent = int(driver.execute_script("return window.sentJobs.length"))
    panel.find_element(By.CSS_SELECTOR, ".run").click()
    script = f"const p = document.getElementById('panel-{name}'); return !p.querySelector('.run').disabled && "
    script += "p.querySelector('.job').hidden && p.querySelector('.result').childElementCount > 0"
    WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: d.execute_script(script))
    jobs = driver.execute_script("return window.sentJobs")
    assert len(jobs) == sent + 1
    return cast(dict[str, Any], jobs[-1])


def _post(url: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def test_the_page_sends_the_set_up(live_server: str, browser: WebDriver) -> None:
    """Every panel sends the full FEN as set up (side to move, castling rights, e.p. square);
    the editor changes only the field the user touches, and never rewrites one."""
    driver = browser
    driver.get(live_server + "/")
    driver.execute_script(RECORD_JOBS)
    fen = "r3k2r/8/8/8/4P3/8/8/R3K2R b Kq e3 0 1"
    _load(driver, fen)
    assert driver.find_element(By.CSS_SELECTOR, "input[name=turn][value=b]").is_selected()
    assert [box.is_selected() for box in driver.find_elements(By.CSS_SELECTOR, "#castling input[type=checkbox]")] == [
        True,
        False,
        False,
        True,
    ]
    assert driver.find_element(By.ID, "ep").get_attribute("value") == "e3"
    _tab(driver, "proofgame").find_element(By.NAME, "time_limit").clear()
    _tab(driver, "proofgame").find_element(By.NAME, "time_limit").send_keys("2")
    _tab(driver, "lastmove").find_element(By.NAME, "legality").click()
    _tab(driver, "dead").find_element(By.NAME, "quick").click()
    for name in ("check", "revmoves", "proofgame", "dead", "lastmove"):
        job = _run(driver, name)
        assert job["params"]["fen"] == fen, name
    assert "retract" not in job["params"]  # the side that moved last is the FEN's

    # Unticking K changes the castling field alone.
    driver.find_element(By.CSS_SELECTOR, "#castling input[value=K]").click()
    assert driver.find_element(By.ID, "fen").get_attribute("value") == "r3k2r/8/8/8/4P3/8/8/R3K2R b q e3 0 1"
    assert _run(driver, "check")["params"]["fen"] == "r3k2r/8/8/8/4P3/8/8/R3K2R b q e3 0 1"

    # A retracting side other than the FEN's is sent, and the page shows what the API answers for it.
    panel = _tab(driver, "lastmove")
    panel.find_element(By.CSS_SELECTOR, 'select[name=retract] option[value="b"]').click()
    job = _run(driver, "lastmove")
    assert job["params"]["retract"] == "b" and job["params"]["fen"] == "r3k2r/8/8/8/4P3/8/8/R3K2R b q e3 0 1"
    status, answer = _post(f"{live_server}/api/v1/lastmove", job["params"])
    shown = panel.find_element(By.CSS_SELECTOR, ".result").text
    if status == 400:
        assert panel.find_element(By.CSS_SELECTOR, ".result .error").text == answer["error"]
    else:
        assert status == 200 and "made the last move" in shown
    panel.find_element(By.CSS_SELECTOR, 'select[name=retract] option[value="auto"]').click()

    # A field the editor cannot show is still the user's: sent as given, judged by the command.
    _load(driver, "4k3/8/8/8/8/8/8/4K3 x - - 0 1")
    assert not any(radio.is_selected() for radio in driver.find_elements(By.CSS_SELECTOR, "input[name=turn]"))
    assert _run(driver, "check")["params"]["fen"] == "4k3/8/8/8/8/8/8/4K3 x - - 0 1"
    error = _wait_for(driver, "#panel-check .result .error").text
    assert error == "retro check: error: side to move must be 'w' or 'b', got 'x'"


def test_lastmove_marks_unchecked_candidates(live_server: str, browser: WebDriver) -> None:
    """The legality pipeline stops once two candidates survive it: the others are listed, marked unchecked."""
    driver = browser
    driver.get(live_server + "/")
    driver.execute_script(RECORD_JOBS)
    _load(driver, "4k3/8/8/8/8/8/8/R3K3 b - - 0 1")
    job = _run(driver, "lastmove", timeout=180)
    assert job["params"]["fen"] == "4k3/8/8/8/8/8/8/R3K3 b - - 0 1"
    panel = driver.find_element(By.ID, "panel-lastmove")
    assert "multiple solutions" in panel.find_element(By.CSS_SELECTOR, ".verdict").text
    unchecked = panel.find_elements(By.CSS_SELECTOR, "tr.pick.unchecked")
    checked = panel.find_elements(By.CSS_SELECTOR, "tr.pick:not(.unchecked)")
    assert len(checked) >= 2 and unchecked and all("(unchecked)" in row.text for row in unchecked)
    note = panel.find_element(By.CSS_SELECTOR, ".unchecked-note").text
    assert note.startswith(f"{len(unchecked)} candidates marked unchecked")
    unchecked[0].click()  # its predecessor is shown, marked as unchecked
    _wait_for(driver, "#view-label", "(unchecked candidate)")
    checked[0].click()
    label = driver.find_element(By.ID, "view-label")
    WebDriverWait(driver, 30, poll_frequency=0.1).until(lambda d: "unchecked" not in label.text)
    assert label.text.startswith("Before")


def _setup_fen(driver: WebDriver) -> str:
    return str(driver.find_element(By.ID, "fen").get_attribute("value"))


def _take_back(driver: WebDriver, move: str, castling: str) -> None:
    """Click the Revmoves row of ``move`` (no capture, predecessor castling ``castling``), once the list is shown."""
    css = f'#panel-revmoves tr.pick[data-move="{move}"][data-captured="-"][data-castling="{castling}"]'
    before = _setup_fen(driver)
    _wait_for(driver, css).click()
    WebDriverWait(driver, 30, poll_frequency=0.1).until(lambda d: _setup_fen(d) != before)
    _wait_for(driver, "#panel-revmoves .verdict", "retractions")  # the new position's list


def test_retract_by_hand(live_server: str, browser: WebDriver) -> None:
    """After 1.e4 e5: take back e7-e5 and e2-e4 by clicking Revmoves rows (the set-up follows, and the Check
    panel works on it), undo one, and save the line as a FEN plus its moves."""
    driver = browser
    driver.get(live_server + "/")
    driver.execute_script(RECORD_JOBS)
    after = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 7"  # clocks as given: move 7
    _load(driver, after)
    panel = _tab(driver, "revmoves")
    panel.find_element(By.CSS_SELECTOR, ".run").click()
    _wait_for(driver, "#panel-revmoves .verdict", "retractions")

    _take_back(driver, "e7e5", "KQkq")
    after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 6"  # the full FEN was sent
    assert _setup_fen(driver) == after_e4
    assert _piece_on(driver, "e7") == "bP" and _piece_on(driver, "e5") is None and _piece_on(driver, "e4") == "wP"
    assert driver.find_element(By.CSS_SELECTOR, "input[name=turn][value=b]").is_selected()
    assert [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#retracted-moves li")] == ["e7-e5"]
    assert _marked(driver) == {"e7", "e5"}
    assert driver.execute_script("return window.sentJobs[window.sentJobs.length - 1].params.fen") == after_e4

    _take_back(driver, "e2e4", "KQkq")
    assert _setup_fen(driver) == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 6"
    assert _piece_on(driver, "e2") == "wP" and _piece_on(driver, "e4") is None
    assert [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#retracted-moves li")] == ["e2-e4", "e7-e5"]
    verdict = driver.find_element(By.CSS_SELECTOR, "#panel-revmoves .verdict").text
    assert "4 retractions" in verdict  # the knights' moves back (Black moved last)
    driver.find_element(By.ID, "copy-line").click()
    text = _wait_for(driver, "#line-text", "e4 e5").text
    assert text.splitlines() == ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 6", "e4 e5"]
    _shot(driver, "retract")

    driver.find_element(By.ID, "undo-retraction").click()
    WebDriverWait(driver, 30, poll_frequency=0.1).until(lambda d: _setup_fen(d) == after_e4)
    assert _piece_on(driver, "e4") == "wP" and _piece_on(driver, "e2") is None and _piece_on(driver, "e7") == "bP"
    assert [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#retracted-moves li")] == ["e7-e5"]
    # The other panels work on the new set-up: Check sends it.
    job = _run(driver, "check")
    assert job["params"]["fen"] == after_e4
    _wait_for(driver, "#panel-check .verdict", "no static objection")


def test_spg_panel_solves_and_steps_through(live_server: str, browser: WebDriver) -> None:
    """1.e4 e5 2.Ke2 Ke7 is the unique 4-ply game to this diagram; step through it on the board."""
    driver = browser
    driver.get(live_server + "/")
    driver.execute_script(RECORD_JOBS)
    fen = "rnbq1bnr/ppppkppp/8/4p3/4P3/8/PPPPKPPP/RNBQ1BNR w - - 0 3"
    _load(driver, fen)
    panel = _tab(driver, "spg")
    plies = panel.find_element(By.NAME, "plies")
    plies.clear()
    plies.send_keys("4")
    job = _run(driver, "spg")
    assert job["params"]["board"] == fen and job["params"]["plies"] == 4
    _wait_for(driver, "#panel-spg .verdict", "unique")
    assert [m.text for m in panel.find_elements(By.CSS_SELECTOR, ".moves span.m")] == ["e4", "e5", "Ke2", "Ke7"]
    assert _piece_on(driver, "e2") == "wP" and _piece_on(driver, "e1") == "wK"  # the game starts at move 0
    next_button = driver.find_element(By.CSS_SELECTOR, '#playback [data-step="next"]')
    expected = [("e4", "wP"), ("e5", "bP"), ("e2", "wK"), ("e7", "bK")]
    for ply, (square, piece) in enumerate(expected, start=1):
        next_button.click()
        assert _piece_on(driver, square) == piece, ply
        assert f"position {ply} of 4" in driver.find_element(By.ID, "ply-label").text
        if ply == 3:
            _shot(driver, "spg")
    assert _piece_on(driver, "e1") is None and _piece_on(driver, "e8") is None
    driver.find_element(By.ID, "view-close").click()
    assert _setup_fen(driver) == fen  # the set-up is unchanged
