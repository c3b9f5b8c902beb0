"""A path to a saved SB3 model given where a policy spec goes gets the spec that plays it: ``sb3:PATH``."""

from __future__ import annotations

import pytest

from boardgame_envs.cli import main
from boardgame_envs.policies import make_policy
from boardgame_envs.policies.registry import PolicySpecError, check_spec


@pytest.mark.parametrize("spec, suggestion", [
    ("runs/x/model.zip", "'sb3:runs/x/model.zip'"),
    ("model.zip", "'sb3:model.zip'"),
    ("runs/x/model.zip:sample=true", "'sb3:runs/x/model.zip:sample=true'"),
    (("best.zip", {"sample": True}), "('sb3', {'target': 'best.zip', 'sample': True})"),
])  # fmt: skip
def test_a_zip_path_suggests_sb3(spec, suggestion):
    for check in (make_policy, check_spec):
        with pytest.raises(PolicySpecError, match="did you mean") as caught:
            check(spec)
        assert str(caught.value).endswith(f"did you mean {suggestion}?")


def test_the_suggestion_is_a_spec_that_names_the_model(tmp_path):
    with pytest.raises(FileNotFoundError, match="no SB3 model at"):  # the suggested spec reaches sb3's loader
        make_policy("sb3:" + str(tmp_path / "model.zip"))


def test_rate_with_a_zip_path_is_one_line_exit_2(capsys):
    assert main(["rate", "runs/x/model.zip", "tictactoe", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "did you mean 'sb3:runs/x/model.zip'?" in err
