"""What one report is: its settings (`ReportConfig`) and what its steps produce (`ReportRun`).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from azul_fast.core.bots.policies import PolicySpec
from azul_fast.core.rules.seeds import spawn_seed
from azul_fast.report.move_section import (
    MoveStudy,
)
from azul_fast.report.settings import SETTINGS, StudySize
from azul_fast.runs.where import Where

if TYPE_CHECKING:
    pass

# The report's sizes and defaults (SETTINGS, default_policy, ...) live in azul_fast.report.settings.

__all__ = ["ReportConfig"]


@dataclass(frozen=True)
class ReportConfig:
    """Everything that determines a report's numbers (workers only change how fast it runs)."""

    out: Path
    games: int      # games of the policy a player count (2 players: at least the setting's precision's)
    players: tuple[int, ...]
    policy: PolicySpec  # parsed once, by build_report: the studies carry it
    seed: int
    workers: int
    rollouts: int
    variant: str = "colored"    # a variant of VARIANTS, or "both"
    setting: str = "default"    # a key of SETTINGS

    @property
    def size(self) -> StudySize:
        return SETTINGS[self.setting]

    @property
    def main_variant(self) -> str:
        """The wall of the main study ("both" adds the gray games beside the colored study)."""
        return "gray" if self.variant == "gray" else "colored"

    def command(self) -> str:
        """The command that reproduces this report, every option explicit (it runs as printed: the
        folder is quoted for the shell, and every setting, ``--default`` too, is an option of
        ``azul-fast report``)."""
        players = " ".join(map(str, self.players))
        return (
            f"azul-fast report --{self.setting} --games {self.games} --players {players} --policy {self.policy} "
            f"--seed {self.seed} --rollouts {self.rollouts} --variant {self.variant} --workers {self.workers} "
            f"--out {shlex.quote(str(self.out))}"
        )

    def run_seed(self, players: int) -> int:
        """Root seed of the run at `players` players: spawned from the report seed, never added."""
        return spawn_seed(self.seed, players)

    def policy_games(self, players: int) -> int:
        """Games of the report's policy at `players` players: `games`, and at 2 players at least
        enough for the setting's precision (`StudySize.top_games`)."""
        return self.size.top_games(players, self.games)

    def fixed_games(self) -> dict[tuple[int, str], int]:
        """The strength study's runs given `policy_games` instead of the budget's: the report's policy
        (whose games the seat study reuses) and the setting's, the headline's (`StudySize.policy`),
        where they are levels of the study."""
        levels = self.size.levels()
        return {(n, p): self.policy_games(n) for n in self.players
                for p in dict.fromkeys((self.policy, self.size.policy())) if p in levels}

    def move_seed(self, kind: int) -> int:
        """Root seed of the move-level studies' games (`kind` 0) and marker rollouts (1): spawn keys
        no player count's run uses."""
        return spawn_seed(self.seed, kind)


@dataclass
class ReportRun:
    """What the study found, gathered step by step."""

    config: ReportConfig
    say: Callable[[str], Any]
    # The fraction (0..1) of the running step done, for a step that can tell (runs.heartbeat).
    progress: Callable[[float], Any] = field(default=lambda fraction: None, kw_only=True)
    # Where the games and rollouts run: config.workers threads, or a Dask cluster (runs.where).
    where: Where = field(default_factory=Where, kw_only=True)
    folder: Path  # where the files are written: a staging folder beside config.out (see build_report)
    runs: dict[int, pd.DataFrame] = field(default_factory=dict)
    gray_runs: dict[int, pd.DataFrame] = field(default_factory=dict)  # variant "both": the same deals, gray
    variants: pd.DataFrame = field(default_factory=pd.DataFrame)
    variant_pairs: pd.DataFrame = field(default_factory=pd.DataFrame)  # seats.variant_difference
    # Empty until analyse fills them.
    strength: pd.DataFrame = field(default_factory=pd.DataFrame)  # strength.first_player_by_strength
    # Its games of the report's policy by player count (colored wall): the seat study reads them.
    strength_games: dict[int, pd.DataFrame] = field(default_factory=dict)
    seats: pd.DataFrame = field(default_factory=pd.DataFrame)
    openings: pd.DataFrame = field(default_factory=pd.DataFrame)
    types: pd.DataFrame = field(default_factory=pd.DataFrame)  # opening_types.opening_types
    type_moves: pd.DataFrame = field(default_factory=pd.DataFrame)  # its per-deal drill-down
    ranking: pd.DataFrame = field(default_factory=pd.DataFrame)  # the first deal of the drill-down
    ladder: pd.DataFrame = field(default_factory=pd.DataFrame)
    moves: MoveStudy | None = None  # the move-level studies (azul_fast.report.move_section)
    charts: dict[str, str] = field(default_factory=dict)  # name -> title
    diagrams: set[str] = field(default_factory=set)  # the charts that are board diagrams (SVG only)
    narrow_text_pt: dict[str, float] = field(default_factory=dict)  # chart -> smallest text of its narrow render
    files: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)
