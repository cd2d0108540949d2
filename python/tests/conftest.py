"""Shared fixtures: the `attest` binary the answers are compared with, and articles written for these tests."""

import json
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]

# Articles written for these tests (no corpus text): outlets, named, unnamed and no sources.
ARTICLES = [
    {
        "id": "gazette-1",
        "outlet": "The Gazette",
        "published": "2026-03-04",
        "title": "Bridge reopens",
        "text": "The mayor said the bridge was safe. "
        "“We checked every bolt,” said Dana Whitfield, the city engineer. "
        "Officials who asked not to be named said the repairs cost $4 million.",
    },
    {
        "id": "gazette-2",
        "outlet": "The Gazette",
        "published": "2026-03-05",
        "text": "Dana Whitfield said the inspection would finish on Friday. "
        "The council denied that it had delayed the work.",
    },
    {
        "id": "herald-1",
        "outlet": "The Herald",
        "published": "2026-03-06",
        "text": "A person familiar with the talks said the deal was close. "
        "“Nothing is agreed,” the union said in a statement. "
        "Prices will rise, the bank said.",
    },
]


@pytest.fixture(scope="session")
def attest_bin() -> str:
    """The `attest` binary: $ATTEST_BIN (run-tests.sh sets it), else the release build."""
    path = os.environ.get("ATTEST_BIN") or str(REPO / "target" / "release" / "attest")
    if not os.access(path, os.X_OK):
        pytest.fail(f"no attest binary at {path}: build it (cargo build --release --bin attest) or set ATTEST_BIN")
    return path


def run_cli(attest_bin: str, *args: str) -> str:
    done = subprocess.run([attest_bin, *args], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture()
def articles_jsonl(tmp_path: pathlib.Path) -> pathlib.Path:
    path = tmp_path / "articles.jsonl"
    path.write_text("".join(json.dumps(a, ensure_ascii=False) + "\n" for a in ARTICLES), encoding="utf-8")
    return path
