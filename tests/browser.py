"""Headless Chromium for the viewer's browser test: where it is, how ``make test`` installs it, how a test drives it.

The browser is Debian's ``chromium`` with its ``chromium-driver`` (``/usr/bin/chromium``, ``/usr/bin/chromedriver``),
driven by Selenium with both paths given, so Selenium Manager looks nothing up and downloads nothing.

``python tests/browser.py`` (``make test`` runs it before the suite) installs the two packages with apt-get when the
browser is missing, apt-get exists and it runs as root, and says what it does; it changes nothing where the browser
is there. Where apt-get is missing the browser test skips and says why; anywhere else a missing browser fails it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
PACKAGES = ("chromium", "chromium-driver")


def missing() -> list[str]:
    """The browser's files that are not there."""
    return [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]


def no_package_manager() -> bool:
    """Where apt-get is missing the browser cannot be installed the way ``make test`` does: the test skips."""
    return shutil.which("apt-get") is None


def install() -> int:
    """Install the browser with apt-get when it is missing (root only); the exit status of what was run."""
    gone = missing()
    if not gone:
        return 0
    if no_package_manager():
        print(f"browser: {', '.join(gone)} missing and no apt-get here: tests/test_viewer_browser.py will be SKIPPED")
        return 0
    if os.geteuid() != 0:
        print(f"browser: {', '.join(gone)} missing; run as root: apt-get install -y {' '.join(PACKAGES)} "
              "(tests/test_viewer_browser.py fails without it)")
        return 1
    print(f"browser: {', '.join(gone)} missing: apt-get update; apt-get install -y {' '.join(PACKAGES)}", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", *PACKAGES]):
        done = subprocess.run(command, env=env, check=False)
        if done.returncode:
            print(f"browser: {' '.join(command)} failed (exit {done.returncode})")
            return done.returncode
    return 0


def chrome(width: int = 1280, height: int = 900) -> Any:
    """A headless Chromium WebDriver on Debian's browser and driver (nothing downloaded)."""
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager, if anything asked it, would look nothing up
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                f"--window-size={width},{height}"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)


if __name__ == "__main__":
    sys.exit(install())
