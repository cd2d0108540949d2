"""Type stubs of the native module; users import ``attest``, which wraps it."""

from typing import Optional

SCHEMA: str

class AttestError(Exception): ...
class InputError(AttestError): ...
class ModelError(AttestError): ...
class LedgerError(AttestError): ...

class Analyzer:
    def __init__(self, model: str = "fast", model_dir: Optional[str] = None) -> None: ...
    def analyze(
        self, records: list[tuple[str, str]], threads: Optional[int] = None
    ) -> tuple[list[tuple[bool, str]], int]: ...

class Ledger:
    def __init__(self, location: str) -> None: ...
    def sources(
        self,
        limit: int,
        offset: int,
        outlet: Optional[str],
        since: Optional[str],
        until: Optional[str],
        kind: Optional[str],
        name: Optional[str],
    ) -> str: ...
    def said(
        self,
        name: str,
        limit: int,
        outlet: Optional[str],
        since: Optional[str],
        until: Optional[str],
    ) -> str: ...
    def search(
        self,
        query: str,
        limit: int,
        fts: bool,
        outlet: Optional[str],
        since: Optional[str],
        until: Optional[str],
    ) -> str: ...
    def stats(
        self, by: str, outlet: Optional[str], since: Optional[str], until: Optional[str]
    ) -> str: ...
    def ingest(
        self, analyzer: Analyzer, records: list[tuple[str, str, bool]], update: bool
    ) -> list[tuple[bool, str]]: ...
    def close(self) -> None: ...
