"""A whole asset library at once: ``animview check`` and ``animview render`` over folders.

``report`` fixes the shapes every part exchanges (a file's result is a plain JSON-able dict, so it crosses
process and machine boundaries unchanged); ``findings*`` judge one loaded scene (pure numpy, no GL);
the task function runs one file inside a sandbox process with time and memory limits; ``local`` and
``cluster`` hand files to sandboxes on this machine or on a Dask cluster; ``html_report`` and
``contact_sheet`` turn the results into one page and one picture.
"""
