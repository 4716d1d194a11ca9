"""Build-time tooling: the pylabs wheel, vendored npm assets, MkDocs hooks, the local server."""
