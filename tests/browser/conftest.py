"""Fixtures of the browser tests: one live server and one Chromium per pytest process, fresh browser contexts per test.

The browser is the Debian ``chromium`` (``$CHROMIUM``, else ``chromium`` on
the ``PATH``, else ``/usr/bin/chromium``), driven by Playwright's synchronous
API; Playwright's own browser downloads are never used.  Without a chromium
binary every browser test is skipped with the reason; ``.ci/run`` installs
the package, so CI always runs them.  Screenshots go to
``artifacts/screenshots/<test>-<step>.png``; a failing test also leaves one
screenshot of every page it had open.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Generator, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect, sync_playwright

from .flows import Screenshot
from .live_server import LiveServer
from .ui import PROBE_SCRIPT

REPO_ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO_ROOT / "artifacts" / "screenshots"
GRACE_SECONDS = 2.0
"""Short, so that the reconnect test sees a stand-in bot quickly; pages of the other tests stay connected throughout."""
BOT_DELAY_SECONDS = 0.05
"""Pause after each bot move: short for speed, nonzero so that the pages render between moves."""
DEFAULT_WAIT_MS = 15_000
"""Playwright's wait for a single element or navigation (generous: a shared 2-core machine can be slow)."""
# ``expect`` keeps its own default (5 s) apart from the context's: CI once saw a 2-core machine take longer to seat bots.
expect.set_options(timeout=DEFAULT_WAIT_MS)


def find_chromium() -> str | None:
    """The chromium binary to drive: ``$CHROMIUM`` (must exist), else ``chromium`` on the PATH, else ``/usr/bin/chromium``."""
    configured = os.environ.get("CHROMIUM")
    if configured:
        if not (os.path.isfile(configured) and os.access(configured, os.X_OK)):
            pytest.fail(f"CHROMIUM={configured!r} is not an executable file", pytrace=False)
        return configured
    found = shutil.which("chromium")
    if found:
        return found
    fallback = "/usr/bin/chromium"
    return fallback if os.access(fallback, os.X_OK) else None


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Remember each phase's report on the test item, so that fixtures can tell whether the test failed."""
    report: pytest.TestReport = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """The chromium binary; skips every browser test when there is none."""
    path = find_chromium()
    if path is None:
        pytest.skip("no chromium binary (set CHROMIUM, or install the Debian package: apt-get install chromium)")
    return path


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory, chromium_path: str) -> Iterator[LiveServer]:
    """A stich server of this pytest process (one per xdist worker) on a fresh SQLite database."""
    with LiveServer(tmp_path_factory.mktemp("server"), grace_seconds=GRACE_SECONDS, bot_delay_seconds=BOT_DELAY_SECONDS) as server:
        yield server


@pytest.fixture(scope="session")
def playwright_driver(chromium_path: str) -> Iterator[Playwright]:
    """Playwright's synchronous driver for this pytest process."""
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def chromium(playwright_driver: Playwright, chromium_path: str) -> Iterator[Browser]:
    """One headless chromium for this pytest process; each test gets its own contexts (cookie jars)."""
    browser = playwright_driver.chromium.launch(executable_path=chromium_path, headless=True)
    yield browser
    browser.close()


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")


@pytest.fixture
def screenshot(request: pytest.FixtureRequest) -> Screenshot:
    """``screenshot(page, step)`` saves ``artifacts/screenshots/<test>-<step>.png`` (the whole page) and returns its path."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    test_name = _slug(request.node.name)

    def take(page: Page, step: str, *, full_page: bool = True) -> Path:
        path = SCREENSHOTS / f"{test_name}-{_slug(step)}.png"
        if full_page:  # from the top, so that a sticky header is drawn where it belongs
            page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return take


@pytest.fixture
def make_context(chromium: Browser, live_server: LiveServer, request: pytest.FixtureRequest) -> Iterator[Callable[..., BrowserContext]]:
    """``make_context(**options)``: a fresh browser context (its own cookies: one person) on the live server.

    Every context gets the WebSocket probe (:data:`ui.PROBE_SCRIPT`) and the
    base URL; all are closed after the test, and when the test failed every
    open page is screenshotted first.  An uncaught error in the client's
    scripts on any page fails the test (at teardown).
    """
    contexts: list[BrowserContext] = []
    script_errors: list[str] = []

    def watch(page: Page) -> None:
        page.on("pageerror", lambda error: script_errors.append(f"{page.url}: {error}"))

    def make(**options: object) -> BrowserContext:
        context = chromium.new_context(base_url=live_server.base_url, **options)  # type: ignore[arg-type]
        context.set_default_timeout(DEFAULT_WAIT_MS)
        context.add_init_script(PROBE_SCRIPT)
        context.on("page", watch)
        contexts.append(context)
        return context

    yield make
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        test_name = _slug(request.node.name)
        for number, page in enumerate(page for context in contexts for page in context.pages):
            try:
                page.screenshot(path=str(SCREENSHOTS / f"{test_name}-failure-{number}.png"), full_page=True)
            except Exception as error:  # a crashed or closed page must not hide the test's own failure
                print(f"could not screenshot page {number}: {error}")
        print(f"server log (end):\n{live_server.log_tail()}")
    for context in contexts:
        context.close()
    assert not script_errors, f"uncaught errors in the client's scripts: {script_errors}"
