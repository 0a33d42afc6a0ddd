"""Scripts that drive the app or record assets; run them from the repository's root as
`python -m tools.NAME` (they import the `wedlm` and `app` packages of the checkout)."""
