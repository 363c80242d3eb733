"""The page and the decks audited as WCAG 2.2 AA asks (issue: accessible to every learner): axe-core (npm,
installed by the bootstrap into tests/a11y) run in headless Chromium over index.html and deck.html with the WCAG
2.0/2.1/2.2 A and AA rules, and what axe cannot see: every control reached from the keyboard with a visible focus,
targets of at least 24 × 24 CSS px (2.5.8), nothing playing sound on its own, and under prefers-reduced-motion
the clips still on their posters."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest

from tests.test_page_browser import CHROMIUM, CHROMIUM_ARGS, LocalServer, make_test_media, served_browser

# One Chromium for the module (a context of its own per test): the group keeps the tests in one xdist worker.
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("page-accessibility")]

ROOT = Path(__file__).resolve().parents[1]
AXE = ROOT / "tests" / "a11y" / "node_modules" / "axe-core" / "axe.min.js"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
MIN_TARGET_PX = 24
CONTROLS = "button, select, input, summary, a[href], [tabindex]:not([tabindex='-1'])"

RUN_AXE = """async tags => {
    const result = await axe.run(document, {runOnly: {type: "tag", values: tags}});
    return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                        nodes: v.nodes.slice(0, 4).map(n => n.target.join(" "))}));
}"""


@pytest.fixture(scope="module")
def page_media(tmp_path_factory) -> Path:
    from rendering.site.page import embed_snippet, write_page

    media_dir = tmp_path_factory.mktemp("a11y-media")
    manifest = make_test_media(media_dir)
    for clip in manifest["clips"]:
        half = clip["duration"] / 2  # two beats, so each player offers Step mode
        clip["beats"] = [{"name": "first", "start": 0.0, "end": half, "caption": "The first beat."},
                         {"name": "second", "start": half, "end": clip["duration"], "caption": "The second beat."}]
        clip["embed"] = embed_snippet(clip)
    (media_dir / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    write_page(manifest, media_dir)
    return media_dir


@pytest.fixture(scope="module")
def deck_media(page_media) -> Path:
    """A deck of the test clips, a slide per clip (its beat's caption and narration), as render.py --slides
    writes it beside the page."""
    from rendering.site.deck_html import write_deck_html

    manifest = json.loads((page_media / "manifest.json").read_text(encoding="utf-8"))
    clips = [c for c in manifest["clips"] if c["quality"] == "low" and c.get("aspect", "landscape") == "landscape"
             and not c.get("narrated")]
    slides = [{"clip": c["id"], "clip_title": c["title"], "beat": "first", "number_in_clip": 1, "beats_in_clip": 1,
               "caption": f"{c['title']}: the first beat.", "narration": f"The first beat of {c['title']}.",
               "frames": c["frames"], "duration": c["duration"],
               "files": {fmt: {"path": c["files"][fmt]["path"]} for fmt in ("mp4", "webm", "png") if fmt in c["files"]}}
              for c in clips]
    folder = page_media / "slides" / "low"
    work = Path(tempfile.mkdtemp(prefix="deck-"))
    for destination, made in write_deck_html(slides, page_media, folder, work, quality="low",
                                             narrated=False).items():
        destination.parent.mkdir(parents=True, exist_ok=True)
        made.replace(destination)
    return page_media


def _check_in(context, url: str, check, reduced_motion: bool):
    page = context.new_page()
    if reduced_motion:
        page.emulate_media(reduced_motion="reduce")
    page.goto(url, wait_until="load")
    return check(page)


def open_page(media_dir: Path, name: str, check, *, reduced_motion: bool = False, width: int = 1280,
              height: int = 900, served=None):
    """Serve `media_dir`, open `name` in headless Chromium and return `check(page)`. `served`, the module's
    (server of `media_dir`, browser), spares the launch: the page then opens in a fresh context of that browser
    (its own storage, as a throwaway profile has)."""
    # the page's Content-Security-Policy allows its own inline script only: the audit's script is let in
    options = {"bypass_csp": True, "viewport": {"width": width, "height": height}}
    if served is None:
        with served_browser(media_dir, **options) as (server, context):
            return _check_in(context, server.url + name, check, reduced_motion)
    server, browser = served
    context = browser.new_context(device_scale_factor=1, **options)
    try:
        return _check_in(context, server.url + name, check, reduced_motion)
    finally:
        context.close()


@pytest.fixture(scope="module")
def served(deck_media):
    """deck_media served on 127.0.0.1, and one headless Chromium (as served_browser launches it) for the module."""
    from playwright.sync_api import sync_playwright

    with LocalServer(deck_media) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield server, browser
        finally:
            browser.close()


def axe_violations(page) -> list[dict]:
    assert AXE.exists(), f"{AXE} is missing: the README's setup (scripts/bootstrap.sh) installs axe-core"
    page.add_script_tag(path=str(AXE))
    return page.evaluate(RUN_AXE, WCAG_TAGS)


PAGES = ["index.html", "slides/low/deck.html"]


@pytest.mark.parametrize("name", PAGES)
def test_axe_core_finds_no_wcag_2_2_a_or_aa_violation(deck_media, served, name):
    violations = open_page(deck_media, name, axe_violations, served=served)
    assert violations == [], json.dumps(violations, indent=1)


TAB_THROUGH = """max => {
    const seen = [];
    for (let i = 0; i < max; i++) {
        const el = document.activeElement;
        if (!el || el === document.body) { seen.push(null); continue; }
        const style = getComputedStyle(el);
        const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
        const ring = style.boxShadow && style.boxShadow !== "none";
        seen.push({tag: el.tagName.toLowerCase(), cls: el.className, visible: outline || !!ring});
        break;
    }
    return seen;
}"""

CONTROL_LIST = """selector => Array.from(document.querySelectorAll(selector))
    .filter(el => el.offsetParent !== null && !el.disabled)
    .map(el => { const r = el.getBoundingClientRect();
                 const inline = el.tagName === "A" && el.closest("p, li, figcaption") !== null;
                 return {tag: el.tagName.toLowerCase(), cls: String(el.className), text: el.textContent.trim().slice(0, 30),
                         width: r.width, height: r.height, inline: inline}; })"""


def tab_through(page) -> tuple[list[dict], list[dict]]:
    """(every control the Tab key reaches, in order, with whether its focus is visible; every control shown)."""
    controls = page.evaluate(CONTROL_LIST, CONTROLS)
    reached = []
    for _ in range(len(controls) + 5):
        page.keyboard.press("Tab")
        reached.extend(seen for seen in page.evaluate(TAB_THROUGH, 1) if seen is not None)
    return reached, controls


@pytest.mark.parametrize("name", PAGES)
def test_every_control_is_reached_from_the_keyboard_with_a_visible_focus(deck_media, served, name):
    reached, controls = open_page(deck_media, name, tab_through, served=served)
    assert controls, "no control on the page"
    unseen = [r for r in reached if not r["visible"]]
    assert not unseen, f"focus not visible on: {unseen}"
    kinds = lambda items: sorted({(c["tag"], c["cls"]) for c in items})  # noqa: E731
    missing = set(kinds(controls)) - set(kinds(reached))
    assert not missing, f"controls the Tab key never reaches: {sorted(missing)}"


@pytest.mark.parametrize("name", PAGES)
def test_every_target_is_at_least_24_css_px(deck_media, served, name):
    controls = open_page(deck_media, name, lambda page: page.evaluate(CONTROL_LIST, CONTROLS), served=served)
    small = [c for c in controls if not c["inline"] and (c["width"] < MIN_TARGET_PX or c["height"] < MIN_TARGET_PX)]
    assert not small, f"targets under {MIN_TARGET_PX} CSS px: {small}"


MEDIA_STATE = """() => Array.from(document.querySelectorAll("video, audio")).map(v => ({
    src: v.currentSrc, autoplay: v.autoplay, muted: v.muted, paused: v.paused, poster: v.poster || null}))"""


@pytest.mark.parametrize("name", PAGES)
def test_nothing_plays_sound_on_its_own(deck_media, served, name):
    def settle(page):
        page.wait_for_timeout(1500)
        return page.evaluate(MEDIA_STATE)
    media = open_page(deck_media, name, settle, served=served)
    assert media, "no player on the page"
    loud = [m for m in media if (m["autoplay"] or not m["paused"]) and not m["muted"]]
    assert not loud, f"playing with sound on their own: {loud}"


@pytest.mark.parametrize("name", PAGES)
def test_under_reduced_motion_every_clip_waits_on_its_poster(deck_media, served, name):
    def settle(page):
        page.wait_for_timeout(1500)
        return page.evaluate(MEDIA_STATE)
    media = open_page(deck_media, name, settle, reduced_motion=True, served=served)
    moving = [m for m in media if not m["paused"] or m["autoplay"]]
    assert media and not moving, f"moving under prefers-reduced-motion: {moving}"


STEP_SWITCHES = "() => Array.from(document.querySelectorAll('button.step-toggle')).map(b => b.getAttribute('aria-pressed'))"


@pytest.mark.parametrize("reduced, pressed", [(True, "true"), (False, "false")])
def test_step_mode_is_offered_first_under_reduced_motion_only(deck_media, served, reduced, pressed):
    switches = open_page(deck_media, "index.html", lambda page: page.evaluate(STEP_SWITCHES), reduced_motion=reduced,
                         served=served)
    assert switches and set(switches) == {pressed}, switches


WIDEST = """() => ({page: document.documentElement.scrollWidth,
    wider: Array.from(document.querySelectorAll("body *")).filter(e => {
        const box = e.getBoundingClientRect();
        return box.width > 0 && box.right > document.documentElement.clientWidth + 1
            && !e.closest(".table-wrap, pre, .math, video");
    }).slice(0, 5).map(e => e.tagName + "." + e.className)})"""


@pytest.mark.parametrize("name", PAGES)
def test_at_320_css_px_nothing_scrolls_sideways(deck_media, served, name):
    """Reflow (1.4.10): at 320 CSS px wide (1280 px at 400% zoom) the page reads without sideways scrolling; only
    tables, code and display formulas may scroll inside their own box."""
    found = open_page(deck_media, name, lambda page: page.evaluate(WIDEST), width=320, height=640, served=served)
    assert found["page"] <= 320 and not found["wider"], found
