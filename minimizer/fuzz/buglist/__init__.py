"""The bug list (``DIR/report.md``): the class of each bucket and the page a maintainer reads."""
