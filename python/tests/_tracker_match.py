"""Structural pattern matching on the tracker's results (Python 3.10+ only:
imported by test_tracker.py behind a version check)."""

from __future__ import annotations

from skirmish import Moment, NewRound, Over, StrikeReport, StrikeResult, Turn


def describe_turn(turn: Turn) -> str:
    match turn:
        case NewRound(round=r, sheet=sheet):
            return f"round {r}: {len(sheet)} entries"
        case Moment(display=tick, lines=[line]):
            return f"tick {tick}: {line.name}"
        case Moment(display=tick, lines=lines):
            return f"tick {tick}: {len(lines)} lines"
        case Over():
            return "over"
    return "?"


def describe_strike(report: StrikeReport) -> str:
    match report:
        case StrikeReport(result=StrikeResult.PARRIED):
            return "parried"
        case StrikeReport(result=StrikeResult.HIT | StrikeResult.AMAZING_STRIKE, margin=m, went_down=False):
            return f"hit by {m}"
        case StrikeReport(result="hit", went_down=True):
            return "felled"
        case StrikeReport(landed=False):
            return "miss"
    return "?"
