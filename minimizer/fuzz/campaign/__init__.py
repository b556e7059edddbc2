"""``fmin fuzz``: the campaign that drives sources, judging, the store, filing and the bug list,
its ``--recheck`` and its summaries."""
