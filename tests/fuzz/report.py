"""Keeping failing cases and summing a campaign up.

A failing case's folder (the mutated files exactly as loaded, plus ``case.json``) is moved to
``<out>/s<seed>-<index>-<outcome>``, so it can be opened, loaded again (``python -m viewer inspect``)
or regenerated (``python -m tests.fuzz --seed S --index K``). Passing cases are deleted. The summary
groups failures by signature (outcome + exception type + innermost project file:line), one example
each, because a thousand failing cases are usually a handful of bugs.
"""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

PASSING = ("ok", "rejected")
OUTCOMES = ("ok", "rejected", "crash", "hang", "oom", "nonfinite", "long-message")


def case_name(seed: int, index: int, outcome: str) -> str:
    return f"s{seed}-{index:06d}-{outcome}"


def keep_or_delete(workdir: Path, out: Path, record: dict) -> None:
    """Delete a passing case's folder; move a failing one under ``out`` with its ``case.json``."""
    if record["outcome"] in PASSING:
        shutil.rmtree(workdir, ignore_errors=True)
        return
    dest = out / case_name(record["seed"], record["index"], record["outcome"])
    if os.path.lexists(dest):
        shutil.rmtree(dest, ignore_errors=True)
    os.rename(workdir, dest)  # same file system (workdirs live under out/), FIFOs and links move as they are
    record["case_dir"] = str(dest)
    (dest / "case.json").write_text(json.dumps(record, indent=1, default=str) + "\n")


@dataclass
class Summary:
    """Counts per outcome and failures per signature over a campaign."""

    records: list[dict] = field(default_factory=list)

    def add(self, record: dict) -> None:
        self.records.append(record)

    @property
    def counts(self) -> Counter:
        return Counter(r["outcome"] for r in self.records)

    @property
    def failures(self) -> list[dict]:
        return [r for r in self.records if r["outcome"] not in PASSING]

    @property
    def passed(self) -> int:
        return len(self.records) - len(self.failures)

    def signatures(self) -> list[tuple[str, int, dict]]:
        """(signature, count, first example) for each distinct failure, most frequent first."""
        groups: dict[str, list[dict]] = {}
        for r in sorted(self.failures, key=lambda r: r["index"]):
            groups.setdefault(f"{r['outcome']}: {r.get('signature', '?')}", []).append(r)
        return sorted(((s, len(g), g[0]) for s, g in groups.items()), key=lambda x: (-x[1], x[0]))

    def final_line(self) -> str:
        return f"fuzz: {self.passed} passed, {len(self.failures)} failed"

    def table(self, examples: bool = True) -> str:
        counts = self.counts
        lines = ["outcome        cases"]
        lines += [f"{name:<14} {counts.get(name, 0):>5}" for name in OUTCOMES]
        lines += [f"{name:<14} {n:>5}" for name, n in counts.items() if name not in OUTCOMES]
        loaded = sum(1 for r in self.records if r.get("loaded"))
        rendered = sum(1 for r in self.records if r.get("rendered") is True)
        warned = sum(1 for r in self.records if r.get("gltf_warnings"))
        lines.append(f"loaded {loaded}, of them rendered {rendered}, with a GltfWarning {warned}")
        sigs = self.signatures()
        if sigs:
            lines.append(f"distinct failures: {len(sigs)}")
            for sig, n, example in sigs:
                lines.append(f"{n:>5}  {sig}")
                if examples:
                    lines.append(
                        f"       e.g. {example.get('case_dir', '?')}  [{example.get('seed_file')}; "
                        f"{' | '.join(example.get('mutations', []))[:300]}]"
                    )
        return "\n".join(lines)

    def write(self, out: Path) -> Path:
        """``<out>/summary-s<seed>.txt`` with the table, and every failing record as JSON lines."""
        seed = self.records[0]["seed"] if self.records else 0
        path = out / f"summary-s{seed}.txt"
        path.write_text(self.table() + "\n" + self.final_line() + "\n")
        with open(out / f"failures-s{seed}.jsonl", "w") as f:
            for r in self.failures:
                f.write(json.dumps({k: v for k, v in r.items() if k not in ("traceback", "stack")}, default=str) + "\n")
        return path
