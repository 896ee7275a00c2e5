import sys
from pathlib import Path

# The reference implementations live beside the tests.
sys.path.insert(0, str(Path(__file__).parent))


import contextlib
import os
import shutil
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serve_advisor(env: dict[str, str] | None = None) -> Iterator[str]:
    """``streamlit run advisor_app.py`` on a free port of 127.0.0.1 (with ``env`` added); yields its URL."""
    import pytest

    port = free_port()
    # The server's output goes to a file, never an unread pipe: a pipe fills after 64 KB of log lines
    # and the server then blocks on its next write, mid-test.
    (ROOT / "tests" / "artifacts").mkdir(exist_ok=True)
    log = open(ROOT / "tests" / "artifacts" / f"streamlit-{port}.log", "w+")  # noqa: SIM115 - closed below
    streamlit = shutil.which("streamlit", path=str(Path(sys.executable).parent)) or "streamlit"
    proc = subprocess.Popen(
        [streamlit, "run", "advisor_app.py", "--server.port", str(port), "--server.address", "127.0.0.1",
         "--server.headless", "true", "--browser.gatherUsageStats", "false",
         "--server.fileWatcherType", "none"],  # the code does not change under a test (and no watcher's CPU)
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, text=True,
        # (a player's server: the answers fill in by polling, as the fixture below says, not in the run)
        env={**{k: v for k, v in os.environ.items() if k not in ("HIT_FILL_IN", "HIT_SOLVE_IN")}, **(env or {})})
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                out = log.read()
                pytest.fail(f"streamlit did not come up on {url}:\n{out}")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


#: True once Streamlit has no run of the script going or asked for, from the state it keeps on its root
#: element for tests. (Its running icon appears only about half a second into a run, and its text is "Stop":
#: neither tells a run from none at once.)
_IDLE = ("() => { const app = document.querySelector('[data-testid=\"stApp\"]');"
         " return !!app && app.getAttribute('data-test-script-state') === 'notRunning'; }")


def settle(page: object, timeout: int = 30000) -> None:
    """Wait until Streamlit has finished the rerun a click started (browser tests), and is still idle a
    moment later (a callback's run, or a rerun the script asks for, can follow)."""
    for _ in range(2):
        page.wait_for_timeout(150)  # type: ignore[attr-defined]
        page.wait_for_function(_IDLE, timeout=timeout)  # type: ignore[attr-defined]


def opened(page: object, timeout: int = 30000) -> None:
    """Wait until a page just opened (``goto``) is idle and its foot's script (views.taps: the guard against
    double taps, the sidebar's close on a narrow screen) has run. Its first time in a tab that script ran
    0.1 to 1.1 s after the page first read as idle (probed with a tournament on both cores, 2026-12-06),
    probably while Streamlit fetched the code of its first ``st.html``; a tap in that moment meets only the
    server's checks (views.taps.repeated, views.game_view)."""
    settle(page, timeout)
    page.wait_for_function("() => window.hitTapGuard === true", timeout=timeout)  # type: ignore[attr-defined]


CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "tests" / "artifacts"


def dump_pages(browser: object, name: str) -> str:
    """Every open page of ``browser`` as it stood at a failure: a screenshot in ``tests/artifacts/``
    (``failed-<name>-<n>.png``) and its address and text, returned for the report (CI keeps only the log)."""
    ARTIFACTS.mkdir(exist_ok=True)
    out = []
    pages = [page for context in browser.contexts for page in context.pages]  # type: ignore[attr-defined]
    for n, page in enumerate(pages):
        try:
            page.screenshot(path=str(ARTIFACTS / f"failed-{name}-{n}.png"), full_page=True, timeout=10000)
            text = page.inner_text("body", timeout=10000)
            out.append(f"--- page {n}: {page.url}\n{text[:4000]}")
        except Exception as e:  # noqa: BLE001 - a crashed page: say so, keep the test's own error
            out.append(f"--- page {n}: {page.url}: could not be read ({type(e).__name__}: {e})")
    return "\n".join(out) or "(no page open)"


@contextlib.contextmanager
def chromium(name: str) -> Iterator[object]:
    """Debian's Chromium through Playwright; when the test fails inside, its pages are dumped
    (:func:`dump_pages`) before the browser closes."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        try:
            yield browser
        except BaseException:
            print(f"\nThe pages when {name} failed:\n{dump_pages(browser, name)}")
            raise
        finally:
            browser.close()



import pytest  # noqa: E402 - the hook below only


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> object:
    """A browser test that fails with a browser from a fixture (it outlives the test): its pages go in
    the report (:func:`dump_pages`)."""
    report = yield
    browser = getattr(item, "funcargs", {}).get("browser")
    if call.when == "call" and call.excinfo is not None and hasattr(browser, "contexts"):
        report.sections.append(("pages at the failure", dump_pages(browser, item.name)))
    return report


import pytest  # noqa: E402 - after the helpers above, which import it lazily for the scripts that import them


@pytest.fixture(autouse=True)
def taps_far_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """An AppTest clicks as fast as a run ends, so by default its taps count as a person's, far apart: the
    double-tap window (views.taps) is shut. The tests of double taps open it again. (A browser test's
    server is another process, where the window is the real one.)"""
    import views.taps

    monkeypatch.setattr(views.taps, "DOUBLE_TAP", 0.0)


@pytest.fixture(autouse=True)
def answers_in_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """AppTest cannot drive a fragment's timer, so a page under test waits for its answers in the run
    (views.advice_view.fill_in) instead of looking for them every quarter second. A browser test's server
    is started with the environment as it was before this fixture: it polls, as it does for a player."""
    monkeypatch.setenv("HIT_FILL_IN", "wait")
    monkeypatch.setenv("HIT_SOLVE_IN", "threads")  # (a test may put a function of its own in a model's place)
