"""Developer tools: serve the site, screenshots, the layout check, benchmarks, the move-cost
probe and the class fixture. Nothing here runs in a site build (that is build_scripts/)."""
