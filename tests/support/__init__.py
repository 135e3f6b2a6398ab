"""Helpers every test folder may use: the shared IO500 data (data.py, the one place that knows where it
is and what happens when it is missing) and a small published history for chart and page tests
(chart_data.py). Helpers of one folder stay in that folder (tests/submissions/helpers.py, ...)."""
