"""Fixtures shared by the lab tests."""

from __future__ import annotations

import dataclasses
import importlib

import pytest


@pytest.fixture
def relabelled(request, monkeypatch):
    """``relabelled(**fields)``: the test module's ``lab`` reloaded over its ``model``'s Scenario with
    ``fields`` changed (text built at import follows it); the real lab is reloaded afterwards."""
    lab, model = request.module.lab, request.module.model

    def reload(**fields):
        monkeypatch.setattr(model, "S", dataclasses.replace(model.S, **fields))
        return importlib.reload(lab)
    yield reload
    monkeypatch.undo()
    importlib.reload(lab)
