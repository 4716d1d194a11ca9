"""pylabs: the physics, lab controllers and renderer of the ML Systems labs.

The same modules run in CPython (tests, site build) and in Pyodide (the browser).
Runtime dependencies: the Python standard library only.
"""

__version__ = "0.1.0"
