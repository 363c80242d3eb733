"""The pipeline: the command line, the plan, the schedule, running tasks (local processes or Dask), installing clips."""
