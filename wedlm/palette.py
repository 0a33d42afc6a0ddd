"""The token states' colours and marks: one source for the app (app/views/palette.py reads them
for CSS, figures and exports) and for the library's own drawings (wedlm/animate.py), which cannot
import the app. Every state also has a mark, so it reads without colour."""
from __future__ import annotations

# Token states, as every view names them (app/views/timeline.py Timeline.state_at and the window rows).
STATE_COLOURS = {
    "mask": "#d1d5db",        # grey: still a mask
    "filled": "#fde68a",      # amber: filled, not committed (recomputed next forward)
    "new": "#fdba74",         # orange: filled by this step's forward
    "committed": "#86efac",   # green: its KV is in the cache; final output
    "committing": "#bbf7d0",  # light green: in a forward's leading run, its KV written by that forward
    "stop": "#c4b5fd",        # violet: the stop token
    "dropped": "#f3f4f6",     # pale: filled after the stop token, never output
}
STATE_LABELS = {
    "mask": "mask", "filled": "filled, not committed", "new": "new this step",
    "committed": "committed (in the KV cache)",
    "committing": "committing (its KV enters the cache now)", "stop": "stop token",
    "dropped": "dropped (after the stop token)",
}
# The edge each state is drawn with (the stylesheet's borders, app/static/style.css) ...
STATE_EDGES = {
    "mask": "#9ca3af", "filled": "#6b7280", "new": "#9a3412", "committed": "#15803d", "committing": "#15803d",
    "stop": "#5b21b6", "dropped": "#d1d5db",
}
# ... and the mark that tells the state without colour, as the legends name it.
STATE_MARKS = {
    "mask": "[M]", "filled": "dashed edge", "new": "thick edge, corner flag",
    "committed": "solid edge, tick", "committing": "dashed bottom edge, arrow", "stop": "<EOS>, square", "dropped": "struck through",
}

# The verified decoder's checks (BEYOND THE PAPER, decoders/verified.py): each draft it checked
# is accepted or rejected, and the model's own next token it found replaces a rejected draft or is appended
# after an accepted run. A mark tells each without colour.
VERIFY_COLOURS = {
    "accepted": "#047857",    # emerald: the draft agreed with the model's own next-token prediction
    "rejected": "#b91c1c",    # dark red: the first draft that did not (replaced by the model's own next token)
    "ar": "#0369a1",          # sky blue: the model's own next token this forward found (the one an AR decoder would pick)
}
VERIFY_MARKS = {"accepted": "✓", "rejected": "✗", "ar": "▸"}
VERIFY_LABELS = {
    "accepted": "✓ draft accepted (agrees with the model's next token)", "rejected": "✗ draft rejected",
    "ar": "the model's next token (replaces the rejected draft, or appended free)",
}
