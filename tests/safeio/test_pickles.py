"""load_restricted: plain values and names of allowed classes; nothing from the pickle is ever called."""

from __future__ import annotations

import pickle

import pytest
import torch
from marker_pickles import payloads, proof_that_it_would_run

from boardgame_envs.safeio import ClassRef, FileRefusedError, load_restricted

RELU = ("torch.nn.modules.activation", "ReLU")


def test_plain_values_and_allowed_class_names_come_back():
    data = pickle.dumps({"net_arch": [16, (8, 4)], "activation_fn": torch.nn.ReLU, "x": None, "f": 1.5})
    value = load_restricted(data, {RELU}, "m.zip", "policy_kwargs")
    assert value == {"net_arch": [16, (8, 4)], "activation_fn": ClassRef(RELU), "x": None, "f": 1.5}
    assert value["activation_fn"].dotted == "torch.nn.modules.activation.ReLU" and not callable(value["activation_fn"])


def refused(data, allowed=frozenset({RELU})) -> str:
    with pytest.raises(FileRefusedError) as info:
        load_restricted(data, allowed, "m.zip", "policy_kwargs")
    text = str(info.value)
    assert "\n" not in text and text.startswith("m.zip: its policy_kwargs ")
    return text


def test_a_marker_pickle_never_runs(tmp_path):
    marker = tmp_path / "marker"
    proof_that_it_would_run(marker)
    for payload in payloads(marker):
        assert "it names" in refused(pickle.dumps({"a": [payload]}))
        assert not marker.exists()


def test_an_allowed_class_cannot_be_called_or_built_on():
    # ReLU() and ReLU.__new__ through REDUCE / NEWOBJ: an allowed class is a name, nothing to call
    assert "NEWOBJ class argument must be a type, not ClassRef" in refused(pickle.dumps(torch.nn.ReLU()))
    assert "refused" in refused(pickle.dumps(torch.nn.ReLU(), protocol=0))
    reduce = b"\x80\x04\x8c\x1btorch.nn.modules.activation\x94\x8c\x04ReLU\x94\x93\x94)R\x94."  # ReLU()
    assert "damaged or refused pickle (TypeError)" in refused(reduce)


def test_damage_size_and_persistent_ids_are_refused():
    assert "truncated" in refused(pickle.dumps([1, 2, 3])[:-3])
    assert "over the 65,536-byte limit" in refused(pickle.dumps("x" * 70_000))

    class WithIds(pickle.Pickler):
        def persistent_id(self, obj):
            return "outside" if obj == "ref" else None

    import io

    buffer = io.BytesIO()
    WithIds(buffer).dump(["ref"])
    assert "refers to objects outside the pickle" in refused(buffer.getvalue())
