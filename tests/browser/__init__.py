"""Real-browser tests: Playwright drives the Debian ``chromium`` against a ``stich`` server in a subprocess."""
