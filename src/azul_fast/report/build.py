"""`azul-fast report`: one study from simulation to a publishable HTML page.

The page leads with the project's published answer (`azul_fast.studies.published`: the first player's
share under the strongest level of the converged study, shipped with the package) and this run's own
figure beside it. The run plays the first player's share of wins along the strength ladder: the ladder's
policies (`azul_fast.studies.settings.LADDER_POLICIES`, rated by a ladder played first) up to the strongest
that fits the setting's time budget, at 2, 3 and 4 players (`strength.first_player_by_strength`). Then,
with the report's policy in every seat (the strongest the setting affords, ``learned`` by default:
`studies.default_policy`): the advantage of every seat (the strength study's own games of that
policy), the openings played, which kind of opening is best by paired rollouts over many deals
(stopping once the best kind is separated), one deal's first moves ranked by adaptive rollouts as
a drill-down, and the first-player marker with the deal held fixed. Every number names its
policy and that policy's Elo, and every CSV a ``policy`` column; the page
explains the bots and the move notation. `azul_fast.report.settings.SETTINGS` holds the three sizes
(``quick``, ``default``, ``thorough``) and the time each takes on 2 cores. It writes, into one folder:

- ``index.html``: one self-contained page (charts embedded) with the summary, tables, charts,
  seeds, versions and the exact command; it links only files in the folder;
- ``summary.md``: the summary and tables in Markdown;
- every chart as PNG (200 dpi) and SVG, and ``best_opening.svg``: the deal of the opening ranking
  with its best first move highlighted (`azul_fast.core.formats.board_svg`);
- the games as parquet, one file per player count (``games-2p.parquet``, readable with
  `azul_fast.load`), and the tables as CSV;
- ``report-manifest.json``: every file above with its SHA-256, so that a later report into the
  same folder replaces only those (`azul_fast.report.folder`).

``variant="gray"`` runs the whole study on the gray wall; ``variant="both"`` runs it on the
colored wall and adds the same deals played on the gray wall (``games-2p-gray.parquet``), compared
side by side in one table (``variants.csv``).

>>> import tempfile, matplotlib
>>> matplotlib.use("Agg")
>>> folder = build_report(tempfile.mkdtemp(), games=300, players=[2], workers=1, setting="quick")
>>> folder.joinpath("index.html").exists(), folder.joinpath("games-2p.parquet").exists()
(True, True)
"""

from __future__ import annotations

import os
import shutil
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from azul_fast.core.bots.policies import PolicySpec, parse_policy
from azul_fast.core.output import check_not_link
from azul_fast.core.rules.checks import check_int, resolve_workers
from azul_fast.core.rules.moves import VARIANTS
from azul_fast.core.rules.seeds import resolve_seed
from azul_fast.core.rules.table import check_player_counts
from azul_fast.report.config import ReportConfig, ReportRun
from azul_fast.report.figures import draw_best_opening, draw_charts
from azul_fast.report.folder import (
    REPORT_MANIFEST,
    check_out_folder,
    clear_stale_staging,
    make_staging,
    record_files,
    swap_in,
)
from azul_fast.report.pages import write_pages
from azul_fast.report.prose import headline
from azul_fast.report.settings import DEFAULT_OUT, DEFAULT_PLAYERS, DEFAULT_SEED, SETTINGS, default_policy
from azul_fast.report.steps import (
    analyse,
    move_level_studies,
    opening_type_study,
    planned_seconds,
    rate_levels,
    simulate_runs,
    strength_study,
)
from azul_fast.runs.heartbeat import Heartbeat
from azul_fast.runs.signals import check_stop, interrupt_on_signals
from azul_fast.runs.where import Where, run_where

if TYPE_CHECKING:
    from distributed import Client

# The report's sizes and defaults (SETTINGS, default_policy, ...) live in azul_fast.report.settings.
__all__ = ["build_report"]


def build_report(
    out: str | os.PathLike[str] = DEFAULT_OUT,
    games: int | None = None,
    players: Sequence[int] = DEFAULT_PLAYERS,
    policy: str | PolicySpec | None = None,
    seed: int = DEFAULT_SEED,
    workers: int | None = None,
    rollouts: int | None = None,
    command: str | None = None,
    log: Callable[[str], Any] | None = None,
    variant: str = "colored",
    setting: str = "default",
    *,
    scheduler: str | None = None,
    client: Client | None = None,
) -> Path:
    """Run the study and write the report folder; return the folder.

    Parameters
    ----------
    out : path
        Folder to write: new, empty, or an earlier report, which is replaced whole only once the new
        one is complete (it is built in a staging folder beside it). A report replaces only the files
        an earlier report wrote (listed with their digests in its ``report-manifest.json``): a folder
        holding any other file is refused, and a file saved into it while the report runs is kept.
    games : int or None
        Games of the report's policy per player count (None: the setting's), at 2 players at least
        the setting's precision asks for (`StudySize.top_games`). They are its run of the strength
        study, which the seat study reuses.
    players : sequence of int
        Player counts to study (among `PLAYER_COUNTS`: 2, 3, 4).
    policy : str, PolicySpec or None
        Built-in policy for every seat of the seat, opening and marker studies (None:
        ``studies.default_policy(setting)``, the strongest the setting affords).
    seed : int
        Report seed; each run gets a root seed spawned from it.
    workers : int or None
        Threads for the simulations and processes for the rollouts (None: every core).
    rollouts : int or None
        Rollouts per first move in the opening-type study (None: the setting's).
    command : str or None
        The command as typed, shown on the page beside the explicit one.
    log : callable or None
        Called with a line of progress text after each step, and at least every 10 seconds.
    variant : str
        ``"colored"``, ``"gray"`` (the whole study on the gray wall) or ``"both"`` (the colored
        study, plus the same deals on the gray wall compared side by side).
    setting : str
        ``"quick"``, ``"default"`` or ``"thorough"`` (`studies.SETTINGS`): how many games and how strong
        the strongest level of the strength study.
    scheduler, client : str or distributed.Client, optional
        Play the games and rollouts on a Dask cluster instead of `workers` threads
        (`azul_fast.runs.where.run_where`): the same numbers. The one-core timings of the ladder's
        policies (the strength-for-time chart) are still taken here.
    """
    config = _config(out, games, players, policy, seed, workers, rollouts, variant, setting)
    target = check_not_link(config.out, "--out").resolve()
    if target.parent.is_dir():
        clear_stale_staging(target)  # what a killed run left (SIGKILL gives no chance to clean up)
    check_out_folder(target)
    # Everything is written into a staging folder beside the target and swapped in at the end, so an
    # interrupted or failed run (a full disk, Ctrl-C, SIGTERM, SIGHUP) leaves the previous report whole.
    target.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    lost = f"no report was written ({target} is as it was): run it again"
    with interrupt_on_signals(), run_where(config.workers, scheduler, client, lost=lost) as where:
        staging = make_staging(target)
        try:
            _build(config, staging, started, command, log, where)
            check_stop()
            record_files(staging, _written(staging), REPORT_MANIFEST)
            kept = swap_in(staging, target)  # checks for a stop once more, as the swap begins
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    if kept:
        warnings.warn(f"files saved into {target} while the report ran were kept: {', '.join(kept)}", stacklevel=2)
    return config.out


def _written(staging: Path) -> list[str]:
    """The report's files in its staging folder (the owner record aside); a report writes no subfolder."""
    return [path.name for path in staging.iterdir() if path.is_file() and not path.name.startswith(".")]


def _build(config: ReportConfig, folder: Path, started: float, command: str | None,
           log: Callable[[str], Any] | None, where: Where) -> None:
    with Heartbeat(log or (lambda line: None), plan=planned_seconds(config)) as beat:
        results = ReportRun(config, beat.say, folder, progress=beat.progress, where=where)
        # the time left is the heartbeat's estimate alone (the measured times are in --help and the docs)
        results.say(f"report ({config.setting} setting): "
                    f"{', '.join(config.size.levels())} at {', '.join(map(str, config.players))} players")
        for step, run in (("strength ladder", rate_levels), ("first player by strength", strength_study),
                          ("simulate", simulate_runs), ("statistics", analyse), ("opening types", opening_type_study),
                          ("move studies", move_level_studies), ("charts", draw_charts)):
            beat.step(step)  # checks for a stop (a signal that C code swallowed: `runs.signals`)
            run(results)
        beat.step("pages")  # the plan's last step is done: what is left takes a second
        draw_best_opening(results)
        results.seconds["total"] = time.perf_counter() - started
        check_stop()
        write_pages(results, command)
        for line in headline(results):
            results.say(line)
        results.say(f"report written to {config.out / 'index.html'} in {results.seconds['total']:.0f} s")


def _config(
    out: str | os.PathLike[str], games: int | None, players: Sequence[int], policy: str | PolicySpec | None, seed: int,
    workers: int | None, rollouts: int | None, variant: str = "colored", setting: str = "default",
) -> ReportConfig:
    if setting not in SETTINGS:
        raise ValueError(f"setting must be one of {list(SETTINGS)}, got {setting!r}")
    size = SETTINGS[setting]
    if games is not None and check_int(games, "games", 1, 2**31) < 2:
        raise ValueError(f"games must be at least 2, got {games}: the opening-type study compares two deals or more")
    counts = check_player_counts(players)
    # An unknown name raises UnknownPolicyError listing the valid forms.
    policy = parse_policy(default_policy(setting) if policy is None else policy)   # once: the studies carry it
    workers = resolve_workers(workers)
    if variant not in (*VARIANTS, "both"):
        raise ValueError(f"variant must be one of {[*VARIANTS, 'both']}, got {variant!r}")
    return ReportConfig(Path(out), int(size.games if games is None else games), counts, policy,
                        int(resolve_seed(seed)), workers, int(size.rollouts if rollouts is None else rollouts),
                        variant, setting)
