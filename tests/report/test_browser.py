"""The report in a real browser (headless Chromium): no horizontal overflow at phone, tablet and
desktop widths, every image loaded, no console errors.

CI installs Debian's ``chromium``; where no Chromium is on PATH the tests skip and say so.
"""

import json
import re
import shutil
import subprocess

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from azul_fast.report.build import build_report  # noqa: E402

BROWSER = next((shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome")
                if shutil.which(name)), None)
pytestmark = pytest.mark.skipif(BROWSER is None, reason="no Chromium on PATH (apt-get install chromium)")

WIDTHS = (390, 800, 1280)  # a phone, a tablet, a desktop

# The report in one frame per width (Chromium will not make a headless window narrower than 500
# px); once all have loaded, what each frame saw is written into the title for --dump-dom.
WRAPPER = """<!DOCTYPE html><html><head><title>waiting</title></head><body>
{frames}
<script>
window.addEventListener('load', () => {{
  const seen = [...document.querySelectorAll('iframe')].map(frame => {{
    const page = frame.contentDocument, images = [...page.images];
    return {{
      width: frame.contentWindow.innerWidth,
      overflow: page.documentElement.scrollWidth - frame.contentWindow.innerWidth,
      images: images.length,
      broken: images.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.alt),
      // CSS px per inch of every chart (PNG at 200 dpi): 1 pt of chart text is this / 72 px
      chartPxPerInch: Math.min(...[...page.querySelectorAll('figure.chart img[src^="data:image/png"]')].map(
        i => i.getBoundingClientRect().width / (i.naturalWidth / 200))),
      // the smallest text of every chart as shown (its render's smallest pt at the shown px per inch)
      chartTextPx: Math.min(...[...page.querySelectorAll('figure.chart[data-narrow-text-pt] img')].map(
        i => i.closest('figure').dataset.narrowTextPt * i.getBoundingClientRect().width / (i.naturalWidth / 200) / 72)),
      // a chart (or diagram) reaching past the screen's edge, or scrolling sideways in its box
      chartsPastTheEdge: [...page.querySelectorAll('figure.chart')].filter(f => {{
        const img = f.querySelector('img');
        const past = img.getBoundingClientRect().right - frame.contentWindow.innerWidth;
        return past > 0.5 || f.scrollWidth > f.clientWidth;
      }}).map(f => f.querySelector('img').alt.slice(0, 60)),
      charts: page.querySelectorAll('figure.chart').length,
      // cells of number tables whose text wraps onto a second line
      wrapped: [...page.querySelectorAll('table:not(.words) td')].filter(td => {{
        const range = page.createRange(); range.selectNodeContents(td);
        return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1;
      }}).map(td => td.textContent).slice(0, 5),
      // the first column of a table stays in place while the rest scrolls sideways
      sticky: [...page.querySelectorAll('.scroll td:first-child')].every(
        td => getComputedStyle(td).position === 'sticky'),
      // tables reaching past the screen's edge (on a phone every table stacks into cards)
      tablesPastTheEdge: [...page.querySelectorAll('table')].filter(
        t => t.getBoundingClientRect().right - frame.contentWindow.innerWidth > 0.5).length,
      // anything wider than the screen that is not inside a sideways scroller of its own that fits
      loose: [...page.body.querySelectorAll('*')].filter(e => {{
        if (e.getBoundingClientRect().right - frame.contentWindow.innerWidth <= 0.5) return false;
        for (let up = e.parentElement; up && up !== page.body; up = up.parentElement) {{
          const style = getComputedStyle(up).overflowX;
          if ((style === 'auto' || style === 'scroll') &&
              up.getBoundingClientRect().right - frame.contentWindow.innerWidth <= 0.5) return false;
        }}
        return true;
      }}).map(e => e.tagName + '.' + e.className).slice(0, 5),
      // the smallest text of the board diagrams as shown, in px
      diagrams: page.querySelectorAll('figure.diagram[data-min-text] img').length,
      diagramTextPx: Math.min(...[...page.querySelectorAll('figure.diagram[data-min-text] img')].map(i => {{
        const figure = i.closest('figure');
        return figure.dataset.minText * i.getBoundingClientRect().width / figure.dataset.viewWidth;
      }})),
    }};
  }});
  document.title = 'PROBE' + JSON.stringify(seen);
}});
</script></body></html>"""


@pytest.fixture(scope="module")
def seen(tmp_path_factory):
    folder = build_report(tmp_path_factory.mktemp("browser") / "r", games=300, players=[2], workers=1,
                          setting="quick")
    frames = "\n".join(f'<iframe src="index.html" style="width:{w}px;height:900px;border:0"></iframe>' for w in WIDTHS)
    wrapper = folder / "probe.html"
    wrapper.write_text(WRAPPER.format(frames=frames))
    result = subprocess.run(
        [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--allow-file-access-from-files",
         "--enable-logging=stderr", "--virtual-time-budget=10000", "--window-size=2600,1000", "--dump-dom",
         wrapper.as_uri()],
        capture_output=True, text=True, timeout=120,
    )
    found = re.search(r"<title>PROBE(.*?)</title>", result.stdout)
    assert found, f"the probe did not run: {result.stderr[-2000:]}"
    console = [line for line in result.stderr.splitlines() if "CONSOLE" in line]
    return dict(zip(WIDTHS, json.loads(found.group(1).replace("&quot;", '"')))), console


@pytest.mark.parametrize("width", WIDTHS)
def test_report_fits_the_screen_and_loads_every_image(seen, width):
    frames, _ = seen
    frame = frames[width]
    assert frame["width"] == width
    assert frame["overflow"] <= 0, f"the page is {frame['overflow']} px wider than a {width} px screen"
    assert frame["images"] >= 7 and frame["broken"] == []


def test_report_logs_no_console_errors(seen):
    _, console = seen
    assert console == []


@pytest.mark.parametrize("width", WIDTHS)
def test_every_chart_fits_the_screen(seen, width):
    """No chart is drawn wider than the screen or scrolls sideways in its box (at 390 px they were drawn
    455-662 px wide, the strong levels of the lead chart off-screen), and on a phone every chart's text
    is at least 11 px: the page shows each chart's narrow render there."""
    frame = seen[0][width]
    assert frame["charts"] >= 7
    assert frame["chartsPastTheEdge"] == []
    if width == 390:
        assert frame["chartTextPx"] >= 11, frame["chartTextPx"]


@pytest.mark.parametrize("width", WIDTHS)
def test_report_text_stays_readable_and_numbers_do_not_wrap(seen, width):
    """Charts are never shown smaller than 72 CSS px an inch (tests/report/test_plotting.py keeps chart
    text at 8 pt or more, so at least 8 px), no number or interval of a table wraps onto a second
    line, and a table wider than the screen scrolls with its first column in place."""
    frame = seen[0][width]
    assert frame["chartPxPerInch"] >= 72 - 0.5, frame["chartPxPerInch"]
    assert frame["wrapped"] == []
    if width > 640:   # on a phone the tables stack into cards instead
        assert frame["sticky"]


@pytest.mark.parametrize("width", WIDTHS)
def test_nothing_is_wider_than_the_screen_outside_its_own_scroller(seen, width):
    """At 390 px the bots table once reached 2.6 screens to the right inside its scroller: on a phone every
    table now stacks into cards, so none reaches past the screen, and nothing else does outside a scroller."""
    frame = seen[0][width]
    assert frame["loose"] == []
    if width == 390:
        assert frame["tablesPastTheEdge"] == 0


def test_the_board_diagram_text_is_readable_on_a_phone(seen):
    """The best opening's diagram shows its narrow render on a phone, its smallest text at least 11 px."""
    frame = seen[0][390]
    assert frame["diagrams"] == 1 and frame["diagramTextPx"] >= 11, frame["diagramTextPx"]
