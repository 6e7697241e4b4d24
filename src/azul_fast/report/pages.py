"""The report's pages: the self-contained ``index.html`` and ``summary.md``, from the run's tables,
charts and words.
"""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from azul_fast.report.formatting import (
    TOP_MOVES,
    ladder_display,
    markdown_table,
    opening_display,
    opening_types_display,
    published_display,
    ranking_display,
    seat_display,
    strength_display,
    variants_display,
)
from azul_fast.report.move_section import (
    move_sections,
)

if TYPE_CHECKING:
    pass

# The report's sizes and defaults (SETTINGS, default_policy, ...) live in azul_fast.report.settings.
from azul_fast.report.config import ReportRun
from azul_fast.report.prose import NOTATION, glossary, how_it_was_run, named_policy, summary_lines
from azul_fast.runs.signals import check_stop
from azul_fast.studies.published import published_table

# Tables wider than a tablet's column scroll sideways inside their box: the shadow on the side with more to
# see is the cue (it scrolls with the content, so it vanishes at the end), the first column stays in
# place, and numbers with their intervals never wrap. On a phone (up to 40rem) a table scrolls no more:
# each row stacks into a card of "column: value" lines, so nothing is wider than the screen. Charts
# never scroll: on a narrow screen the page shows each chart's narrow render (figures.save_chart), which
# fills the column with its text readable, and every image shrinks to the column; the board diagram, too
# detailed to shrink, pans sideways in its own box there.
_CSS = """
body { font-family: system-ui, sans-serif; max-width: 72rem; margin: 2rem auto; padding: 0 1rem; color: #222;
       line-height: 1.45; }
table { border-collapse: separate; border-spacing: 0; font-size: 0.85rem; margin: 0.5rem 0 1.5rem; }
th, td { border-bottom: 1px solid #ddd; padding: 0.2rem 0.6rem; text-align: right; white-space: nowrap; }
th { background: #f3f3f3; }
img { max-width: min(100%, 56rem); height: auto; }
figure.chart img { display: block; }
figure { margin: 1rem 0 2rem; }
code { background: #f3f3f3; padding: 0 0.2rem; overflow-wrap: anywhere; white-space: pre-wrap; }
.scroll { overflow-x: auto; max-width: 100%;
  background: linear-gradient(to right, #fff 30%, #fff0) left / 2rem 100% no-repeat local,
              linear-gradient(to left, #fff 30%, #fff0) right / 2rem 100% no-repeat local,
              radial-gradient(farthest-side at 0 50%, #0004, #0000) left / 0.8rem 100% no-repeat scroll,
              radial-gradient(farthest-side at 100% 50%, #0004, #0000) right / 0.8rem 100% no-repeat scroll; }
.scroll table { background: none; }
.scroll th:first-child, .scroll td:first-child { position: sticky; left: 0; background: #fff; z-index: 1;
  border-right: 1px solid #ddd; }
.scroll th:first-child { background: #f3f3f3; }
table.words td, table.words th { text-align: left; min-width: 5rem; white-space: normal; }
table.words td:last-child { min-width: 12rem; }
@media (max-width: 40rem) {
  figure.chart picture img { width: 100%; }
  figure.diagram .pan { overflow-x: auto; }
  figure.diagram img { max-width: none; width: auto; }
  .scroll { overflow-x: visible; background: none; }
  .scroll table, .scroll tbody, .scroll tr, .scroll th, .scroll td { display: block; }
  .scroll thead { display: none; }
  .scroll tr { border: 1px solid #ddd; border-radius: 0.4rem; margin: 0 0 0.6rem; padding: 0.3rem 0.6rem; }
  .scroll th, .scroll td, table.words td, table.words th { text-align: left; white-space: normal; border: 0;
    padding: 0.1rem 0; min-width: 0; position: static; }
  .scroll td:first-child, .scroll th:first-child { font-weight: 600; border-right: 0; }
  .scroll td[data-label]::before { content: attr(data-label) ": "; color: #666; font-weight: normal; }
  .scroll td .value { white-space: nowrap; }
  .scroll td:has(> .value:empty) { display: none; }
  table.words td .value { white-space: normal; }
}
"""


def _bold(text: str) -> str:
    """Markdown **bold** to HTML, after escaping."""
    return re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", html.escape(text))


def _figure_html(results: ReportRun, name: str) -> str:
    """A figure embedded in the page (so it stands alone), linking the files it was made from; a chart
    brings its narrow render for screens up to 40rem wide."""
    title = html.escape(results.charts[name])
    if name in results.diagrams:
        # On a phone the diagram's narrow render at its own size, in a sideways scroller: shrunk to the
        # column its smallest text would be 7 px. The smallest text in SVG units and the render's width let
        # the browser test measure that text as shown.
        narrow = (results.folder / f"{name}-narrow.svg").read_text(encoding="utf-8")
        smallest = min(float(size) for size in re.findall(r'font-size="([0-9.]+)"', narrow))
        view_box = re.search(r'viewBox="0 0 ([0-9.]+) ', narrow)
        assert view_box is not None, "render_svg always writes a viewBox"
        view_width = float(view_box.group(1))
        return (f'<figure class="diagram" data-min-text="{smallest:g}" data-view-width="{view_width:g}">'
                f'<div class="pan"><picture><source media="(max-width: 40rem)" '
                f'srcset="{_data_uri(results.folder / f"{name}-narrow.svg", "svg+xml")}">'
                f'<img src="{_data_uri(results.folder / f"{name}.svg", "svg+xml")}" alt="{title}"></picture></div>'
                f'<figcaption>{title} (<a href="{name}.svg">SVG</a>, <a href="{name}-narrow.svg">narrow SVG</a>)'
                "</figcaption></figure>")
    links = ", ".join(f'<a href="{name}.{suffix}">{suffix.upper()}</a>' for suffix in ("svg", "png"))
    narrow = _data_uri(results.folder / f"{name}-narrow.png", "png")
    # the narrow render's smallest text in pt, for the browser test to measure it as shown
    return (
        f'<figure class="chart" data-narrow-text-pt="{results.narrow_text_pt[name]:g}"><picture>'
        f'<source media="(max-width: 40rem)" srcset="{narrow}">'
        f'<img src="{_data_uri(results.folder / f"{name}.png", "png")}" alt="{title}"></picture>'
        f"<figcaption>{title} ({links})</figcaption></figure>"
    )


def _data_uri(path: Path, kind: str) -> str:
    return f"data:image/{kind};base64,{base64.b64encode(path.read_bytes()).decode('ascii')}"


def _shared_policy_dropped(table: pd.DataFrame) -> pd.DataFrame:
    """The table without its policy column when every row has the same (the section's text names it)."""
    return table.drop(columns="policy") if "policy" in table and table.policy.nunique() == 1 else table


def _left_out(openings: pd.DataFrame) -> str:
    """What `opening_study` left out, in words: the features repeating another, then the constant ones with
    their value (empty when nothing was left out). Each is left out for one player count and lineup, so one
    left out at some player counts only names them: the table still shows its rows at the others."""
    counts = sorted(openings.players.unique())
    where: dict[str, set[int]] = {}
    for key, by_feature in openings.attrs["repeated"].items():
        for feature, other in by_feature.items():
            where.setdefault(f"{feature} (the same split of the games as {other})", set()).add(_players_of(key))
    for key, by_feature in openings.attrs["constant"].items():
        for feature, value in by_feature.items():
            where.setdefault(f"{feature} {value} (every opening)", set()).add(_players_of(key))
    return "; ".join(phrase if sorted(found) == counts else
                     f"{phrase} at {_and([str(p) for p in sorted(found)])} players"
                     for phrase, found in where.items())


def _players_of(key: object) -> int:
    """The player count of an `opening_study` attrs key: ``(players, policies)``, or players alone."""
    players: Any = key[0] if isinstance(key, tuple) else key
    return int(players)


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _table_html(table: pd.DataFrame) -> str:
    """A table of numbers (right-aligned), or of words (left-aligned) when a column holds sentences. Every
    cell names its column (``data-label``): on a phone each row stacks into a card of "column: value" lines."""
    sentences = any(table[c].astype(str).str.len().max() > 60 for c in table.columns) if len(table) else False
    head = "".join(f"<th>{html.escape(str(column), quote=False)}</th>" for column in table.columns)
    rows = "".join(
        "<tr>" + "".join(f'<td data-label="{html.escape(str(column))}"><span class="value">{_cell(value)}</span></td>'
                         for column, value in zip(table.columns, row)) + "</tr>"
        for row in table.itertuples(index=False))
    classes = ' class="words"' if sentences else ""
    return f"<table{classes}><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def _cell(value: object) -> str:
    """A cell's text, escaped; a missing value is empty."""
    missing = value is None or (isinstance(value, float) and pd.isna(value))
    return "" if missing else html.escape(str(value), quote=False)


def _sections(results: ReportRun) -> list[tuple[str, str, pd.DataFrame, list[str]]]:
    """(title, text, table, charts) of each section, shared by the HTML page and summary.md."""
    config = results.config
    wall = " on the gray wall" if config.variant == "gray" else ""
    mine = named_policy(results, config.policy)
    strength = results.strength
    left_out = _left_out(results.openings)
    sections = [
        ("The bots and the notation", NOTATION, glossary(results), ["strength_frontier"]),
        ("The published answer",
         f"The project's converged study on the {config.main_variant} wall (analysis/first_player_converged.py), "
         "shipped with the package: every level of the learned search played until its first-player share (ties "
         "split) is known to +/-0.5 points (95%), one policy in every seat. The headline quotes the strongest "
         "level at each player count. Against the level below, the difference of the two shares with its 95% "
         "interval: converged when it holds 0 within +/-1 point, differ when it excludes 0, and agreement not "
         "shown otherwise. Its Elo is the project's one ladder (analysis/results/ladder_for_strength.csv), not "
         "this run's; this run's own levels follow in the next section.",
         published_display(published_table(), config.players, config.main_variant), []),
        ("First player by strength of play",
         "The same policy in every seat, seat 0 moving first, at each level of the strength ladder (colored wall). "
         "'first player' is seat 0's share of wins with a shared victory split between its winners, so equal seats "
         "would each get exactly the fair share; every seat's share follows. Intervals are 95% t intervals; "
         f"{int(strength.games.sum()):,} games in all, spread over the levels by their cost (a search plays a game "
         "in milliseconds). These show how the share moves from weak play to this run's strongest level, each "
         "rated on this run's ladder; the headline quotes the published answer (the section above), whose levels "
         "are stronger and whose games are many more. first_player_by_strength.csv has the numbers.",
         strength_display(strength), ["first_player_by_strength"]),
        ("Seat advantage",
         f"Each seat's share of wins with {mine} in every seat{wall}, a shared victory split between its winners "
         "as in the chart and the summary, so equal seats would each have exactly the fair share; 'ties' counts "
         "the games a seat shared. Intervals are 95% t intervals. These describe this policy; the study above "
         "compares the levels. The seat study's games are the strength study's games of this policy, so its "
         "first-player share is the one in the table above. seat_advantage.csv has the numbers, and also counts "
         "a shared victory as a win for each winner (wins, win_rate with Wilson intervals, and chi2_pvalue: a "
         "chi-square test that all seats win equally often, 3 and 4 players).",
         _shared_policy_dropped(seat_display(results.seats)),
         ["seat_advantage", "score_distributions", "wall_heatmap"]),
        ("Which opening is best",
         f"Every legal first move of {results.types.attrs['deals']} deals ({config.players[0]} players), each "
         f"followed by {config.rollouts} rollouts with {mine} in every seat; rollout k of every move of a deal uses "
         "the same tile draws and policy choices (common random numbers). A move's type is what it does "
         f"({', '.join(results.types.attrs['features'])}); features that carry no information on a first move were "
         f"dropped ({', '.join(results.types.attrs['dropped']) or 'none'}: on the first move the centre holds no "
         "tiles, so no opening takes the first-player marker). 'win share' counts a shared victory as a fraction "
         "of a win, as the drill-down below and the headline do; 'edge' is how much more the type's moves win "
         "than the deal's average first move, averaged over the deals it occurs in (95% t interval). Types seen "
         "in at least half the deals are ranked first, the rare ones after them (marked rare): a rare type's "
         "edge rests on few deals. Each type is "
         "compared with the top one by a paired t test over the deals where both occur, Holm-corrected: a mark "
         "depends on how many deals the type shares with the top one as well as on its edge, so a rare type can "
         "stay unmarked below a marked one. "
         + (f"The deals were added in stages (4, then twice as many, at most {results.types.attrs['max_deals']}), the "
            "tests of each stage at alpha divided by the number of stages, until the top type was separated "
            "from every other or the deals ran out: here "
            + ("separated" if results.types.attrs["stopped"] == "separated" else "the deals ran out")
            + f" after {results.types.attrs['deals']} deals. "
            if "max_deals" in results.types.attrs and results.types.attrs["stopped"] != "all deals" else "")
         + "opening_types.csv has the table, opening_moves.csv every move of every deal.",
         opening_types_display(results.types), ["opening_types"]),
        ("One deal in detail",
         f"The drill-down of the first deal (game seed {results.ranking.attrs['seed']}): every legal first move, "
         f"raced by the position analysis with {mine} playing the rollouts (common random numbers): every move "
         "gets the same paired rollouts, 8 and then twice as many at each stage as far as the budget allows, "
         "and a move leaves the race once a one-sided "
         "paired t test, Holm-corrected and with alpha spent over the stages, finds it worse than the leader; "
         f"{int(results.ranking.rollouts.sum()):,} rollouts in all, and the race "
         + ("stopped because the top move was separated from every other"
            if results.ranking.attrs.get("stopped") == "separated"
            else "spent its budget before separating the top move")
         + f". A shared victory counts as a fraction of a win. The top {TOP_MOVES} are shown; opening_ranking.csv "
         "has all.",
         ranking_display(results.ranking), ["opening_ranking", "best_opening"]),
        ("Openings played",
         f"The first player's win share (a shared victory split between its winners) and score margin (own "
         f"score minus the best opponent's) by what the opening move did, in the {mine} games of the seat study, "
         "with 95% t intervals (a share's cut to 0-100%, and none where a value's games all end alike). These "
         "mix the choice with the deal (a factory must hold 3 tiles of a colour to take 3), which the rollouts "
         "above take out. The p-value tests independence of the feature and the "
         "first player's share: the score test of a regression of the per-game share on the feature (N R², "
         "chi-square with one degree of freedom fewer than the feature's values; with no shared victory it is "
         "Pearson's chi-square). opening_types_played.csv also counts a shared victory as a win for each winner "
         "(wins, win_rate with Wilson intervals, and pvalue: a chi-square test on whole wins)."
         + (f" Left out, as they say nothing more here: {left_out}; opening_types_played.csv has every row."
            if left_out else ""),
         _shared_policy_dropped(opening_display(results.openings)), ["opening_tiles"]),
        ("Strength ladder",
         f"Every pair of {', '.join(results.ladder.policy.sort_values())} played "
         f"{config.size.ladder_games} deals at 2 players, each deal once per seat (a shared victory counts half). "
         f"Bradley-Terry ratings on the Elo scale, {results.ladder.attrs['anchor']} at 0, with 95% Wald intervals "
         "(azul_fast.studies.ladder); ladder.csv has the numbers.",
         ladder_display(results.ladder), []),
    ]
    if not results.variants.empty:
        sections.insert(1 + [title for title, *_ in sections].index("Seat advantage"), (
            "Colored and gray wall",
            f"The same deals (same run seeds, {mine} in every seat) on both sides of the player boards: on "
            "the gray wall every tiled line's player picks the column (the rulebook's variant). The first player's "
            "win share splits a shared victory between its winners, with a 95% t interval over the games. Scores, "
            "rounds and complete colours are means per seat. The last column pairs the walls deal by deal: the "
            "first player's share with shared victories split, gray minus colored, with a paired t interval "
            "(seats.variant_difference). variants.csv and variant_difference.csv have the numbers; variants.csv "
            "also counts a shared victory as a win (first_player_win_rate with Wilson intervals).",
            variants_display(results.variants, results.variant_pairs), ["variant_difference"]))
    if results.moves is not None:  # before the strength ladder, the last section
        sections[-1:-1] = move_sections(results.moves, lambda policy: named_policy(results, policy))
    return sections


def write_pages(results: ReportRun, command: str | None) -> None:
    summary = summary_lines(results)
    how = how_it_was_run(results, command)
    files = sorted(set(results.files) | {"summary.md"})
    title = "azul_fast report: the first player's advantage by strength of play, and openings"

    body = [f"<h1>{html.escape(title)}</h1>", "<h2>Summary</h2>", "<ul>"]
    body += [f"<li>{_bold(line)}</li>" for line in summary]
    body.append("</ul>")
    for heading, text, table, charts in _sections(results):
        body += [f"<h2>{html.escape(heading)}</h2>", f"<p>{html.escape(text)}</p>",
                 f"<div class='scroll'>{_table_html(table)}</div>"]
        body += [_figure_html(results, name) for name in charts]
    body += ["<h2>How it was run</h2>", "<div class='scroll'><table class='words'>"]
    body += [f"<tr><th>{html.escape(k)}</th><td style='text-align:left'><code>{html.escape(v)}</code></td></tr>"
             for k, v in how]
    body += ["</table></div>", "<h2>Files</h2>", "<ul>"]
    body += [f'<li><a href="{html.escape(name)}">{html.escape(name)}</a></li>' for name in files]
    body.append("</ul>")
    page = (f"<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'><title>{html.escape(title)}</title>"
            f"<style>{_CSS}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")
    (results.folder / "index.html").write_text(page, encoding="utf-8")
    check_stop()

    md = [f"# {title}", "", "## Summary", ""] + [f"- {line}" for line in summary]
    for heading, text, table, charts in _sections(results):
        md += ["", f"## {heading}", "", text, "", markdown_table(table), ""]
        md += [f"![{results.charts[name]}]({name}.svg)" for name in charts]
    md += ["", "## How it was run", ""] + [f"- {k}: `{v}`" for k, v in how]
    md += ["", "## Files", ""] + [f"- [{name}]({name})" for name in files]
    (results.folder / "summary.md").write_text("\n".join(md) + "\n", encoding="utf-8")
