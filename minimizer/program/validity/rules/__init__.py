"""The rules of a well-defined program, one module each (``validity.base.Rule``): the registry
imports every module here, so adding a rule is adding its file."""
