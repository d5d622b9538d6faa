"""What a run prints and writes: tables, targets, JSON and plots.

A case's record: its params and, per contender, the timings per regime, the
ratio of medians to the case's baseline, and ``max_rel_diff``, max|Δ| over
max|reference| against the contender named in its ``check``.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from . import _timing as T


def print_case(record: dict) -> None:
    regimes = record["regimes"]
    print(f"\n### {record['suite']}: {record['case']} ({record['dtype']})\n")
    header = ["contender"]
    for regime in regimes:
        header += [f"{regime} median µs", "IQR", "ratio"]
    header.append("max rel Δ / error")
    rows = []
    for row in record["rows"]:
        cells = [row["name"]]
        for regime in regimes:
            t = row["timings"][regime]
            cells += [T.fmt_us(t), T.fmt_iqr(t), T.fmt_ratio(row["ratio"][regime])]
        error = next((t.error for t in row["timings"].values() if isinstance(t, T.Failure)), None)
        diff = row["max_rel_diff"]
        cells.append(error[:90] if error else ("" if diff is None else f"{diff:.1e}"))
        rows.append(cells)
    print(T.markdown_table(header, rows))
    print(f"\nratio: median / '{record['baseline']}' (> 1: slower)")


def evaluate_targets(records: list[dict]) -> list[dict]:
    """Each target of each case: the measured ratio, and whether it meets its bound."""
    out = []
    for record in records:
        medians = {
            (row["name"], regime): t.median
            for row in record["rows"]
            for regime, t in row["timings"].items()
            if isinstance(t, T.Timing)
        }  # fmt: skip
        for target in record["targets"]:
            regime = target["regime"]
            num = medians.get((target["numerator"], regime))
            dens = [medians[(d, regime)] for d in target["denominators"] if (d, regime) in medians]
            value = num / min(dens) if num is not None and dens else None
            met = None if value is None else value <= target["bound"]
            out.append({"suite": record["suite"], "case": record["case"], **target,
                        "value": value, "met": met})  # fmt: skip
    return out


def print_targets(targets: list[dict]) -> None:
    if not targets:
        return
    print("\n## Targets\n")
    rows = []
    for t in targets:
        value = "n/a (a contender failed or is missing)" if t["value"] is None else (
            f"{t['value']:.2f}")  # fmt: skip
        status = {True: "met", False: "**missed**", None: "—"}[t["met"]]
        rows.append([t["suite"], t["case"], t["description"], t["regime"], value,
                     f"≤ {t['bound']:.3g}", status])  # fmt: skip
    header = ["suite", "case", "target (a ratio of medians)", "regime", "measured", "bound", ""]
    print(T.markdown_table(header, rows))


# --- plots ------------------------------------------------------------------------------

_COLOURS = {"splines": "C0", "interpax": "C1", "scipy": "C2", "lax": "C3", "lineax": "C4",
            "jax": "C7"}  # fmt: skip
_STYLES = ("-", "--", ":", "-.")


def plot_sweeps(records: list[dict], directory: Path, stem: str) -> list[Path]:
    """One log-log plot per (suite, sweep): blocked median time against the swept size,
    a line per contender, coloured by library.  Needs matplotlib (else nothing)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plots (pip install -e '.[bench]')")
        return []
    sweeps = defaultdict(list)  # (suite, sweep) -> [(record, the param swept)]
    for record in records:
        if record["sweep"] is not None:
            names, params = record["sweep"], record["x"]
            if isinstance(names, str):
                names, params = (names,), (params,)
            for name, param in zip(names, params):
                sweeps[(record["suite"], name)].append((record, param))
    paths = []
    for (suite, sweep), group in sweeps.items():
        if len(group) < 2:
            continue
        lines = defaultdict(list)  # (library, name) -> [(x, seconds)]
        for record, param in group:
            x = record["params"][param]
            for row in record["rows"]:
                t = row["timings"].get("blocked")
                if isinstance(t, T.Timing):
                    lines[(row["library"], row["name"])].append((x, t.median))
        fig, ax = plt.subplots(figsize=(8, 5))
        used = defaultdict(int)
        for (library, name), points in lines.items():
            points.sort()
            style = _STYLES[used[library] % len(_STYLES)]
            used[library] += 1
            ax.plot([p[0] for p in points], [p[1] * 1e6 for p in points], style, marker="o",
                    color=_COLOURS.get(library, "k"), label=name, markersize=3)  # fmt: skip
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(group[0][1])
        ax.set_ylabel("median µs per call (blocked)")
        ax.set_title(f"{suite}: {sweep} ({group[0][0]['dtype']})")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
        fig.tight_layout()
        path = directory / f"{stem}_{suite}_{_slug(sweep)}.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        paths.append(path)
    return paths


def _slug(text: str) -> str:
    """ "cubic2, n=64" → "cubic2_n_64": a file name."""
    return "_".join("".join(c if c.isalnum() else " " for c in text).split())
