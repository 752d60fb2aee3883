"""The viewer's page in a real browser: headless Chromium (Debian's, driven by Selenium through its chromedriver;
tests/browser.py) against the viewer's server on 127.0.0.1. A hand worked by hand is stepped through frame by frame
and the pot and board the page shows are checked; a hand is played to its end by clicking."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from agent_zoo.viewer import Library
from agent_zoo.viewer.server import Viewer, ViewerServer
from poker_envs.core.cards import card_to_str
from tests import browser
from tests.test_viewer import WORKED_FRAMES, worked_file

if browser.missing() and browser.no_package_manager():
    pytest.skip(f"BROWSER TEST SKIPPED: {', '.join(browser.missing())} missing and no apt-get on this machine to install "
                f"{' and '.join(browser.PACKAGES)}", allow_module_level=True)

WAIT_S = 10


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ViewerServer]:
    """The viewer's server with the worked hand to replay and a no-limit table against the random agent, every raise
    size a chip apart (so the page offers an amount to type)."""
    folder = tmp_path_factory.mktemp("viewer")
    table = {"game": "nolimit", "agent": "random", "seed": 7, "env_config": {"bet_sizing": "chips"}}
    srv = ViewerServer(Viewer(Library.load([worked_file(folder)]), table), "127.0.0.1", 0)
    threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    if browser.missing():
        pytest.fail(f"{', '.join(browser.missing())} missing: install them as root with `python tests/browser.py` "
                    "(make test runs it), or apt-get install chromium chromium-driver")
    chrome = browser.chrome()
    yield chrome
    chrome.quit()


def text(driver: Any, element_id: str) -> str:
    return driver.find_element(By.ID, element_id).text


def test_stepping_through_a_hand_shows_the_pots_and_boards_worked_by_hand(driver: Any, served: ViewerServer) -> None:
    driver.get(served.url)
    wait = WebDriverWait(driver, WAIT_S)
    wait.until(expected_conditions.element_to_be_clickable((By.CSS_SELECTOR, '#hand-list li[data-id="0"]'))).click()
    n = len(WORKED_FRAMES)
    wait.until(lambda d: text(d, "frame-pos") == f"1 / {n}" and text(d, "hand-title").startswith("worked.phh"))
    for k, (words, pot, board) in enumerate(WORKED_FRAMES):
        assert text(driver, "frame-text") == words
        assert float(driver.find_element(By.ID, "pot").get_attribute("data-value")) == pot
        shown = driver.find_elements(By.CSS_SELECTOR, "#replay-table-board .card")
        assert [c.get_attribute("data-card") for c in shown] == board, words
        if k + 1 < n:
            driver.find_element(By.ID, "next").click()
            wait.until(lambda d, k=k: text(d, "frame-pos") == f"{k + 2} / {n}")
    won = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#replay-table .seat .won")]
    assert won == ["-56", "+56"] and driver.find_element(By.ID, "next").get_attribute("disabled")
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_LEFT)
    wait.until(lambda d: text(d, "frame-pos") == f"{n - 1} / {n}")
    body.send_keys(Keys.HOME)
    wait.until(lambda d: text(d, "frame-pos") == f"1 / {n}")
    driver.find_element(By.CSS_SELECTOR, '#frame-list li[data-frame="3"]').click()
    wait.until(lambda d: text(d, "frame-text") == "Flop: Kd 7s 2c")


def test_playing_a_hand_to_its_end_by_clicking(driver: Any, served: ViewerServer) -> None:
    driver.get(served.url)
    wait = WebDriverWait(driver, WAIT_S)
    driver.find_element(By.ID, "tab-play").click()
    deal = driver.find_element(By.ID, "deal")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#play-actions button") or deal.is_displayed())
    if deal.is_displayed():  # the agent folded before the person's first decision: the next hand
        deal.click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#play-actions button"))
    start = served.viewer.table.hands
    raised = None
    for _ in range(40):
        if deal.is_displayed():
            break
        buttons = driver.find_elements(By.CSS_SELECTOR, "#play-actions button")
        if raised is None and driver.find_element(By.ID, "play-raise").is_displayed():
            amount = driver.find_element(By.ID, "raise-amount")
            raised = int(float(amount.get_attribute("min"))) + 1
            amount.clear()
            amount.send_keys(str(raised))
            driver.find_element(By.ID, "raise-go").click()
        else:
            passive = [b for b in buttons if b.get_attribute("data-kind") in ("check", "call")]
            (passive or buttons)[0].click()
        wait.until(expected_conditions.staleness_of(buttons[0]))
    assert deal.is_displayed() and text(driver, "play-status").startswith("Hand over: you ")
    table = served.viewer.table
    assert table.hands == start + 1 and table.over
    assert raised is not None and f"you: raise to {raised}" in table.log
    assert float(driver.find_element(By.ID, "play-total").get_attribute("data-value")) == table.total
    assert [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#play-log li")] == table.log
    mine = driver.find_elements(By.CSS_SELECTOR, f'#play-table .seat[data-seat="{table.seat}"] .card')
    hole = table.env.last_hand[0].hole[table.seat]  # the rules' cards of the person's seat
    assert [c.get_attribute("data-card") for c in mine] == [card_to_str(c) for c in hole]
    deal.click()
    wait.until(lambda d: not d.find_element(By.ID, "deal").is_displayed() or table.hands > start + 1)
