"""Turn grading results into the text the CLI prints (this module builds strings, never prints)."""

from __future__ import annotations

from collections.abc import Iterable

from pacman.grading.grader import CaseResult, CaseStatus, GradeReport

__all__ = ["format_case", "format_summary"]

_LABELS = {CaseStatus.PASSED: "PASS", CaseStatus.FAILED: "FAIL", CaseStatus.ERROR: "ERROR",
           CaseStatus.SKIPPED: "SKIP"}


def format_case(result: CaseResult) -> str:
    """One line for a passed or skipped case; the full explanation for a failed one."""
    label = _LABELS[result.status]
    if result.status is CaseStatus.PASSED:
        return f"{label} {result.path}"
    if result.status is CaseStatus.SKIPPED:
        return f"{label} {result.path} ({result.message})"
    if result.status is CaseStatus.ERROR:
        return f"{label} {result.message}"
    lines = [f"{label} {result.path} ({result.alg}, depth {result.depth})"]
    if result.message:
        lines.append(f"  problem:   {result.message}")
    if result.actual_action is not None or result.expected_action is not None:
        actual = result.actual_action if result.actual_action is not None else "(none)"
        lines.append(f"  action:    expected {result.expected_action}, got {actual}")
    lines.append(f"  generated: expected {_names(result.expected_generated)}")
    lines.append(f"             got      {_names(result.actual_generated)}")
    if result.missing:
        lines.append(f"             missing  {_names(result.missing)}")
    if result.extra:
        lines.append(f"             extra    {_names(result.extra)}")
    lines.extend(f"  hint:      {hint}" for hint in result.hints)
    if result.diagram.strip():
        lines.append("  diagram:")
        lines.extend(f"    {line}".rstrip() for line in result.diagram.strip("\n").split("\n"))
    return "\n".join(lines)


def format_summary(report: GradeReport) -> str:
    """The failed cases by name, then `N passed, M failed` (and `, K skipped` if any)."""
    lines = []
    failed = [r for r in report.results if r.status in (CaseStatus.FAILED, CaseStatus.ERROR)]
    if failed:
        lines.append("failed:")
        lines.extend(f"  {r.path}" for r in failed)
    closing = f"{report.passed} passed, {report.failed} failed"
    if report.skipped:
        closing += f", {report.skipped} skipped"
    lines.append(closing)
    return "\n".join(lines)


def _names(names: Iterable[str]) -> str:
    return " ".join(sorted(names)) or "(none)"
