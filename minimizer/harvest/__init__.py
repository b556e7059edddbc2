"""Seeds from an nvFuser checkout's own Python tests: finding the fusion functions and tracing
them in a worker process that runs the tests under stand-ins."""
