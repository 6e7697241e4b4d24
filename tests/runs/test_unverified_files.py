"""Results whose numbers cannot be verified: a file without azul_fast's content checksum is refused by
`load` and by every command that reads one, unless asked for, and then read with a warning."""

from __future__ import annotations

import re
import warnings

import pandas as pd
import pytest

from azul_fast import cli, load, save, simulate
from azul_fast.runs.storage import UnverifiedFileError, UnverifiedWarning


@pytest.fixture
def edited(tmp_path):
    """A file that `save` wrote, edited with pandas and saved again: one score one point higher."""
    path = tmp_path / "games.parquet"
    save(simulate(60, seed=5, workers=1), path)
    df = pd.read_parquet(path)
    df.loc[0, "score_0"] += 1
    df.to_parquet(path)
    return path, df


def test_load_refuses_a_file_edited_with_pandas_naming_the_way_to_read_it(edited):
    path, _ = edited
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a refusal, not a warning
        with pytest.raises(UnverifiedFileError) as refused:
            load(path)
    message = str(refused.value)
    assert len(message.splitlines()) == 1
    assert message.startswith(f"{path} has no azul_fast content checksum")
    assert "its numbers cannot be verified" in message and "verify=False" in message


def test_load_with_verify_false_reads_the_edited_numbers_with_a_warning(edited):
    path, df = edited
    with pytest.warns(UnverifiedWarning, match=re.escape(f"{path} has no azul_fast content checksum: its numbers "
                                                         "are not verified")):
        back = load(path, verify=False)
    assert back.score_0.iloc[0] == df.score_0.iloc[0]


def test_a_saved_file_loads_without_a_warning_and_verify_is_checked(tmp_path):
    path = tmp_path / "games.parquet"
    df = simulate(20, seed=2, workers=1)
    save(df, path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert load(path).equals(df) and load(path, verify=False).equals(df)
    with pytest.raises(TypeError, match="verify must be True or False"):
        load(path, verify="no")


def test_verify_false_never_reads_a_file_whose_checksum_fails(tmp_path):
    path = tmp_path / "games.parquet"
    save(simulate(20, seed=2, workers=1), path)
    path.write_bytes(path.read_bytes().replace(b"game", b"gama"))
    with pytest.raises(ValueError, match="does not match the checksum saved with it"):
        load(path, verify=False)


@pytest.mark.parametrize("command", ["seats", "openings"])
def test_commands_refuse_an_unverified_file_unless_asked(edited, capsys, command):
    path, _ = edited
    assert cli.main([command, str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1, err
    assert f"{path} has no azul_fast content checksum" in err and "pass --unverified to read it anyway" in err
    with pytest.warns(UnverifiedWarning, match="its numbers are not verified"):
        assert cli.main([command, str(path), "--unverified"]) == 0
    assert capsys.readouterr().out
