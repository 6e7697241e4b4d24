"""The report's studies, one function a step: each reads the run's settings and fills its tables.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import pandas as pd

from azul_fast.report.exports import write_csv
from azul_fast.report.move_section import (
    move_study_plan,
    play_move_studies,
)
from azul_fast.runs.plan import estimated_seconds_per_game
from azul_fast.runs.simulate import simulate
from azul_fast.runs.storage import save
from azul_fast.studies.ladder import estimated_ladder_seconds, ladder, ms_per_game
from azul_fast.studies.opening_types import opening_types
from azul_fast.studies.openings import opening_analysis, opening_study
from azul_fast.studies.seats import seat_advantage, variant_comparison, variant_difference
from azul_fast.studies.strength import estimated_study_seconds, first_player_by_strength

if TYPE_CHECKING:
    pass

# The report's sizes and defaults (SETTINGS, default_policy, ...) live in azul_fast.report.settings.
from azul_fast.report.config import ReportConfig, ReportRun

#: Seconds of one core per game for what is not play: the tables and parquet files of the seat
#: study, and the pandas work on every recorded move (measured on the quick and default reports).
_TABLE_SECONDS_PER_GAME = 2e-5
_MOVE_TABLE_SECONDS_PER_GAME = 2e-4
#: First moves of a deal that the opening rollouts play, about (66 to 100 at 2 to 4 players).
_FIRST_MOVES = 80
#: Positions a marker game gives its rollouts (rounds 1-4), each with two candidate moves.
_MARKER_CANDIDATES = 8
#: Wall seconds a run of the strength study costs beyond its games (threads started, the learned
#: weights loaded, the row computed): the quick report's 15 runs took 12.6 s where the model's games
#: take 2.5 s (2 shared cores).
_RUN_SECONDS = 0.6
#: Seconds of the charts and pages, whatever the sizes (13 charts in PNG and SVG).
_CHART_SECONDS = 12.0


def planned_seconds(config: ReportConfig) -> dict[str, float]:
    """Every step's estimated wall seconds by the cost model (`plan.estimated_seconds_per_game`):
    the report's progress lines weigh the steps by them for the fraction done and the time left.

    Only the proportions matter (the estimate is rescaled by the speed seen so far), so the
    constants above need only be right to within a factor of about two.
    """
    size, workers = config.size, max(1, config.workers)
    names = list(dict.fromkeys(size.levels() + (config.policy,)))
    walls = 2 if config.variant == "both" else 1
    seat_games = sum(config.policy_games(n) for n in config.players) * walls
    players = config.players[0]
    # Walls the seat study plays itself: it reuses the strength study's colored games of a level.
    played = int(config.main_variant != "colored" or config.policy not in size.levels()) + int(walls == 2)
    rollout = estimated_seconds_per_game([config.policy] * players, players)
    return {
        # ms_per_game times 1, 2, 4, ... games: about twice its budget a policy, on one core
        "strength ladder": estimated_ladder_seconds(names, size.ladder_games) / workers + 2 * size.timing * len(names),
        "first player by strength": estimated_study_seconds(size.levels(), config.players, size.seconds,
                                                            size.min_games, fixed_games=config.fixed_games())
        / workers + _RUN_SECONDS * len(size.levels()) * len(config.players),
        "simulate": sum(config.policy_games(n) * estimated_seconds_per_game([config.policy] * n, n)
                        for n in config.players) * played / workers + seat_games * _TABLE_SECONDS_PER_GAME,
        "statistics": seat_games * _TABLE_SECONDS_PER_GAME,
        # at most: the opening types may stop before their last deal
        "opening types": (max(2, size.deals) * config.rollouts + size.drill_rollouts) * _FIRST_MOVES * rollout
        / workers,
        "move studies": size.move_seconds / workers + size.move_games * _MOVE_TABLE_SECONDS_PER_GAME
        + size.marker_games * _MARKER_CANDIDATES * size.marker_rollouts * rollout / workers,
        "charts": _CHART_SECONDS,
    }


def timed(results: ReportRun, step: str, started: float) -> None:
    results.seconds[step] = time.perf_counter() - started
    results.say(f"{step}: {results.seconds[step]:.1f} s")


def rate_levels(results: ReportRun) -> None:
    """The strength ladder of the study's levels and the report's policy: the Elo of every number."""
    config = results.config
    started = time.perf_counter()
    specs = {spec.name: spec for spec in config.size.levels() + (config.policy,)}
    results.ladder = ladder(list(specs.values()), games=config.size.ladder_games, seed=config.seed,
                            workers=results.where.workers, client=results.where.client)
    # One core's milliseconds per 2-player self-play game: the time axis of the strength-for-time chart.
    results.ladder["ms_per_game"] = [ms_per_game(specs[name], config.size.timing, config.main_variant)
                                     for name in results.ladder.policy]
    timed(results, "strength ladder", started)


def strength_study(results: ReportRun) -> None:
    """The first player along the ladder; the report's policy (and the setting's) get `policy_games`."""
    config = results.config
    started = time.perf_counter()
    size = config.size
    kept: dict[tuple[int, str], pd.DataFrame] = {}
    results.strength = first_player_by_strength(
        results.ladder, size.levels(), config.players, seconds=size.seconds, min_games=size.min_games,
        seed=config.seed, workers=results.where.workers, log=results.say, progress=results.progress,
        fixed_games=config.fixed_games(), keep=kept, client=results.where.client,
    )
    results.strength_games = {n: df for (n, policy), df in kept.items() if policy == config.policy}
    timed(results, "first player by strength", started)


def _seat_run(results: ReportRun, players: int) -> tuple[int, int]:
    """Games and root seed of the seat study at `players` players: the strength study's run of the
    report's policy when it has one (the same deals), else `policy_games` from the run seed."""
    config = results.config
    strength = results.strength
    row = strength[(strength.players == players) & (strength.policy == config.policy)]
    if len(row):
        return int(row.games.iloc[0]), int(row.seed.iloc[0])
    return config.policy_games(players), config.run_seed(players)


def simulate_runs(results: ReportRun) -> None:
    """The seat study's games: on the colored wall the strength study's games of the report's policy
    where it played them (one set of games for both studies), else played here."""
    config = results.config
    for players in config.players:
        started = time.perf_counter()
        games, seed = _seat_run(results, players)
        df = results.strength_games.get(players) if config.main_variant == "colored" else None
        if df is None:
            df = simulate(games, players, config.policy, seed=seed, workers=results.where.workers, progress=False,
                          variant=config.main_variant, client=results.where.client)
        name = f"games-{players}p.parquet"
        save(df, results.folder / name)
        results.runs[players] = df
        results.files.append(name)
        timed(results, f"simulate {players} players", started)
        if config.variant == "both":
            started = time.perf_counter()
            gray = simulate(games, players, config.policy, seed=seed, workers=results.where.workers,
                            progress=False, variant="gray", client=results.where.client)
            save(gray, results.folder / f"games-{players}p-gray.parquet")
            results.gray_runs[players] = gray
            results.files.append(f"games-{players}p-gray.parquet")
            timed(results, f"simulate {players} players, gray wall", started)


def analyse(results: ReportRun) -> None:
    config = results.config
    started = time.perf_counter()
    results.seats = pd.concat([seat_advantage(df) for df in results.runs.values()], ignore_index=True)
    studies = [opening_study(df, informative=True) for df in results.runs.values()]
    results.openings = pd.concat(studies, ignore_index=True)
    # each study holds one player count, its attrs keyed by (players, policies); the page reads what each
    # left out and why
    for key in ("dropped", "constant", "repeated"):
        results.openings.attrs[key] = {n: f for study in studies for n, f in study.attrs[key].items()}
    timed(results, "seat and opening statistics", started)
    if results.gray_runs:
        runs = [df for p in config.players for df in (results.runs[p], results.gray_runs[p])]
        results.variants = variant_comparison(runs)
        results.variant_pairs = pd.concat(
            [variant_difference(results.runs[p], results.gray_runs[p]) for p in config.players], ignore_index=True
        )


def opening_type_study(results: ReportRun) -> None:
    """Opening types over the first deals of the smallest player count's run, stopping once the best
    type is separated; then the first deal ranked move by move by adaptive rollouts (the drill-down)."""
    config = results.config
    started = time.perf_counter()
    size = config.size
    players = config.players[0]
    first = results.runs[players]
    seeds = [int(s) for s in first.seed.iloc[:max(2, size.deals)]]
    results.types, results.type_moves = opening_types(
        seeds, players=players, policy=config.policy, rollouts=config.rollouts, seed=config.seed,
        workers=results.where.workers, log=results.say, variant=config.main_variant, adaptive=True,
        client=results.where.client,
    )
    results.say(f"opening types: {results.types.attrs['deals']} deals, stopped: {results.types.attrs['stopped']}")
    results.ranking = opening_analysis(seeds[0], players=players, policy=config.policy,
                                       rollouts=size.drill_rollouts, workers=results.where.workers,
                                       variant=config.main_variant, client=results.where.client)
    results.say(f"drill-down of deal {seeds[0]}: {int(results.ranking.rollouts.sum()):,} rollouts, "
                f"stopped: {results.ranking.attrs['stopped']}")
    timed(results, "opening types", started)
    tables = [("first_player_by_strength", results.strength), ("seat_advantage", results.seats),
              ("opening_types_played", results.openings), ("opening_types", results.types),
              ("opening_moves", results.type_moves), ("opening_ranking", results.ranking), ("ladder", results.ladder)]
    if results.gray_runs:
        tables += [("variants", results.variants), ("variant_difference", results.variant_pairs)]
    for name, table in tables:
        write_csv(table, results.folder / f"{name}.csv", config.policy)
        results.files.append(f"{name}.csv")


def move_level_studies(results: ReportRun) -> None:
    """The move-level studies: games of the strongest bot the setting affords, recorded move by move;
    the marker rollouts by the report's policy."""
    config = results.config
    started = time.perf_counter()
    size = config.size
    players = config.players[0]
    policy, games = move_study_plan(results.ladder, size, players)
    results.say(f"move studies: {games:,} games of {policy} at {players} players, recorded move by move")
    results.moves = play_move_studies(
        policy, players, seed=config.move_seed(0), games=games, marker_games=size.marker_games,
        rollouts=size.marker_rollouts, workers=results.where.workers, variant=config.main_variant,
        rollout_seed=config.move_seed(1), rollout_policy=config.policy, client=results.where.client,
    )
    for name, table in results.moves.tables.items():
        write_csv(table, results.folder / f"{name}.csv", policy)
        results.files.append(f"{name}.csv")
    timed(results, "move studies", started)
