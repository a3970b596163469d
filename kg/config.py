"""Project settings in one place: `kg.toml`, or `[tool.kg]` in `pyproject.toml`, in the working folder.

Keys are the long option names with `_` for `-` (`base_iri`, `spacy_model`, `aliases`, `min_weight`,
`top_n`, `top_links`, `datasets`, `counting`, `seed`, `resolution`, `workers`, `format`, `strict`,
`output`). A command-line option always wins over the file; the file wins over the built-in defaults.
"""
from __future__ import annotations

import tomllib
from pathlib import Path

from kg.errors import ArgumentError


def find_config(folder: str | Path = ".") -> Path | None:
    """The settings file that applies in `folder`: `kg.toml`, else a pyproject.toml with `[tool.kg]`."""
    folder = Path(folder)
    if (folder / "kg.toml").is_file():
        return folder / "kg.toml"
    pyproject = folder / "pyproject.toml"
    if pyproject.is_file() and "kg" in _load(pyproject).get("tool", {}):
        return pyproject
    return None


def load_config(path: str | Path | None = None) -> dict:
    """The settings as a flat dict (empty when there is no file). Relative paths stay relative to the file."""
    path = Path(path) if path is not None else find_config()
    if path is None:
        return {}
    data = _load(path)
    settings = data.get("tool", {}).get("kg", {}) if path.name == "pyproject.toml" else data
    if not isinstance(settings, dict):
        raise ArgumentError(f"{path}: [tool.kg] must be a table of settings")
    settings = {key.replace("-", "_"): value for key, value in settings.items()}
    if isinstance(settings.get("aliases"), str):
        settings["aliases"] = str((path.parent / settings["aliases"]))
    return settings


def _load(path: Path) -> dict:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise ArgumentError(f"{path}: not valid TOML ({exc}); fix the file or remove it") from None
    except OSError as exc:
        raise ArgumentError(f"{path}: cannot be read ({exc.strerror})") from None
