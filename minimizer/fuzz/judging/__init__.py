"""Judging one program: the fuzz oracles that decide whether it shows a finding, and the key that
names the finding's root cause. Judging writes nothing; the store files what it returns."""
