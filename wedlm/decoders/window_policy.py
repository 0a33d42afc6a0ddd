"""The verified decoder's window policy: how many masks each forward carries (BEYOND THE PAPER).

The verified decoder's text is greedy AR decoding of the same weights whatever the window holds,
so this policy changes only speed, never text. Each forward it picks m masks (0 ... W) to
maximise the tokens it expects per unit of forward cost:

    value(m) = (1 + sum_{i=1..k} a^i + sum_{i=1..m-1} a^i) / (cost(rows(m)) + cost(m) - cost(1))

1 is the AR token every forward yields; k drafts are checked now; m masks draft m - 1 slots for
the next forward (the first mask's slot gets the AR token instead), and what checking those
drafts adds to a forward is charged now; rows(m) is this forward's rows; `a` is the recent rate at
which a checked draft agrees, given the one before it did (a geometric run, estimated with
exponential forgetting); cost(rows) is a curve measured on the running device (`cost_curve`).
With m = 0 the forward is one row: exactly an AR step. Where drafts fail the value picks 0 and
the policy only probes every `backoff` forwards, doubling the gap after each probe whose draft
does not agree (4, 8, ... 64) and resetting it when it does; where drafts succeed, a -> 1 and the
whole window W pays. A probe is 2 masks: the first mask's slot gets the AR token and the fill rule
always fills the one left, so the probe's draft sits right after slot 0 and the next forward
checks it (2 rows each; a 3-mask probe could leave that slot open and check nothing). After a
check in which no draft agreed, where drafts do not mostly agree (a < GATE = 0.6), the policy
takes AR steps and probes until agreeing probes lift a to GATE again: on high-entropy text one
lucky agreement (or a noisy cost curve: 2-4 rows time at 1.07-1.2x one) must not buy more wide
forwards. Drafting is chosen only when its value beats
an AR step's by MARGIN (a few rows cost little more than one, so timing noise must not decide).
Whatever it picks, the text is the same: a worse choice costs time, never a token.
"""
from __future__ import annotations

import json
import os
import time
from bisect import bisect_left
from pathlib import Path

import torch
from transformers import DynamicCache

from ..loading import LoadedModel
from ..reorder import leading_filled

MEASURED_ROWS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 33)  # the row counts timed at startup
FIRST_MASKS = 16         # the first forward's masks (at most W): how predictable is the text?
PROBE_MASKS = 2          # a probe drafts one slot, next to slot 0 (the first mask's slot gets the AR token)
FIRST_BACKOFF = 4        # forwards without masks before the first probe
MAX_BACKOFF = 64
# After a check in which no draft agreed, drafting waits for agreeing probes while the
# estimated acceptance is under this (high-entropy text); above it (counting: a lone miss in
# long agreeing runs) the cost rule goes on choosing. Above one half: a few checks make a
# noisy estimate, and one agreeing probe right after a miss lifts it to ~0.54.
GATE = 0.6
FORGET = 0.8             # weight of older acceptance counts per observation
PRIOR = (0.5, 1.0)       # (accepted, trials) before any draft was checked
# Drafting is chosen only when its value beats an AR step's by this share: a few rows cost only
# a little more than one (1.1-1.3x), so on a busy machine timing noise alone can make them look
# free; where drafts agree (counting) drafting wins by far more than this.
MARGIN = 0.1


class CostCurve:
    """Seconds (or any unit) per forward as a function of its rows; monotone, interpolated
    linearly between measured row counts and extrapolated from the last two beyond them."""

    def __init__(self, by_rows: dict[int, float], source: str = "fixed table"):
        if not by_rows or 1 not in by_rows:
            raise ValueError("a cost curve needs at least the 1-row cost")
        rows = sorted(by_rows)
        # Monotone: a bigger forward never looks cheaper. On a shared machine timing noise is
        # interference (upward spikes), so each cost is the least measured at this or more rows.
        costs, least = [], float("inf")
        for r in reversed(rows):
            least = min(least, float(by_rows[r]))
            costs.append(least)
        self.rows, self.costs, self.source = rows, costs[::-1], source

    def __call__(self, rows: int) -> float:
        i = bisect_left(self.rows, rows)
        if i < len(self.rows) and self.rows[i] == rows:
            return self.costs[i]
        if i == 0:
            return self.costs[0]
        if i == len(self.rows):  # beyond the table: the last slope
            if len(self.rows) == 1:
                return self.costs[0]
            r0, r1, c0, c1 = self.rows[-2], self.rows[-1], self.costs[-2], self.costs[-1]
        else:
            r0, r1, c0, c1 = self.rows[i - 1], self.rows[i], self.costs[i - 1], self.costs[i]
        return c0 + (c1 - c0) * (rows - r0) / (r1 - r0)

    def ratios(self) -> dict[int, float]:
        """Cost against a 1-row forward at each tabled row count."""
        return {r: c / self.costs[0] for r, c in zip(self.rows, self.costs)}

    def to_dict(self) -> dict:
        return {"source": self.source, "seconds_by_rows": dict(zip(map(str, self.rows), self.costs))}


_CURVES: dict[tuple, CostCurve] = {}  # per model, device, dtype and threads, for the process


def _device_key(lm: LoadedModel) -> tuple:
    return (lm.name, str(lm.device), str(lm.dtype), lm.attn_implementation, torch.get_num_threads())


def isotonic(values: list[float], weights: list[float] | None = None) -> list[float]:
    """The closest non-decreasing sequence (weighted least squares; pool adjacent violators):
    one noisy size is averaged with its neighbours, by how many timings each holds, instead of
    dragging the whole curve."""
    weights = [1.0] * len(values) if weights is None else [float(w) for w in weights]
    blocks: list[list[float]] = []  # [weighted sum, weight, sizes pooled]
    for v, w in zip(values, weights):
        blocks.append([v * w, w, 1])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            total, weight, count = blocks.pop()
            blocks[-1][0] += total
            blocks[-1][1] += weight
            blocks[-1][2] += count
    return [total / weight for total, weight, count in blocks for _ in range(int(count))]


def measure_cost_curve(lm: LoadedModel, rows=MEASURED_ROWS, repeats: int = 9,
                       prefix: int = 64) -> CostCurve:
    """Time window forwards of each row count over a `prefix`-token cache on this device,
    sizes interleaved round by round (so a burst of load hits them alike), the least time per
    size after one warm-up round, made non-decreasing (`isotonic`). The least, not the median:
    on a shared machine other work only ever adds time, and under heavy load a median drifts
    with it (a flat curve makes drafting look free)."""
    prefix = max(1, min(prefix, lm.max_context - max(rows)))
    ids = [lm.mask_token_id] * prefix  # content does not change a forward's cost
    cache = DynamicCache(config=lm.model.config)
    sync = torch.cuda.synchronize if lm.device.type == "cuda" else (lambda: None)
    times: dict[int, list[float]] = {r: [] for r in rows}
    with torch.inference_mode():
        lm.model(input_ids=torch.tensor([ids], device=lm.device), past_key_values=cache,
                 use_cache=True, logits_to_keep=1)
        for k in range(repeats + 1):
            for r in rows:
                window = torch.tensor([[lm.mask_token_id] * r], device=lm.device)
                positions = torch.arange(prefix, prefix + r, device=lm.device)[None]
                sync()
                t0 = time.perf_counter()
                lm.model(input_ids=window, position_ids=positions, past_key_values=cache,
                         use_cache=True, logits_to_keep=r)
                sync()
                if k:  # the first round is a warm-up
                    times[r].append(time.perf_counter() - t0)
                cache.crop(-r)
    # the least time per size, made non-decreasing in rows
    sizes = sorted(times)
    costs = isotonic([min(times[r]) for r in sizes])
    return CostCurve(dict(zip(sizes, costs)),
                     source=f"measured on {lm.device} ({lm.dtype}, {torch.get_num_threads()} threads)")


def _disk_cache() -> Path | None:
    """WEDLM_CACHE_DIR, when set, keeps measured curves across processes (never the repo)."""
    folder = os.environ.get("WEDLM_CACHE_DIR")
    return Path(folder) / "cost_curves.json" if folder else None


def cost_curve(lm: LoadedModel) -> CostCurve:
    """The running device's cost curve for this model: measured once per process (and read
    from / written to WEDLM_CACHE_DIR when set)."""
    key = _device_key(lm)
    if key in _CURVES:
        return _CURVES[key]
    path, name = _disk_cache(), json.dumps(key)
    stored = {}
    if path is not None and path.is_file():
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            stored = {}
    entry = stored.get(name) if isinstance(stored, dict) else None
    try:
        curve = CostCurve({int(r): float(s) for r, s in entry["seconds_by_rows"].items()},
                          source=str(entry["source"]) + " (cached)")
    except (TypeError, KeyError, ValueError, AttributeError):
        curve = measure_cost_curve(lm)
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                stored = stored if isinstance(stored, dict) else {}
                stored[name] = curve.to_dict()
                path.write_text(json.dumps(stored, indent=1), encoding="utf-8")
            except OSError:
                pass  # a cache is a convenience
    _CURVES[key] = curve
    return curve


def shape_window(window: list, masks: int, room: int) -> list:
    """The window with exactly `masks` mask slots where room allows: the leading filled run is
    kept, slots after it are kept up to the masks-th mask, more masks are appended. Drafts are
    not final in the verified decoder, so slots past the kept masks may be dropped."""
    lead = leading_filled(window)
    out, count = list(window[:lead]), 0
    for tok in window[lead:]:
        if tok is None:
            if count == masks:
                break
            count += 1
        out.append(tok)
    out += [None] * (masks - count)
    return out[:max(room, 1)]


def before_stop(window: list, stop_ids) -> list:
    """The window up to its first drafted stop token (slot 0, already in the text, aside). The
    row before a stop draft already predicts that slot (the AR token there), and nothing after
    it can commit: accepted, the decode ends; rejected, what follows is dropped. So the stop
    draft and every slot after it would cost rows and never a token."""
    for i in range(1, len(window)):
        if window[i] is not None and window[i] in stop_ids:
            return window[:i]
    return window


class WindowPolicy:
    """Masks per forward, told what each forward's verification found."""

    def masks(self, window: list, room: int) -> int:
        raise NotImplementedError

    def observe(self, offered: int, accepted: int) -> None:
        """This forward checked drafts for `offered` slots (the masks the last forward filled or
        left open after the AR slot) and `accepted` of them, from the first, agreed."""

    probing = False  # the last `masks` answer was a probe


class FullWindow(WindowPolicy):
    """Always W masks, as the official engine keeps its window (no back-off)."""

    def __init__(self, window: int):
        self.window = window

    def masks(self, window: list, room: int) -> int:
        return self.window


class NoDrafts(WindowPolicy):
    """Never a mask: every forward is one row, an AR step."""

    def masks(self, window: list, room: int) -> int:
        return 0


class CostAwareWindow(WindowPolicy):
    """Beyond the paper: the mask count that maximises expected tokens per unit of forward
    cost (module docstring), with probes that back off where drafts fail."""

    def __init__(self, window: int, cost: CostCurve):
        self.window, self.cost = window, cost
        self._costs: dict[int, float] = {}
        self.hits, self.trials = 0.0, 0.0   # decayed counts of agreeing drafts / checks
        self.backoff = FIRST_BACKOFF
        self.since_probe = 0
        self.first = True
        self.probing = False
        self.awaiting_probe = False          # the drafts of the last probe are checked next
        self.failed = False                  # the last check found no agreeing draft

    @property
    def acceptance(self) -> float:
        """Estimated chance a draft agrees given the one before it did."""
        return (self.hits + PRIOR[0]) / (self.trials + PRIOR[1])

    def value(self, window: list, masks: int, room: int) -> float:
        """Expected tokens per unit of cost if this forward carries `masks` masks: its AR token
        and checked drafts now, plus the masks-1 drafts they make, whose rows (what they add to
        a one-row forward when checked next) are charged now."""
        return self._values(window, room, [masks])[0]

    def _cost(self, rows: int) -> float:
        """cost(rows), memoised: the policy asks it for every option at every forward."""
        try:
            return self._costs[rows]
        except KeyError:
            self._costs[rows] = cost = self.cost(rows)
            return cost

    def _values(self, window: list, room: int, options: list[int]) -> list[float]:
        """`value` of each mask count in `options`, in one pass over the window (the rows of
        `shape_window(window, m, room)` without building it: the policy runs every forward)."""
        a = self.acceptance
        lead = leading_filled(window)
        open_at = [i for i in range(lead, len(window)) if window[i] is None]  # masks after the run
        powers = [1.0]  # powers[i] = a ** i, summed cumulatively below
        for _ in range(max(lead - 1, max(options) - 1, 0)):
            powers.append(powers[-1] * a)
        sums = [0.0]    # sums[k] = a + a^2 + ... + a^k
        for p in powers[1:]:
            sums.append(sums[-1] + p)
        now = 1 + sums[lead - 1] if lead else 1.0  # slot 0 is the AR token, exact
        base, cap = self._cost(1), max(room, 1)
        values = []
        for m in options:
            if m < len(open_at):  # up to the (m+1)-th mask, drafts after the m-th kept
                rows = open_at[m]
            else:
                rows = len(window) + m - len(open_at)
            drafts = max(m - 1, 0)
            later = self._cost(1 + drafts) - base  # what checking the drafts adds to a forward
            values.append((now + sums[drafts]) / (self._cost(min(rows, cap)) + later))
        return values

    def masks(self, window: list, room: int) -> int:
        self.probing = False
        if self.first:  # the first forward: how predictable is the text?
            self.first = False
            return min(FIRST_MASKS, self.window)
        drafts = leading_filled(window) - 1
        if self.trials == 0 and drafts and None not in window:
            return self.window  # the first forward's drafts all stand in a run: keep the window
        # after a failed check where drafts agree less often than not: probes only
        best = 0 if self.failed and self.acceptance < GATE else self._best(window, room)
        if best > 0:
            self.since_probe = 0
            return best
        self.since_probe += 1
        if self.since_probe >= self.backoff and self.window >= 2:
            self.since_probe = 0
            self.probing = self.awaiting_probe = True
            return min(PROBE_MASKS, self.window)
        return 0

    def _best(self, window: list, room: int) -> int:
        """The mask count of highest value; an AR step unless drafting beats it by MARGIN."""
        options = [0] + list(range(2, self.window + 1))  # one mask drafts nothing (its slot gets the AR token)
        values = self._values(window, room, options)
        values[0] *= 1 + MARGIN  # drafting must beat an AR step clearly (the curve is noisy)
        return options[max(range(len(options)), key=lambda k: (values[k], -options[k]))]

    def observe(self, offered: int, accepted: int) -> None:
        if self.awaiting_probe and not self.probing:  # this forward checked the probe's draft
            self.awaiting_probe = False
            # a probe pays only if its draft agrees: anything less backs off further
            self.backoff = FIRST_BACKOFF if accepted >= PROBE_MASKS - 1 else min(2 * self.backoff, MAX_BACKOFF)
        if offered or accepted:  # trials: the agreeing drafts, plus the first slot that did not
            # agree (a rejected draft, or a slot the fill rule left open: no draft at all)
            self.hits = FORGET * self.hits + accepted
            self.trials = FORGET * self.trials + accepted + (1 if accepted < offered else 0)
            # drafting resumes once drafts agree again (probes) and have lifted a to GATE
            self.failed = accepted == 0 or (self.failed and self.acceptance < GATE)


def make_policy(name: str, window: int, lm: LoadedModel, cost: CostCurve | None = None) -> WindowPolicy:
    """'cost' (the default: cost-aware, measured curve unless one is given), 'full' or 'none'."""
    if name == "cost":
        return CostAwareWindow(window, cost or cost_curve(lm))
    if name == "full":
        return FullWindow(window)
    if name == "none":
        return NoDrafts()
    raise ValueError(f"unknown window policy {name!r} (cost, full or none)")
