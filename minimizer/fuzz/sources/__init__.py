"""Where a campaign's programs come from: Hypothesis strategies over the op catalog, reproducible
generation by example id, mutated real fusions (seeds) and the feedback queue of mutants that made
the compiler decide something new. Sources know nothing of judging, the store or the bug list."""
