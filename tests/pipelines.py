"""The pipelines that extraction tests run on: blank English always, the trained one (the `models`
extra, which `make test` installs) when it is installed."""
from __future__ import annotations

import importlib.util

import pytest

from kg.extract.pipeline import ALIASES

TRAINED = "en_core_web_sm"
HAS_TRAINED = any(importlib.util.find_spec(name) for name in ALIASES[TRAINED])
needs_trained = pytest.mark.skipif(not HAS_TRAINED, reason="trained pipeline en_core_web_sm not installed "
                                                           "(pip install 'kg[models]')")
#: `make_pipeline` arguments: blank English, then the trained pipeline.
PIPELINES = [None, pytest.param(TRAINED, marks=needs_trained, id=TRAINED)]
