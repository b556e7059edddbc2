"""fmin: reduce nvFuser repro scripts to minimal ones, explain segmentations, fuzz fusions."""
__version__ = "0.1.0"
