"""Fixtures several test modules share."""
from __future__ import annotations

import pytest

from kg.extract import make_pipeline


@pytest.fixture(scope="session")
def nlp():
    """kg's default pipeline: blank English with the sentencizer and the method component."""
    return make_pipeline()
