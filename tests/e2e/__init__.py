"""End-to-end tests: the real agent CLIs, their hook protocols and clearance's hooks."""
