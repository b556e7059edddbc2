"""The findings corpus on disk: a bucket's record (``finding.json``), the store of buckets, the
resume log, merging corpora and re-keying. The store is below judging: re-keying is handed the
key function, it does not judge."""
